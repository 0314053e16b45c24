/**
 * The bulk worker: claims batches of files from the store, verifies their rows and commits the
 * results, counts and refunds of each batch at once.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { DomainScope, Engine } from '../engine/types';
import type { AddressMemory, BatchQueue, ClaimedBatch, FileStore } from '../store/store';
import type { DeferralPolicy } from './deferral';
import { Poller } from './poller';
import { MEMORY_MS } from './revisits';
import { verifyBatch } from './verify-batch';

/** A batch claimed this many times (its workers died or stalled each time) fails its file, refunded. */
const MAX_ATTEMPTS = 5;
/** Files whose per-file DNS/catch-all caches a worker keeps. */
const SCOPES_KEPT = 32;

interface BatchWorkerDeps {
  batches: BatchQueue;
  files: FileStore;
  engine: Engine;
  log: FastifyBaseLogger;
  /** This process's name in leases (unique per process). */
  owner: string;
  leaseMs: number;
  pollMs: number;
  /** Batches' worth of rows a worker keeps in hand (it may hold twice as many batches). */
  concurrency: number;
  /** Rows per batch (the last one of a file may have fewer). */
  batchRows: number;
  /** When rows answered "not now" are tried again (./deferral.ts). */
  deferral: DeferralPolicy;
  /** Verdicts found by revisits of greylisted addresses (./revisits.ts). */
  memory?: AddressMemory;
}

/**
 * Claims batches of any process's files from the store, keys in turn (../store/store.ts,
 * BatchQueue.claim), a few at a time; renews
 * each claim while verifying it and commits its results in one transaction. All state is in
 * the database: a worker that dies loses its claims when their leases expire.
 *
 * The worker keeps `concurrency` batches' worth of rows in hand: it claims the next batch as
 * soon as the rows not yet verified fall below that, not when a batch has drained, so the
 * engine always has rows of many hosts waiting and no slot idles while a batch's last rows
 * finish and commit. With its hands full it still takes the first batch of a key that no
 * worker serves (up to `concurrency` batches beyond its hands), so a newcomer's file is not
 * queued behind batches of slow hosts that take minutes.
 */
export class BatchWorker {
  private readonly running = new Map<
    string,
    { batch: ClaimedBatch; done: Promise<void>; stop: AbortController }
  >();
  private readonly scopes = new Map<string, DomainScope>();
  /** Batches given back by stop(): their late results are not committed. */
  private readonly released = new Set<string>();
  private readonly poller: Poller;
  /** Rows of the running batches not verified yet. */
  private unverified = 0;

  constructor(private readonly deps: BatchWorkerDeps) {
    this.poller = new Poller(deps.pollMs, () => this.fill(), deps.log);
  }

  /** Looks for work now (after an upload, at start-up); idle workers also look every pollMs. */
  kick(): void {
    this.poller.kick();
  }

  get active(): number {
    return this.running.size;
  }

  private async fill(): Promise<void> {
    const { concurrency, batchRows } = this.deps;
    for (;;) {
      if (this.poller.stopped) return;
      // Hands full: still a batch of a key nobody serves (its first), up to `concurrency` more,
      // so a newcomer's file starts now, not when the batches in hand have drained.
      const full = !this.wantsMore(concurrency, batchRows);
      if (full && this.running.size >= 3 * concurrency) return;
      const batch = await this.deps.batches.claim(this.deps.owner, this.deps.leaseMs, full ? 0 : undefined);
      if (!batch) return;
      const key = `${batch.fileId}:${batch.firstRow}`;
      let left = batch.rows.length;
      this.unverified += left;
      const stop = new AbortController();
      const done = this.run(batch, stop, () => {
        // Claims again only when this row is what makes room: once it has, further rows would
        // each run an empty claim at a file's end (the poll and the batch's end ask anyway).
        const hadRoom = this.wantsMore(concurrency, batchRows);
        left--;
        this.unverified--;
        if (!hadRoom && this.wantsMore(concurrency, batchRows)) this.kick();
      }).finally(() => {
        this.unverified -= left;
        this.running.delete(key);
        this.kick();
      });
      this.running.set(key, { batch, done, stop });
    }
  }

  private wantsMore(concurrency: number, batchRows: number): boolean {
    return this.running.size < 2 * concurrency && this.unverified < concurrency * batchRows;
  }

