/**
 * The single-task queue of both stores: claims fair between keys (the key holding the fewest
 * live leases of every worker first, each key's oldest first, a cap per key and owner) and
 * attempts counted per claim, given back on release.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { TEST_STORES, usePostgres } from '../testing/postgres-suite';
import { openPostgresStore } from './postgres/store';
import { MIGRATIONS } from './sqlite/migrations';
import { openSqliteStore } from './sqlite/store';
import type { Store } from './store';

const dir = mkdtempSync(join(tmpdir(), 'verimark-tasks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const pg = usePostgres();
const opened: Store[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
});

let dirs = 0;
async function open(kind: (typeof TEST_STORES)[number]): Promise<Store> {
  const store =
    kind === 'sqlite' ? openSqliteStore(join(dir, `db${++dirs}`), 2) : await openPostgresStore(pg.url(), 2);
  opened.push(store);
  // Each test starts from an empty queue (the Postgres database is shared by the file's tests).
  for (;;) {
    const left = await store.tasks.claim('cleaner', 60_000, 100, 100);
    if (left.length === 0) break;
    for (const t of left) await store.tasks.complete(t, failure(t.email));
  }
  return store;
}

function failure(email: string) {
  return {
    email,
    status: 'unknown' as const,
    reason: 'smtp_error' as const,
    checks: {
      syntax: true,
      mx_found: null,
      smtp_connected: null,
      catch_all: null,
      disposable: false,
      role_account: false,
      free_provider: false,
    },
    mx_host: null,
    provider: null,
    suggestion: null,
  };
}

async function queue(store: Store, label: string, count: number): Promise<string[]> {
  const { record } = await store.keys.create({ credits: 100, label });
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const task = await store.tasks.create(record.id, `${label}${i}@example.test`, 'non_catch_all');
    if (!task) throw new Error('no credit');
    ids.push(task.id);
    await new Promise((r) => setTimeout(r, 2)); // distinct created_at
  }
  return ids;
}

describe.each(TEST_STORES)('single-task queue on %s', (kind) => {
  it("takes keys in turn and caps each key's share, so one key's backlog never queues another's", async () => {
    const store = await open(kind);
    const a = await queue(store, 'a', 10);
    const b = await queue(store, 'b', 2);
    const first = await store.tasks.claim('w1', 60_000, 4, 2);
    expect(first.map((t) => t.id).sort()).toEqual([a[0], a[1], b[0], b[1]].sort());
    // Both keys hold their share: nothing more for this owner until one ends.
    expect(await store.tasks.claim('w1', 60_000, 4, 2)).toEqual([]);
    const [doneA] = first.filter((t) => t.id === a[0]);
    if (!doneA) throw new Error('a0 not claimed');
    await store.tasks.complete(doneA, failure(doneA.email));
    expect((await store.tasks.claim('w1', 60_000, 4, 2)).map((t) => t.id)).toEqual([a[2]]);
    // Another owner (process) has a share of its own.
    expect((await store.tasks.claim('w2', 60_000, 1, 2)).map((t) => t.id)).toEqual([a[3]]);
  });

  it('gives a freed slot to the key holding the fewest live leases of every worker, not the oldest task', async () => {
    const store = await open(kind);
    const a = await queue(store, 'a', 6);
    // Another process holds three of A's tasks.
    expect((await store.tasks.claim('w1', 60_000, 3, 8)).map((t) => t.id)).toEqual(a.slice(0, 3));
    const b = await queue(store, 'b', 2);
    const c = await queue(store, 'c', 1);
    // B and C hold nothing: they come first, though A's tasks are older; B's oldest task first.
    expect((await store.tasks.claim('w2', 60_000, 1, 8)).map((t) => t.id)).toEqual([b[0]]);
    // (Postgres returns the claimed rows in no set order.)
    expect((await store.tasks.claim('w2', 60_000, 3, 8)).map((t) => t.id).sort()).toEqual(
      [c[0], b[1], a[3]].sort(),
    );
    // An expired lease is not held: the dead worker's key is served again in its turn.
    expect((await store.tasks.claim('w3', 1, 1, 8)).map((t) => t.id)).toEqual([a[4]]);
    await new Promise((r) => setTimeout(r, 20));
    expect((await store.tasks.claim('w2', 60_000, 2, 8)).map((t) => t.id).sort()).toEqual(
      [a[4], a[5]].sort(),
    );
  });

  it('counts an attempt per claim, and gives it back when a stopping worker releases the task', async () => {
    const store = await open(kind);
    const [id] = await queue(store, 'c', 1);
    const claimed = await store.tasks.claim('w1', 1, 1, 8);
    expect(claimed.map((t) => [t.id, t.attempts])).toEqual([[id, 1]]);
    await new Promise((r) => setTimeout(r, 20)); // the lease expires: a crashed worker
    expect((await store.tasks.claim('w2', 60_000, 1, 8)).map((t) => t.attempts)).toEqual([2]);
    await store.tasks.release(id ?? '', 'w2');
    expect((await store.tasks.claim('w3', 60_000, 1, 8)).map((t) => t.attempts)).toEqual([2]);
  });
});

describe('SQLite migration 5 (task attempts) on a database in use', () => {
  it('adds attempts to the tasks already queued, starting at 0', async () => {
    const dataDir = join(dir, 'old');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(dataDir);
    const old = new Database(join(dataDir, 'verimark.sqlite'));
    for (const [version, sql] of MIGRATIONS.slice(0, 4).entries()) {
      old.exec(sql);
      old.pragma(`user_version = ${version + 1}`);
    }
    old.exec(`
      INSERT INTO api_keys (id, key_hash, key_prefix, credits, created_at) VALUES ('k', 'h', 'p', 5, 'now');
      INSERT INTO single_tasks (id, key_id, email, mode, state, credits_refunded, created_at, updated_at)
        VALUES ('t', 'k', 'a@example.test', 'non_catch_all', 'pending', 0, 'now', 'now');
    `);
    old.close();
    const store = openSqliteStore(dataDir, 2);
    opened.push(store);
    expect((await store.tasks.claim('w', 60_000, 1, 1)).map((t) => [t.id, t.attempts])).toEqual([['t', 1]]);
  });
});
