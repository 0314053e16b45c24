/**
 * Per-MX-host slots shared by every process on one Postgres database, as session-level advisory
 * locks (host hash, slot number) held on one dedicated connection per process. A process that
 * dies loses its connection and with it every slot at once: no lease to wait for, no table to
 * clean. Advisory locks are re-entrant within a session, so the slots this process already
 * holds are tracked here and never asked for twice.
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import type { HostSlots } from '../../engine/limits';

/** Every release is announced on this channel (payload: the host key), waking waiters at once. */
const CHANNEL = 'verimark_host_slots';
/** A waiter also tries again after this long, should a notification be lost. */
const FALLBACK_WAIT_MS = 250;

/** A signed 32-bit key for the host name (advisory locks take two int4 keys). */
function hostKey(host: string): number {
  return createHash('sha256').update(`verimark:${host.toLowerCase()}`).digest().readInt32BE(0);
}

export class AdvisoryHostSlots implements HostSlots {
  private client: Promise<pg.Client> | null = null;
  /** Slots held by this process, per host key; cleared when the connection (and its locks) is lost. */
  private held = new Map<number, Set<number>>();
  private generation = 0;
  private closed = false;
  /** Local waiters per host key, woken when any process releases one of that host's slots. */
  private readonly waiters = new Map<number, Set<() => void>>();

  constructor(
    private readonly url: string,
    private readonly perHost: number,
  ) {}

  private connection(): Promise<pg.Client> {
    if (!this.client) {
      const client = new pg.Client({ connectionString: this.url });
      const lost = () => {
        this.client = null;
        this.held = new Map();
        this.generation++;
      };
      client.on('error', lost);
      client.on('end', lost);
      // Our own releases wake local waiters directly, once the slot is off the local books.
      let ownPid = -1;
      client.on('notification', (message) => {
        if (message.processId !== ownPid) this.wake(Number(message.payload));
      });
      this.client = client.connect().then(
        async () => {
          await client.query(`LISTEN ${CHANNEL}`);
          ownPid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid ?? -1;
          return client;
        },
        (err: unknown) => {
          lost();
          throw err;
        },
      );
    }
    return this.client;
  }

  async acquire(host: string): Promise<() => Promise<void>> {
    const key = hostKey(host);
    for (;;) {
      if (this.closed) throw new Error('host slots closed');
      const got = await this.tryAny(key);
      if (got) return got;
      await this.released(key);
    }
  }

  /** Resolves when a slot of this host is released by any process (or after FALLBACK_WAIT_MS). */
  private released(key: number): Promise<void> {
    return new Promise((resolve) => {
      let set = this.waiters.get(key);
      if (!set) {
        set = new Set();
        this.waiters.set(key, set);
      }
      const waiters = set;
      const done = () => {
        clearTimeout(timer);
        waiters.delete(done);
        if (waiters.size === 0 && this.waiters.get(key) === waiters) this.waiters.delete(key);
        resolve();
      };
      const timer = setTimeout(done, FALLBACK_WAIT_MS + Math.random() * FALLBACK_WAIT_MS);
      waiters.add(done);
    });
  }

  private wake(key: number): void {
    for (const done of [...(this.waiters.get(key) ?? [])]) done();
  }

  /** Tries the slots this process does not hold, from a random one on; a release function or null. */
  private async tryAny(key: number): Promise<(() => Promise<void>) | null> {
    const client = await this.connection();
    const generation = this.generation;
    let mine = this.held.get(key);
    if (!mine) {
      mine = new Set();
      this.held.set(key, mine);
    }
    const start = Math.floor(Math.random() * this.perHost);
    for (let i = 0; i < this.perHost; i++) {
      const slot = (start + i) % this.perHost;
      if (mine.has(slot)) continue;
      mine.add(slot); // reserved locally while asking, so no other local waiter asks for it too
      const { rows } = await client
        .query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS ok', [key, slot])
        .catch((err: unknown) => {
          mine.delete(slot);
          throw err;
        });
      if (rows[0]?.ok) return () => this.release(key, slot, generation);
      mine.delete(slot);
    }
    if (mine.size === 0) this.held.delete(key);
    return null;
  }

  private async release(key: number, slot: number, generation: number): Promise<void> {
    if (generation !== this.generation) return; // the connection was lost: the lock went with it
    const mine = this.held.get(key);
    try {
      const client = await this.connection();
      await client.query(`SELECT pg_advisory_unlock($1, $2), pg_notify('${CHANNEL}', $1::text)`, [key, slot]);
    } catch {
      // The connection is gone, and with it the lock.
    } finally {
      mine?.delete(slot);
      if (mine?.size === 0 && this.held.get(key) === mine) this.held.delete(key);
      this.wake(key);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = null;
    if (client) await (await client.catch(() => null))?.end();
  }
}