  private scope(fileId: string): DomainScope {
    let scope = this.scopes.get(fileId);
    if (scope) {
      this.scopes.delete(fileId);
    } else {
      scope = this.deps.engine.newScope();
      if (this.scopes.size >= SCOPES_KEPT) this.scopes.delete(this.scopes.keys().next().value as string);
    }
    this.scopes.set(fileId, scope);
    return scope;
  }

  /**
   * Stops the batches of a deleted file at once: no row of it is probed after its refund. (A
   * file deleted through another process is noticed at the next lease renewal, within a second.)
   */
  cancelFile(fileId: string): void {
    for (const { batch, stop } of this.running.values())
      if (batch.fileId === fileId) stop.abort(new Error('file deleted'));
  }

  private async run(batch: ClaimedBatch, stop: AbortController, onRowDone: () => void): Promise<void> {
    const { deps } = this;
    const where = { fileId: batch.fileId, firstRow: batch.firstRow };
    if (batch.attempts > MAX_ATTEMPTS) {
      deps.log.error(where, 'a batch failed too often: failing its file');
      await deps.files.fail(batch.fileId, `processing failed ${MAX_ATTEMPTS} times`).catch(() => {});
      return;
    }
    const renew = setInterval(
      () => {
        deps.batches.renew(batch.fileId, batch.firstRow, deps.owner, deps.leaseMs).then(
          (held) => {
            if (held) return;
            // Taken over, or its file deleted: whatever is still being verified is not wanted.
            deps.log.warn(where, 'lost the lease on a batch');
            stop.abort(new Error('lease lost'));
          },
          (err: unknown) => deps.log.warn({ err, ...where }, 'could not renew a lease'),
        );
      },
      // At least every second: a file deleted through another process (an HTTP-only service in
      // front of workers) loses its batches' leases, and its rows stop within a second.
      Math.max(200, Math.min(1000, Math.floor(deps.leaseMs / 3))),
    );
    try {
      const { memory } = deps;
      const pass = await verifyBatch(deps.engine, this.scope(batch.fileId), batch, {
        onEngineError: (err) => deps.log.error({ err, fileId: batch.fileId }, 'engine failed on a row'),
        onRowDone,
        signal: stop.signal,
        policy: deps.deferral,
        recall: (emails) => memory?.recall(emails, batch.mode, MEMORY_MS) ?? Promise.resolve(new Map()),
      });
      if (stop.signal.aborted) return;
      if (this.poller.stopped && this.released.has(`${batch.fileId}:${batch.firstRow}`)) return;
      if (pass.kind === 'deferred') {
        const deferred = await deps.batches.defer({
          fileId: batch.fileId,
          firstRow: batch.firstRow,
          owner: deps.owner,
          partial: pass.partial,
          delayMs: pass.delayMs,
        });
        if (!deferred) deps.log.warn(where, 'batch taken over by another worker: result dropped');
        else deps.log.info({ ...where, delayMs: pass.delayMs }, 'batch deferred: rows to try again later');
        return;
      }
      const committed = await deps.batches.commit({
        fileId: batch.fileId,
        firstRow: batch.firstRow,
        owner: deps.owner,
        output: pass.output,
        counts: pass.counts,
      });
      if (!committed) deps.log.warn(where, 'batch taken over by another worker: result dropped');
    } catch (err) {
      if (!this.poller.stopped)
        deps.log.error({ err, ...where }, 'batch failed; it is retried after its lease');
    } finally {
      clearInterval(renew);
    }
  }

  /**
   * Stops claiming; waits up to `graceMs` for the batches being verified to commit, then gives
   * the others back at once so another worker takes them without waiting for the lease.
   */
  async stop(graceMs: number): Promise<void> {
    this.poller.stop();
    const all = [...this.running.values()];
    const finished = await Promise.race([
      Promise.allSettled(all.map((r) => r.done)).then(() => true),
      new Promise<false>((r) => setTimeout(() => r(false), graceMs).unref()),
    ]);
    const left = finished ? [] : [...this.running.entries()];
    await Promise.allSettled(
      left.map(([key, { batch }]) => {
        this.released.add(key);
        return this.deps.batches.release(batch.fileId, batch.firstRow, this.deps.owner);
      }),
    );
    this.deps.log.info({ finished: all.length - left.length, released: left.length }, 'batch worker stopped');
  }
}
