import pg from 'pg';
import { PG_MIGRATIONS } from './migrations';

export type Pool = pg.Pool;
export type Queryable = pg.Pool | pg.PoolClient;

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
