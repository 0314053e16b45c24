/**
 * The Postgres store (DATABASE_URL): its parts put together, migrated under an advisory lock by
 * whichever process starts first.
 */
import { randomBytes } from 'node:crypto';
import { BackupUnsupportedError, type Store } from '../store';
import { PgBatchQueue } from './batches';
import { PgFileStore } from './files';
import { AdvisoryHostSlots } from './host-slots';
import { PgKeyStore } from './keys';
import { PgAddressMemory } from './memory';
import { type ConnectOptions, createPool, migrate, waitForDatabase } from './pool';
import { PgTaskStore } from './tasks';

/** The shared store: `DATABASE_URL=postgres://…`, migrated on first use by whichever process starts first. */
export async function openPostgresStore(
  url: string,
  perHostConcurrency: number,
  connect: ConnectOptions = {},
): Promise<Store> {
  const pool = createPool(url);
  try {
    await waitForDatabase(pool, url, connect);
    await migrate(pool);
  } catch (err) {
    await pool.end();
    throw err;
  }
  const hostSlots = new AdvisoryHostSlots(url, perHostConcurrency);
  return {
    kind: 'postgres',
    keys: new PgKeyStore(pool),
    tasks: new PgTaskStore(pool),
    files: new PgFileStore(pool),
    batches: new PgBatchQueue(pool),
    memory: new PgAddressMemory(pool),
    hostSlots,
    async queueDepth() {
      const { rows } = await pool.query<{ kind: string; state: string; n: number }>(
        `SELECT 'file' AS kind, state, COUNT(*)::int AS n FROM bulk_files
           WHERE state IN ('pending', 'processing') GROUP BY state
         UNION ALL
         SELECT 'task', 'pending', COUNT(*)::int FROM single_tasks WHERE state = 'pending'`,
      );
      const depth = { files: { pending: 0, processing: 0 }, tasks: { pending: 0 } };
      for (const r of rows) {
        if (r.kind === 'task') depth.tasks.pending = r.n;
        else if (r.state === 'pending' || r.state === 'processing') depth.files[r.state] = r.n;
      }
      return depth;
    },
    async ping() {
      await pool.query('SELECT 1');
    },
    async backup() {
      throw new BackupUnsupportedError(
        'The database is Postgres (DATABASE_URL): back it up with pg_dump, e.g. pg_dump --format=custom --file=verimark.dump "$DATABASE_URL"; restore with pg_restore.',
      );
    },
    async eraseDeleted() {
      // A DELETE leaves dead rows in the table's pages until (auto)VACUUM: docs/self-hosting.md.
    },
    async signingSecret(configured) {
      if (configured) return configured;
      // Every HTTP process must sign and check download links with the same secret.
      await pool.query(
        "INSERT INTO settings (name, value) VALUES ('signing_secret', $1) ON CONFLICT DO NOTHING",
        [randomBytes(32).toString('base64url')],
      );
      const { rows } = await pool.query<{ value: string }>(
        "SELECT value FROM settings WHERE name = 'signing_secret'",
      );
      return rows[0]?.value ?? '';
    },
    async close() {
      await hostSlots.close();
      await pool.end();
    },
  };
}
