/**
 * The bulk worker: claims batches of files from the store, verifies their rows and commits the
 * results, counts and refunds of each batch at once.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { DomainScope, Engine } from '../engine/types';
import type { BatchQueue, ClaimedBatch, FileStore } from '../store/store';
import { Poller } from './poller';
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
}

/**
 * Claims batches of any process's files from the store, oldest first, a few at a time; renews
 * each claim while verifying it and commits its results in one transaction. All state is in
 * the database: a worker that dies loses its claims when their leases expire.
 *
 * The worker keeps `concurrency` batches' worth of rows in hand: it claims the next batch as
 * soon as the rows not yet verified fall below that, not when a batch has drained, so the
 * engine always has rows of many hosts waiting and no slot idles while a batch's last rows
 * finish and commit.
 */
export class BatchWorker {
  private readonly running = new Map<string, { batch: ClaimedBatch; done: Promise<void> }>();
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
    while (!this.poller.stopped && this.wantsMore(concurrency, batchRows)) {
      const batch = await this.deps.batches.claim(this.deps.owner, this.deps.leaseMs);
      if (!batch) return;
      const key = `${batch.fileId}:${batch.firstRow}`;
      let left = batch.rows.length;
      this.unverified += left;
      const done = this.run(batch, () => {
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
      this.running.set(key, { batch, done });
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

  private async run(batch: ClaimedBatch, onRowDone: () => void): Promise<void> {
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
            if (!held) deps.log.warn(where, 'lost the lease on a batch');
          },
          (err: unknown) => deps.log.warn({ err, ...where }, 'could not renew a lease'),
        );
      },
      Math.max(200, Math.floor(deps.leaseMs / 3)),
    );
    try {
      const result = await verifyBatch(
        deps.engine,
        this.scope(batch.fileId),
        batch,
        (err) => deps.log.error({ err, fileId: batch.fileId }, 'engine failed on a row'),
        onRowDone,
      );
      if (this.poller.stopped && this.released.has(`${batch.fileId}:${batch.firstRow}`)) return;
      const committed = await deps.batches.commit({
        fileId: batch.fileId,
        firstRow: batch.firstRow,
        owner: deps.owner,
        output: result.output,
        counts: result.counts,
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
