/**
 * Vitest hooks for suites on Postgres: one throwaway cluster per test file (started in
 * `beforeAll` by the first suite that needs it, stopped in `afterAll` by the last), a new
 * database per suite.
 */
import { afterAll, beforeAll } from 'vitest';
import { type PgCluster, startPostgres } from './postgres';

/** The stores the service suites run on. */
export const TEST_STORES = ['sqlite', 'postgres'] as const;
export type TestStore = (typeof TEST_STORES)[number];

let cluster: Promise<PgCluster> | null = null;
let users = 0;

async function acquire(): Promise<PgCluster> {
  users++;
  cluster ??= startPostgres();
  return cluster;
}

async function releaseCluster(): Promise<void> {
  users--;
  if (users > 0 || !cluster) return;
  const running = cluster;
  cluster = null;
  await (await running).stop();
}

/** A new database on the file's cluster for this suite; `url()` inside tests and hooks. */
export function usePostgres(): { url(): string } {
  let url: string | null = null;
  beforeAll(async () => {
    url = await (await acquire()).createDatabase();
  }, 120_000);
  afterAll(async () => {
    if (url !== null) await releaseCluster();
  });
  return {
    url() {
      if (url === null) throw new Error('Postgres is not started yet: use it inside tests or hooks');
      return url;
    },
  };
}
