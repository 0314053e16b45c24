/**
 * Per-MX-host slots shared by every process on one SQLite file (docs/design.md §4 "Scaling
 * out"): a row (host, slot) per conversation slot in use, taken in a `BEGIN IMMEDIATE`
 * transaction (one writer at a time, so two processes never take the same slot), deleted when
 * the conversation ends. A process that dies leaves its rows behind; they are taken back as
 * soon as another process on the machine sees that the owner's pid is gone, and in any case
 * when their lease (renewed while the owner lives) runs out. SQLite has no notifications: a
 * waiter is woken at once by a release in its own process and looks again every WAIT_MS for
 * releases by others.
 */
import type { HostSlots, SlotTry } from '../../engine/limits';
import { localPid, ownerName } from '../ids';
import { type Db, prepared } from './db';

/** A slot's lease; renewed every third of it while its process lives. */
const LEASE_MS = 30_000;
/** How often a waiter looks again for a slot released by another process. */
const WAIT_MS = 50;

/** Whether a process with this pid runs on this machine (EPERM: it runs, as another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class SqliteHostSlots implements HostSlots {
  /** Named as the workers' lease owners are, so a dead owner's pid can be read from it. */
  readonly owner = ownerName();
  private held = 0;
  private closed = false;
  private readonly waiters = new Map<string, Set<() => void>>();
  private readonly renew: NodeJS.Timeout;

  constructor(
    private readonly db: Db,
    private readonly perHost: number,
  ) {
    this.renew = setInterval(() => {
      if (this.held > 0 && !this.closed)
        prepared(this.db, 'UPDATE host_slots SET lease_until = ? WHERE owner = ?').run(
          Date.now() + LEASE_MS,
          this.owner,
        );
    }, LEASE_MS / 3);
    this.renew.unref();
  }

  async tryAcquire(host: string): Promise<SlotTry> {
    if (this.closed) throw new Error('host slots closed');
    const name = host.toLowerCase();
    const freed = this.released(name);
    const slot = this.db.transaction(() => this.take(name)).immediate();
    if (slot === null) return { freed: freed.promise };
    freed.cancel();
    this.held++;
    return { release: async () => this.release(name, slot) };
  }

  /** Inside the write transaction: the lowest free slot, taken, or null when all are in use. */
  private take(host: string): number | null {
    const now = Date.now();
    prepared(this.db, 'DELETE FROM host_slots WHERE host = ? AND lease_until < ?').run(host, now);
    let rows = prepared(this.db, 'SELECT slot, owner FROM host_slots WHERE host = ?').all(host) as {
      slot: number;
      owner: string;
    }[];
    if (rows.length >= this.perHost) {
      // Every slot taken: give back those of processes on this machine that are gone.
      const dead = new Set(
        rows
          .map((r) => r.owner)
          .filter((o) => {
            const pid = o === this.owner ? null : localPid(o);
            return pid !== null && !alive(pid);
          }),
      );
      if (dead.size === 0) return null;
      for (const owner of dead) prepared(this.db, 'DELETE FROM host_slots WHERE owner = ?').run(owner);
      rows = rows.filter((r) => !dead.has(r.owner));
    }
    const used = new Set(rows.map((r) => r.slot));
    for (let slot = 0; slot < this.perHost; slot++) {
      if (used.has(slot)) continue;
      prepared(this.db, 'INSERT INTO host_slots (host, slot, owner, lease_until) VALUES (?, ?, ?, ?)').run(
        host,
        slot,
        this.owner,
        now + LEASE_MS,
      );
      return slot;
    }
    return null;
  }

  private release(host: string, slot: number): void {
    this.held--;
    if (!this.closed)
      prepared(this.db, 'DELETE FROM host_slots WHERE host = ? AND slot = ? AND owner = ?').run(
        host,
        slot,
        this.owner,
      );
    for (const wake of [...(this.waiters.get(host) ?? [])]) wake();
  }

  /** Settles on a release in this process, or after WAIT_MS to look for releases by others. */
  private released(host: string): { promise: Promise<void>; cancel: () => void } {
    let set = this.waiters.get(host);
    if (!set) {
      set = new Set();
      this.waiters.set(host, set);
    }
    const waiters = set;
    let done = () => {};
    const promise = new Promise<void>((resolve) => {
      const timer = setTimeout(() => done(), WAIT_MS + Math.random() * WAIT_MS);
      done = () => {
        clearTimeout(timer);
        waiters.delete(done);
        if (waiters.size === 0 && this.waiters.get(host) === waiters) this.waiters.delete(host);
        resolve();
      };
      waiters.add(done);
    });
    return { promise, cancel: done };
  }

  /** Gives back every slot of this process (called before the database is closed). */
  close(): void {
    this.closed = true;
    clearInterval(this.renew);
    prepared(this.db, 'DELETE FROM host_slots WHERE owner = ?').run(this.owner);
  }
}
