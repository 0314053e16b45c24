/**
 * Revisits: a single check that met greylisting answers `unknown` within its deadline, and the
 * service remembers the address (AddressMemory, server/store/store.ts). Once the greylisting
 * window has passed, this runner verifies it again on its own — the greylister now knows us — and
 * keeps the verdict, so the next check of the address, single or in a bulk file, is decided
 * (Postfix's verify(8) keeps probe results in a cache the same way). Still greylisted: tried once
 * more after twice the window. Still undecided then: forgotten. Verdicts are kept for an hour.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Engine } from '../engine/types';
import type { AddressMemory, Revisit } from '../store/store';
import { type DeferralPolicy, retryClass } from './deferral';
import { Poller } from './poller';

/** How long a verdict found by a revisit answers further checks of the address. */
export const MEMORY_MS = 60 * 60_000;
/** Revisits verified at once by one process (they are few, and never urgent). */
const AT_ONCE = 4;
const MAX_TRIES = 2;
const SWEEP_EVERY_MS = 10 * 60_000;

export class RevisitRunner {
  private readonly running = new Set<Promise<void>>();
  private readonly poller: Poller;
  private lastSweep = 0;

  constructor(
    private readonly memory: AddressMemory,
    private readonly engine: Engine,
    private readonly log: FastifyBaseLogger,
    private readonly owner: string,
    private readonly policy: DeferralPolicy,
    pollMs: number,
    private readonly leaseMs: number,
  ) {
    this.poller = new Poller(Math.max(pollMs, 1000), () => this.fill(), log);
  }

  kick(): void {
    this.poller.kick();
  }

  private async fill(): Promise<void> {
    if (Date.now() - this.lastSweep > SWEEP_EVERY_MS) {
      this.lastSweep = Date.now();
      await this.memory.sweep(MEMORY_MS);
    }
    const free = AT_ONCE - this.running.size;
    if (this.poller.stopped || free <= 0) return;
    for (const revisit of await this.memory.claimDue(this.owner, this.leaseMs, free)) {
      const run = this.run(revisit).finally(() => {
        this.running.delete(run);
        this.kick();
      });
      this.running.add(run);
    }
  }

  private async run(revisit: Revisit): Promise<void> {
    try {
      const result = await this.engine.verify(revisit.email, revisit.mode, this.engine.newScope());
      const again = retryClass(result) === 'greylist' && revisit.tries + 1 < MAX_TRIES;
      if (result.status !== 'unknown') await this.memory.settle(revisit, result, null);
      else if (again) await this.memory.settle(revisit, null, this.policy.greylistWindowMs * 2);
      else await this.memory.settle(revisit, null, null);
      this.log.info({ reason: result.reason, tries: revisit.tries + 1 }, 'revisited a greylisted address');
    } catch (err) {
      if (!this.poller.stopped) this.log.warn({ err }, 'could not revisit an address');
    }
  }

  /** Stops taking revisits; one still running is taken again after its lease. */
  async stop(graceMs: number): Promise<void> {
    this.poller.stop();
    await Promise.race([
      Promise.allSettled(this.running),
      new Promise((r) => setTimeout(r, graceMs).unref()),
    ]);
  }
}
