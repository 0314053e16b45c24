/**
 * Per-MX-host slots shared by every process on one Postgres database, as session-level advisory
 * locks (host hash, slot number) held on one dedicated connection per process. A process that
 * dies loses its connection and with it every slot at once: no lease to wait for, no table to
 * clean. Advisory locks are re-entrant within a session, so the slots this process already
 * holds are tracked here and never asked for twice. Every release is announced with NOTIFY,
 * which wakes the other processes' waiters (../host-slots.ts) at once.
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import { StoreHostSlots } from '../host-slots';

/** Every release is announced on this channel (payload: the host key), waking waiters at once. */
const CHANNEL = 'verimark_host_slots';
/** A waiter also tries again after this long, should a notification be lost. */
const FALLBACK_WAIT_MS = 250;

/** A signed 32-bit key for the host name (advisory locks take two int4 keys). */
function hostKey(host: string): number {
  return createHash('sha256').update(`verimark:${host.toLowerCase()}`).digest().readInt32BE(0);
}

export class AdvisoryHostSlots extends StoreHostSlots<number> {
  private client: Promise<pg.Client> | null = null;
  /** Slots held by this process, per host key; cleared when the connection (and its locks) is lost. */
  private held = new Map<number, Set<number>>();
  private generation = 0;
  /** The question being asked: questions go one after another. */
  private asking: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly url: string,
    private readonly perHost: number,
  ) {
    super(FALLBACK_WAIT_MS);
  }

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

  protected key(host: string): number {
    return hostKey(host);
  }

  protected take(key: number): Promise<(() => Promise<void>) | null> {
    // One question at a time: the slots this process holds are known when each is asked.
    const asked = this.asking.then(() => this.tryAny(key));
    this.asking = asked.catch(() => null);
    return asked;
  }

  /** Takes the first slot this process does not hold, in one statement; a release function or null. */
  private async tryAny(key: number): Promise<(() => Promise<void>) | null> {
    const client = await this.connection();
    const generation = this.generation;
    const mine = this.held.get(key) ?? new Set<number>();
    if (mine.size >= this.perHost) return null;
    // Advisory locks are re-entrant in a session: the slots held here are skipped, not re-taken.
    // The scan stops at the first lock taken (LIMIT 1), so at most one is taken.
    const { rows } = await client.query<{ slot: number }>(
      `SELECT s AS slot FROM generate_series(0, $2::int - 1) AS s
        WHERE CASE WHEN s = ANY($3::int[]) THEN false ELSE pg_try_advisory_lock($1, s) END
        LIMIT 1`,
      [key, this.perHost, [...mine]],
    );
    const slot = rows[0]?.slot;
    if (slot === undefined) return null;
    if (generation !== this.generation) return null; // the connection was lost meanwhile
    mine.add(slot);
    this.held.set(key, mine);
    return () => this.release(key, slot, generation);
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
      // Off the local books before the base class wakes this process's waiters.
      mine?.delete(slot);
      if (mine?.size === 0 && this.held.get(key) === mine) this.held.delete(key);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = null;
    if (client) await (await client.catch(() => null))?.end();
  }
}
