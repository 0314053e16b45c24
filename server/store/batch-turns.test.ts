/**
 * The order the batch queue hands batches out in, on both stores (docs/design.md §4, "Fair
 * between keys"): the key holding the fewest live leases of every worker first, ties to the key
 * served longest ago, then the key's oldest file, each file's batches in order — so a key's share
 * does not depend on how much it queued.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TEST_STORES, usePostgres } from '../testing/postgres-suite';
import { newId, PROCESS_OWNER } from './ids';
import { openPostgresStore } from './postgres/store';
import { openSqliteStore } from './sqlite/store';
import type { ClaimedBatch, Store } from './store';

const NONE = { deliverable: 0, undeliverable: 0, unknown: 0, risky: 0 };

describe.each(TEST_STORES)('batch turns on %s', (kind) => {
  const postgres = kind === 'postgres' ? usePostgres() : null;
  let store: Store;
  let dir: string;
  let stores = 0;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'verimark-turns-'));
  }, 60_000);
  afterEach(async () => {
    await store?.close();
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** A new store per test (Postgres: a fresh schema is costly, so the queue is emptied instead). */
  async function open(): Promise<Store> {
    store = postgres
      ? await openPostgresStore(postgres.url(), 4)
      : openSqliteStore(join(dir, `db${++stores}`), 4);
    for (;;) {
      const left = await store.batches.claim('cleaner', 60_000);
      if (!left) break;
      await store.files.fail(left.fileId, 'cleared between tests');
    }
    return store;
  }

  async function newKey(label: string): Promise<string> {
    return (await store.keys.create({ credits: 100_000, label })).record.id;
  }

  /** An accepted file of `batches` one-row batches whose cells name the key, file and row. */
  async function file(keyId: string, name: string, batches: number, accept = true): Promise<string> {
    const id = newId();
    const seq = await store.files.receive({ id, keyId, owner: PROCESS_OWNER });
    await store.files.addBatches(
      id,
      seq,
      Array.from({ length: batches }, (_, i) => ({
        firstRow: i,
        rowCount: 1,
        input: JSON.stringify([[`${name}.${i}@x.test`]]),
      })),
    );
    if (accept) {
      await store.files.accept(id, {
        fileName: `${name}.csv`,
        mode: 'non_catch_all',
        emailIndex: 0,
        headerLength: 1,
        credits: batches,
        resultHeader: 'Email,verification_status\r\n',
        batchesTotal: batches,
      });
    }
    return id;
  }

  /** What a claim took, as `file.row` (the cell's local part), or null. */
  const label = (b: ClaimedBatch | null) => (b ? (b.rows[0]?.[0]?.split('@')[0] ?? '?') : null);

  async function claims(owner: string, n: number, maxKeyLeases?: number): Promise<(string | null)[]> {
    const taken: (string | null)[] = [];
    for (let i = 0; i < n; i++) taken.push(label(await store.batches.claim(owner, 60_000, maxKeyLeases)));
    return taken;
  }

  async function commit(b: ClaimedBatch | null, owner: string): Promise<void> {
    if (!b) throw new Error('nothing claimed');
    expect(
      await store.batches.commit({ fileId: b.fileId, firstRow: b.firstRow, owner, output: '', counts: NONE }),
    ).toBe(true);
  }

  it('keeps a deferred batch out of claims until its time, with what was decided so far', async () => {
    await open();
    const a = await newKey('a');
    const id = await file(a, 'd1', 2);
    const first = await store.batches.claim('w1', 60_000);
    expect(label(first)).toBe('d1.0');
    expect(first?.partial).toBeNull();
    const partial = JSON.stringify([{ result: { status: 'unknown' }, tries: 1, due: 0 }]);
    // Only the lease holder may defer it.
    expect(await store.batches.defer({ fileId: id, firstRow: 0, owner: 'w2', partial, delayMs: 300 })).toBe(
      false,
    );
    expect(await store.batches.defer({ fileId: id, firstRow: 0, owner: 'w1', partial, delayMs: 300 })).toBe(
      true,
    );
    // Deferred: the file's next batch, then nothing until the delay has passed.
    expect(await claims('w1', 2)).toEqual(['d1.1', null]);
    await new Promise((r) => setTimeout(r, 400));
    const again = await store.batches.claim('w3', 60_000);
    expect(label(again)).toBe('d1.0');
    expect(again?.partial).toBe(partial);
    // A deferral is no failed attempt: the claim after it is the first again.
    expect(again?.attempts).toBe(1);
    await commit(again, 'w3');
  });

  it('hands batches to the keys in turn, whatever each queued, each key its files in order', async () => {
    await open();
    const a = await newKey('a');
    const b = await newKey('b');
    await file(a, 'a1', 3);
    await file(a, 'a2', 20);
    await file(b, 'b1', 2);
    // A queued 23 batches and B 2: they alternate while B has some; A's second file after its first.
    expect(await claims('w1', 5)).toEqual(['a1.0', 'b1.0', 'a1.1', 'b1.1', 'a1.2']);
    expect(await claims('w1', 1)).toEqual(['a2.0']);
    // A newcomer holding nothing is served next, though A and B queued first.
    const c = await newKey('c');
    await file(c, 'c1', 2);
    expect(await claims('w1', 3)).toEqual(['c1.0', 'c1.1', 'a2.1']);
  });

  it('counts the live leases of every worker, not those of the claiming one alone', async () => {
    await open();
    const a = await newKey('a');
    const b = await newKey('b');
    await file(a, 'a1', 5);
    await file(b, 'b1', 5);
    expect(await claims('w1', 1)).toEqual(['a1.0']);
    // Another process: A already holds one batch (w1's), B none.
    expect(await claims('w2', 2)).toEqual(['b1.0', 'a1.1']);
    // An expired lease is not held: a dead worker's batch goes back to its key's turn.
    const held = await store.batches.claim('w3', 1);
    expect(label(held)).toBe('b1.1');
    await new Promise((r) => setTimeout(r, 30));
    expect(await claims('w2', 1)).toEqual(['b1.1']);
  });

  it('breaks a tie for the key served longest ago, so one batch at a time alternates keys', async () => {
    await open();
    const a = await newKey('a');
    const b = await newKey('b');
    await file(a, 'a1', 10);
    await file(b, 'b1', 10);
    const order: (string | null)[] = [];
    for (let i = 0; i < 6; i++) {
      const taken = await store.batches.claim('w1', 60_000);
      order.push(label(taken));
      await commit(taken, 'w1');
    }
    expect(order).toEqual(['a1.0', 'b1.0', 'a1.1', 'b1.1', 'a1.2', 'b1.2']);
  });

  it('with a key limit, hands out only batches of keys holding no more leases than that', async () => {
    await open();
    const a = await newKey('a');
    await file(a, 'a1', 5);
    expect(await claims('w1', 1)).toEqual(['a1.0']);
    expect(await claims('w1', 1, 0)).toEqual([null]);
    const b = await newKey('b');
    await file(b, 'b1', 5);
    expect(await claims('w1', 2, 0)).toEqual(['b1.0', null]);
    expect(await claims('w1', 1, 1)).toEqual(['a1.1']);
  });

  it('passes over a file still being received and the batches of a file already claimed', async () => {
    await open();
    const a = await newKey('a');
    await file(a, 'receiving', 3, false);
    await file(a, 'a1', 1);
    expect(await claims('w1', 2)).toEqual(['a1.0', null]);
  });
});
