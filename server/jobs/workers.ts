/**
 * Workers: the verification side of a process (single tasks and bulk batches from any process's
 * queue), started and stopped together.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { ServiceConfig } from '../config';
import type { Engine } from '../engine/types';
import { ownerName } from '../store/ids';
import type { Store } from '../store/store';
import { BatchWorker } from './batch-worker';
import { RevisitRunner } from './revisits';
import { SingleRunner } from './single-runner';

/** The verification side of a process: single tasks and bulk batches, from any process's queue. */
export class Workers {
  readonly singles: SingleRunner;
  readonly batches: BatchWorker;
  readonly revisits: RevisitRunner;
  /** This process's name in leases (../store/ids.ts). */
  readonly owner = ownerName();

  constructor(store: Store, engine: Engine, config: ServiceConfig, log: FastifyBaseLogger) {
    this.singles = new SingleRunner(
      store.tasks,
      engine,
      log,
      this.owner,
      config.singleConcurrency,
      config.pollMs,
      config.leaseMs,
      { memory: store.memory, policy: config.deferral },
    );
    // A revisit's lease outlasts a whole verification (its deadline), as it is not renewed.
    const revisitLease = Math.max(config.leaseMs, 2 * (config.engine.verifyDeadlineMs ?? 60_000));
    this.revisits = new RevisitRunner(
      store.memory,
      engine,
      log,
      this.owner,
      config.deferral,
      config.pollMs,
      revisitLease,
    );
    this.batches = new BatchWorker({
      batches: store.batches,
      files: store.files,
      engine,
      log,
      owner: this.owner,
      leaseMs: config.leaseMs,
      pollMs: config.pollMs,
      concurrency: config.batchConcurrency,
      batchRows: config.batchRows,
      deferral: config.deferral,
      memory: store.memory,
    });
  }

  start(): void {
    this.singles.kick();
    this.batches.kick();
    this.revisits.kick();
  }

  /** Stops taking work; finishes or gives back what is running within `graceMs`. */
  async stop(graceMs: number): Promise<void> {
    await Promise.all([this.singles.stop(graceMs), this.batches.stop(graceMs), this.revisits.stop(graceMs)]);
  }
}
