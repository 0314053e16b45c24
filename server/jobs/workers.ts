import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { ServiceConfig } from '../config';
import type { Engine } from '../engine/types';
import type { Store } from '../store/store';
import { BatchWorker } from './batch-worker';
import { SingleRunner } from './single-runner';

/** This process's name in leases: host, pid and a random tag (pids repeat across machines and restarts). */
function workerName(): string {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
}

/** The verification side of a process: single tasks and bulk batches, from any process's queue. */
export class Workers {
  readonly singles: SingleRunner;
  readonly batches: BatchWorker;
  readonly owner = workerName();

  constructor(store: Store, engine: Engine, config: ServiceConfig, log: FastifyBaseLogger) {
    this.singles = new SingleRunner(
      store.tasks,
      engine,
      log,
      this.owner,
      config.singleConcurrency,
      config.pollMs,
      config.leaseMs,
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
    });
  }

  start(): void {
    this.singles.kick();
    this.batches.kick();
  }

  /** Stops taking work; finishes or gives back what is running within `graceMs`. */
  async stop(graceMs: number): Promise<void> {
    await Promise.all([this.singles.stop(graceMs), this.batches.stop(graceMs)]);
  }
}
