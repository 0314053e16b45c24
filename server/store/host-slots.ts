/**
 * What the stores' per-MX-host slots have in common (sqlite/host-slots.ts,
 * postgres/host-slots.ts): the protocol of `HostSlots.tryAcquire` and the waiters of this process. A waiter
 * is armed before the slots are looked at, so a release in between is never missed; it is woken
 * by every release of its host in this process, by the store when another process announces
 * one, and in any case after a short delay (with jitter, so waiters do not all ask at once).
 * The stores keep only what differs: how a slot is taken and given back in their database.
 */
import type { HostSlots, SlotTry } from '../engine/limits';

export abstract class StoreHostSlots<Key> implements HostSlots {
  protected closed = false;
  private readonly waiters = new Map<Key, Set<() => void>>();

  /** @param recheckMs a waiter looks again after recheckMs to twice that, woken or not */
  constructor(private readonly recheckMs: number) {}

  /** The key a host's slots are held under. */
  protected abstract key(host: string): Key;

  /** Takes a free slot of the host: the function that gives it back, or null when all are in use. */
  protected abstract take(key: Key): Promise<(() => Promise<void>) | null>;

  async tryAcquire(host: string): Promise<SlotTry> {
    if (this.closed) throw new Error('host slots closed');
    const key = this.key(host);
    const freed = this.released(key);
    let giveBack: (() => Promise<void>) | null;
    try {
      giveBack = await this.take(key);
    } catch (err) {
      freed.cancel();
      throw err;
    }
    if (!giveBack) return { freed: freed.promise };
    freed.cancel();
    const release = giveBack;
    return {
      release: async () => {
        try {
          await release();
        } finally {
          this.wake(key);
        }
      },
    };
  }

  /** Wakes this process's waiters for the host (a slot of it was released, here or elsewhere). */
  protected wake(key: Key): void {
    for (const done of [...(this.waiters.get(key) ?? [])]) done();
  }

  /** Settles on a release of the host's slots, or after the recheck delay. */
  private released(key: Key): { promise: Promise<void>; cancel: () => void } {
    let set = this.waiters.get(key);
    if (!set) {
      set = new Set();
      this.waiters.set(key, set);
    }
    const waiters = set;
    let done = () => {};
    const promise = new Promise<void>((resolve) => {
      const timer = setTimeout(() => done(), this.recheckMs + Math.random() * this.recheckMs);
      done = () => {
        clearTimeout(timer);
        waiters.delete(done);
        if (waiters.size === 0 && this.waiters.get(key) === waiters) this.waiters.delete(key);
        resolve();
      };
      waiters.add(done);
    });
    return { promise, cancel: done };
  }
}
