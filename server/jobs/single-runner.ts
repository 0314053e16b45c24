import { setTimeout as delay } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import pLimit from 'p-limit';
import { untestedChecks } from '../../lib/api/contract';
import type { Engine, VerificationResult } from '../engine/types';
import type { TaskStore } from '../store/tasks';

/** What a task gets when the engine itself fails: unknown, and so refunded. */
export function engineFailure(email: string): VerificationResult {
  return {
    email,
    status: 'unknown',
    reason: 'smtp_error',
    checks: untestedChecks(),
    mx_host: null,
    provider: null,
    suggestion: null,
  };
}

/**
 * Verifies queued single tasks with bounded concurrency. Tasks live in the database, so the
 * ones pending at a restart are picked up again by `resume()`.
 */
export class SingleRunner {
  private readonly limit: ReturnType<typeof pLimit>;
  private readonly queued = new Map<string, Promise<void>>();
  private stopping = false;

  constructor(
    private readonly tasks: TaskStore,
    private readonly engine: Engine,
    private readonly log: FastifyBaseLogger,
    concurrency: number,
  ) {
    this.limit = pLimit(concurrency);
  }

  resume(): void {
    for (const id of this.tasks.pendingIds()) this.enqueue(id);
  }

  enqueue(id: string): void {
    if (this.stopping || this.queued.has(id)) return;
    const run = this.limit(() => this.run(id)).finally(() => this.queued.delete(id));
    this.queued.set(id, run);
  }

  private async run(id: string): Promise<void> {
    if (this.stopping) return;
    const task = this.tasks.getById(id);
    if (task?.state !== 'pending') return;
    let result: VerificationResult;
    try {
      result = await this.engine.verify(task.email, task.mode, this.engine.newScope());
    } catch (err) {
      this.log.error({ err, taskId: id }, 'engine failed on a single task');
      result = engineFailure(task.email);
    }
    try {
      this.tasks.complete(task, result);
    } catch (err) {
      // Only when the database closed under a stopping service: the task stays pending.
      this.log.warn({ err, taskId: id }, 'could not store a single result');
    }
  }

  /** Stops taking work; tasks not completed stay pending in the database for the next start. */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    this.limit.clearQueue();
    await Promise.race([Promise.allSettled(this.queued.values()), delay(graceMs)]);
  }
}
