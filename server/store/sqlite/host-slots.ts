/**
 * Per-MX-host slots shared by every process on one SQLite file (docs/design.md §4 "Scaling
 * out"): a row (host, slot) per conversation slot in use, taken in a `BEGIN IMMEDIATE`
 * transaction (one writer at a time, so two processes never take the same slot), deleted when
 * the conversation ends. A process that dies leaves its rows behind; they are taken back as
 * soon as another process on the machine sees that the owner's pid is gone, and in any case
 * when their lease (renewed while the owner lives) runs out. SQLite has no notifications: a
 * waiter is woken at once by a release in its own process (../host-slots.ts) and looks again
 * every WAIT_MS for releases by others.
 */
import { StoreHostSlots } from '../host-slots';
import { localPid, ownerName, pidAlive } from '../ids';
import { type Db, prepared } from './db';

/** A slot's lease; renewed every third of it while its process lives. */
const LEASE_MS = 30_000;
/** How often a waiter looks again for a slot released by another process. */
const WAIT_MS = 50;

export class SqliteHostSlots extends StoreHostSlots<string> {
  /** Named as the workers' lease owners are, so a dead owner's pid can be read from it. */
  readonly owner = ownerName();
  private held = 0;
  private readonly renew: NodeJS.Timeout;

  constructor(
    private readonly db: Db,
    private readonly perHost: number,
  ) {
    super(WAIT_MS);
    this.renew = setInterval(() => {
      if (this.held > 0 && !this.closed)
        prepared(this.db, 'UPDATE host_slots SET lease_until = ? WHERE owner = ?').run(
          Date.now() + LEASE_MS,
          this.owner,
        );
    }, LEASE_MS / 3);
    this.renew.unref();
  }

  protected key(host: string): string {
    return host.toLowerCase();
  }

  protected async take(host: string): Promise<(() => Promise<void>) | null> {
    const slot = this.db.transaction(() => this.takeSlot(host)).immediate();
    if (slot === null) return null;
    this.held++;
    return async () => this.release(host, slot);
  }

  /** Inside the write transaction: the lowest free slot, taken, or null when all are in use. */
  private takeSlot(host: string): number | null {
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
            return pid !== null && !pidAlive(pid);
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
  }

  /** Gives back every slot of this process (called before the database is closed). */
  close(): void {
    this.closed = true;
    clearInterval(this.renew);
    prepared(this.db, 'DELETE FROM host_slots WHERE owner = ?').run(this.owner);
  }
}
