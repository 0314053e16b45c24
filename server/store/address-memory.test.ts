/** The address memory of revisits (server/jobs/revisits.ts) on both stores: remember, claim when due, settle, recall. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { untestedChecks } from '@verimark/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VerificationResult } from '../engine/types';
import { TEST_STORES, usePostgres } from '../testing/postgres-suite';
import { openPostgresStore } from './postgres/store';
import { openSqliteStore } from './sqlite/store';
import type { Store } from './store';

const found = (email: string): VerificationResult => ({
  email,
  status: 'deliverable',
  reason: 'accepted_email',
  checks: { ...untestedChecks(), syntax: true, mx_found: true, smtp_connected: true },
  mx_host: 'mx.example.test',
  provider: null,
  suggestion: null,
});

describe.each(TEST_STORES)('address memory on %s', (kind) => {
  const postgres = kind === 'postgres' ? usePostgres() : null;
  let store: Store;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'verimark-memory-'));
    store = postgres ? await openPostgresStore(postgres.url(), 4) : openSqliteStore(dir, 4);
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('hands a remembered address out once it is due, to one worker, and recalls what was found', async () => {
    const email = `grey-${kind}@example.test`;
    await store.memory.remember(email, 'catch_all', 200);
    expect(await store.memory.claimDue('w1', 60_000, 10)).toEqual([]);
    await new Promise((r) => setTimeout(r, 300));
    const due = await store.memory.claimDue('w1', 60_000, 10);
    expect(due).toEqual([{ email, mode: 'catch_all', tries: 0 }]);
    // Leased: another worker does not get it too.
    expect(await store.memory.claimDue('w2', 60_000, 10)).toEqual([]);
    expect((await store.memory.recall([email], 'catch_all', 60_000)).size).toBe(0);

    await store.memory.settle(due[0] as (typeof due)[number], found(email), null);
    const recalled = await store.memory.recall([email, 'other@example.test'], 'catch_all', 60_000);
    expect([...recalled.keys()]).toEqual([email]);
    expect(recalled.get(email)?.status).toBe('deliverable');
    // Another mode is another question; an old verdict is not recalled.
    expect((await store.memory.recall([email], 'non_catch_all', 60_000)).size).toBe(0);
    await new Promise((r) => setTimeout(r, 50));
    expect((await store.memory.recall([email], 'catch_all', 10)).size).toBe(0);
    expect(await store.memory.sweep(10)).toBeGreaterThanOrEqual(1);
  });

  it('puts a still undecided address off again, then forgets it', async () => {
    const email = `again-${kind}@example.test`;
    await store.memory.remember(email, 'non_catch_all', 0);
    const [first] = await store.memory.claimDue('w1', 60_000, 10);
    expect(first?.email).toBe(email);
    await store.memory.settle(first as NonNullable<typeof first>, null, 100);
    expect(await store.memory.claimDue('w1', 60_000, 10)).toEqual([]);
    await new Promise((r) => setTimeout(r, 200));
    const [second] = await store.memory.claimDue('w1', 60_000, 10);
    expect(second).toEqual({ email, mode: 'non_catch_all', tries: 1 });
    await store.memory.settle(second as NonNullable<typeof second>, null, null);
    await store.memory.remember(email, 'non_catch_all', 0);
    const [fresh] = await store.memory.claimDue('w1', 60_000, 10);
    expect(fresh?.tries).toBe(0);
  });
});
