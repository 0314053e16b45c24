/**
 * The Postgres connection pool: connecting with retries while the database starts (up to 60 s),
 * transactions, and where it connects for log lines.
 */
import pg from 'pg';
import { PG_MIGRATIONS } from './migrations';

export type Pool = pg.Pool;
export type Queryable = pg.Pool | pg.PoolClient;

/** How long a starting process waits for its database (compose may start it before Postgres). */
export const CONNECT_DEADLINE_MS = 60_000;
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 5_000;
/** Errors of a database that is not there yet or still starting, as opposed to a wrong URL or password. */
const TRANSIENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'ECONNRESET',
  'EHOSTUNREACH',
  '57P03',
]);

export interface ConnectOptions {
  deadlineMs?: number;
  /** Told about each failed attempt that will be retried (default: a line on stderr). */
  onRetry?: (message: string) => void;
}

function errorCode(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

/** Where the pool connects, for log lines (never the password). */
function target(url: string): string {
  try {
    const { hostname, port, pathname } = new URL(url);
    return `${hostname}:${port || 5432}${pathname}`;
  } catch {
    return 'the database';
  }
}

/**
 * Waits until the database answers: a refused or unresolvable connection, or a Postgres still
 * starting up, is retried with growing pauses until `deadlineMs`; anything else (a wrong
 * password, a missing database) fails at once.
 */
export async function waitForDatabase(pool: Pool, url: string, opts: ConnectOptions = {}): Promise<void> {
  const deadline = Date.now() + (opts.deadlineMs ?? CONNECT_DEADLINE_MS);
  const onRetry = opts.onRetry ?? ((message: string) => console.warn(message));
  for (let pause = RETRY_FIRST_MS; ; pause = Math.min(pause * 2, RETRY_MAX_MS)) {
    try {
      await pool.query('SELECT 1');
      return;
    } catch (err) {
      const code = errorCode(err);
      const left = deadline - Date.now();
      if (!TRANSIENT.has(code) || left <= 0) {
        if (TRANSIENT.has(code)) {
          throw new Error(
            `Database ${target(url)} did not answer within ${Math.round((opts.deadlineMs ?? CONNECT_DEADLINE_MS) / 1000)} s (${code})`,
            { cause: err },
          );
        }
        throw err;
      }
      const wait = Math.min(pause, left);
      onRetry(
        `Database ${target(url)} not reachable yet (${code}): retrying in ${(wait / 1000).toFixed(1)} s`,
      );
      await new Promise((done) => setTimeout(done, wait));
    }
  }
}

/** A lock id for migrations, so processes starting together migrate one at a time. */
const MIGRATION_LOCK = 0x564d_0001;

export function createPool(url: string, max = 10): Pool {
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle client losing its connection (database restart) must not crash the process.
  pool.on('error', () => {});
  return pool;
}

/** Runs `fn` in a transaction on one client: COMMIT when it resolves, ROLLBACK when it throws. */
export async function inTransaction<T>(pool: Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

export async function migrate(pool: Pool): Promise<void> {
  await inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query('CREATE TABLE IF NOT EXISTS verimark_migrations (version INTEGER NOT NULL)');
    const { rows } = await client.query<{ v: number | null }>(
      'SELECT MAX(version) AS v FROM verimark_migrations',
    );
    for (let version = rows[0]?.v ?? 0; version < PG_MIGRATIONS.length; version++) {
      await client.query(PG_MIGRATIONS[version] ?? '');
      await client.query('INSERT INTO verimark_migrations (version) VALUES ($1)', [version + 1]);
    }
  });
}

/** `interval` of `ms` milliseconds, as a SQL expression on parameter `$n`. */
export const leaseSql = (n: number) => `now() + make_interval(secs => $${n}::double precision / 1000)`;
