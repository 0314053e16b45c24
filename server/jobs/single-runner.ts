/**
 * The single-task worker: claims queued /verify/single tasks, verifies each and stores its result
 * (unknowns refunded).
 */
import { setTimeout as delay } from 'node:timers/promises';
import { untestedChecks } from '@verimark/contract';
import { normalizeEmail } from '@verimark/contract/address';
import type { FastifyBaseLogger } from 'fastify';
import type { Engine, VerificationResult } from '../engine/types';
import type { AddressMemory, TaskRow, TaskStore } from '../store/store';
import { type DeferralPolicy, retryClass } from './deferral';
import { Poller } from './poller';
import { MEMORY_MS } from './revisits';

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
 * Verifies queued single tasks with bounded concurrency, shared fairly between keys: a freed
 * slot goes to the key holding the fewest live leases (all workers), one key holds at most half
 * of the slots, and the last quarter is kept for keys holding fewer than a quarter, so another
 * key's task always finds one. Tasks live in the database and are
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
    /** Greylisted addresses remembered and verified again later (./revisits.ts). */
    private readonly revisits?: { memory: AddressMemory; policy: DeferralPolicy },
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

  /**
   * The last slots, kept for keys holding fewer than this many of this runner's tasks: however
   * long the busy keys' checks take (a slow server, or a host queue full of their bulk rows), a
   * newcomer's first checks start at once instead of waiting for one of theirs to end.
   */
  private get reserve(): number {
    return this.concurrency >= 4 ? Math.ceil(this.concurrency / 4) : 0;
  }

  get active(): number {
    return this.running.size;
  }

  /**
   * Claims for the free slots: first those outside the reserve, for any key (up to its share);
   * then the reserve, for keys holding fewer than `reserve` tasks here. The store hands each
   * slot to the key holding the fewest live leases of all workers.
   */
  private async fill(): Promise<void> {
    if (this.poller.stopped) return;
    const open = this.concurrency - this.reserve - this.running.size;
    if (open > 0) {
      const claimed = await this.tasks.claim(this.owner, this.leaseMs, open, this.perKey);
      this.start(claimed);
      // Fewer than asked: no key had a task it may take, the reserve's keys included.
      if (claimed.length < open) return;
    }
    const free = this.concurrency - this.running.size;
    if (this.poller.stopped || free <= 0 || this.reserve === 0) return;
    this.start(await this.tasks.claim(this.owner, this.leaseMs, free, this.reserve));
  }

  private start(tasks: TaskRow[]): void {
    for (const task of tasks) {
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
        result = await this.verify(task);
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

  /**
   * A verdict a revisit found for this address within the hour (./revisits.ts), or a fresh
   * verification; one that meets greylisting is remembered, to be verified again after the window.
   */
  private async verify(task: TaskRow): Promise<VerificationResult> {
    const { email, mode } = task;
    const memory = this.revisits?.memory;
    const normal = normalizeEmail(email);
    const known = memory ? (await memory.recall([normal], mode, MEMORY_MS)).get(normal) : undefined;
    if (known) return known;
    const result = await this.engine.verify(email, mode, this.engine.newScope(), { urgent: true });
    if (this.revisits && retryClass(result) === 'greylist') {
      await this.revisits.memory
        .remember(result.email, mode, this.revisits.policy.greylistWindowMs)
        .catch((err: unknown) => this.log.warn({ err }, 'could not remember a greylisted address'));
    }
    return result;
  }

  /** Stops taking work; tasks not completed within `graceMs` are given back for another worker. */
  async stop(graceMs: number): Promise<void> {
    this.poller.stop();
    await Promise.race([Promise.allSettled(this.running.values()), delay(graceMs)]);
    clearInterval(this.renewer);
    await Promise.allSettled([...this.running.keys()].map((id) => this.tasks.release(id, this.owner)));
  }
}
