/**
 * A single task that keeps taking its worker down (its lease expires, the worker gone) is not
 * claimed forever: past MAX_TASK_ATTEMPTS claims it ends `unknown`, refunded — on both stores.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PATHS } from '@verimark/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_TASK_ATTEMPTS } from '../jobs/single-runner';
import { openPostgresStore } from '../store/postgres/store';
import { openSqliteStore } from '../store/sqlite/store';
import type { Store } from '../store/store';
import { Api, waitFor } from '../testing/api';
import { TEST_STORES, usePostgres } from '../testing/postgres-suite';
import { type RunningService, startService } from '../testing/service';

const pg = usePostgres();
const cleanup: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

describe.each(TEST_STORES)('on %s', (kind) => {
  it('ends a task that crashed its worker too often unknown, refunded, without verifying it', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'verimark-attempts-'));
    cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
    const store: Store =
      kind === 'sqlite' ? openSqliteStore(dataDir, 2) : await openPostgresStore(pg.url(), 2);
    const { key, record } = await store.keys.create({ credits: 5, label: 'crashing' });
    // A healthy address: verified, it would come back deliverable.
    const task = await store.tasks.create(record.id, 'alice@deliverable.test', 'non_catch_all');
    if (!task) throw new Error('no credit');
    for (let i = 0; i < MAX_TASK_ATTEMPTS; i++) {
      expect((await store.tasks.claim(`crashed-${i}`, 1, 100, 100)).map((t) => t.id)).toContain(task.id);
      await new Promise((r) => setTimeout(r, 20)); // the worker died: its lease runs out
    }
    await store.close();

    const service: RunningService = await startService({
      dataDir,
      ...(kind === 'postgres' ? { databaseUrl: pg.url() } : {}),
      env: { WORKER_POLL_MS: '100' },
    });
    cleanup.push(() => service.stop());
    const api = new Api(service.baseUrl, key);
    const result = await waitFor(async () => {
      const reply = await api.post<{ data?: { processing_status: string } & Record<string, unknown> }>(
        PATHS.singleStatus,
        { task_id: task.id },
      );
      return reply.body.data?.processing_status === 'completed' ? reply.body.data : null;
    }, 20_000);
    expect(result).toMatchObject({ status: 'unknown', credits_refunded: 1, mx_host: null });
    const account = await api.get<{ data: { credits: number } }>(PATHS.account);
    expect(account.body.data.credits).toBe(5);
  });
});
