/**
 * The single-task worker: claims queued /verify/single tasks, verifies each and stores its result
 * (unknowns refunded).
 */
import { setTimeout as delay } from 'node:timers/promises';
import { untestedChecks } from '@verimark/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Engine, VerificationResult } from '../engine/types';
import type { TaskRow, TaskStore } from '../store/store';
import { Poller } from './poller';

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
 * Claims a task may take: one that has taken its worker down this often (its lease expired each
 * time, the worker gone) is not verified again but ends `unknown`, refunded.
 */
export const MAX_TASK_ATTEMPTS = 3;

/**
 * Verifies queued single tasks with bounded concurrency, shared fairly between keys: one key
 * holds at most half of the slots, so another key's task always finds one. Tasks live in the database and are
 * claimed with a lease, so any worker process takes them, and the ones of a stopped or dead
 * worker are taken again.
 */
export class SingleRunner {
  private readonly running = new Map<string, Promise<void>>();
  private readonly poller: Poller;
  private readonly renewer: NodeJS.Timeout;

  constructor(
    private readonly tasks: TaskStore,
    private readonly engine: Engine,
    private readonly log: FastifyBaseLogger,
    private readonly owner: string,
    private readonly concurrency: number,
    pollMs: number,
    private readonly leaseMs: number,
  ) {
    this.poller = new Poller(pollMs, () => this.fill(), log);
    // Renews the leases of the running tasks; a dead worker's expire and another takes them.
    this.renewer = setInterval(
      () => {
        if (this.running.size === 0) return;
        this.tasks.renew([...this.running.keys()], owner, leaseMs).catch((err: unknown) => {
          log.warn({ err }, 'could not renew task leases');
        });
      },
      Math.max(200, Math.floor(leaseMs / 3)),
    );
    this.renewer.unref();
  }

  /** Looks for tasks now (after a request, at start-up); an idle runner also looks every pollMs. */
  kick(): void {
    this.poller.kick();
  }

  /** Tasks of one key this runner verifies at once. */
  private get perKey(): number {
    return Math.max(1, Math.ceil(this.concurrency / 2));
  }

  get active(): number {
    return this.running.size;
  }

  private async fill(): Promise<void> {
    const free = this.concurrency - this.running.size;
    if (this.poller.stopped || free <= 0) return;
    for (const task of await this.tasks.claim(this.owner, this.leaseMs, free, this.perKey)) {
      if (this.running.has(task.id)) continue;
      const run = this.run(task).finally(() => {
        this.running.delete(task.id);
        this.kick();
      });
      this.running.set(task.id, run);
    }
  }

  private async run(task: TaskRow): Promise<void> {
    let result: VerificationResult;
    if (task.attempts > MAX_TASK_ATTEMPTS) {
      this.log.warn({ taskId: task.id, attempts: task.attempts }, 'single task kept failing its worker');
      result = engineFailure(task.email);
    } else {
      try {
        result = await this.engine.verify(task.email, task.mode, this.engine.newScope());
      } catch (err) {
        this.log.error({ err, taskId: task.id }, 'engine failed on a single task');
        result = engineFailure(task.email);
      }
    }
    try {
      await this.tasks.complete(task, result);
    } catch (err) {
      // Only when the database closed under a stopping service: the task stays pending.
      this.log.warn({ err, taskId: task.id }, 'could not store a single result');
    }
  }

  /** Stops taking work; tasks not completed within `graceMs` are given back for another worker. */
  async stop(graceMs: number): Promise<void> {
    this.poller.stop();
    await Promise.race([Promise.allSettled(this.running.values()), delay(graceMs)]);
    clearInterval(this.renewer);
    await Promise.allSettled([...this.running.keys()].map((id) => this.tasks.release(id, this.owner)));
  }
}
