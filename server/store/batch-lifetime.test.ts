/**
 * What a file's batches go through besides being verified, on both stores: a batch given back
 * by a stopping worker does not count as an attempt, and failing a file keeps the results
 * already committed (only the rows not verified yet are dropped).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_STORES, usePostgres } from '../testing/postgres-suite';
import { newId, PROCESS_OWNER } from './ids';
import { openPostgresStore } from './postgres/store';
import { openSqliteStore } from './sqlite/store';
import type { NewBatch, Store } from './store';

const batch = (firstRow: number, emails: string[]): NewBatch => ({
  firstRow,
  rowCount: emails.length,
  input: JSON.stringify(emails.map((e) => [e])),
});
const NONE = { deliverable: 0, undeliverable: 0, unknown: 0, risky: 0 };

describe.each(TEST_STORES)('on %s', (kind) => {
  const postgres = kind === 'postgres' ? usePostgres() : null;
  let store: Store;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'verimark-batches-'));
    store = postgres ? await openPostgresStore(postgres.url(), 8) : openSqliteStore(dir, 8);
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** A pending file of two batches (rows 0–1 and 2), its key holding 10 credits before it. */
  async function twoBatchFile() {
    const { record } = await store.keys.create({ credits: 10 });
    const id = newId();
    const seq = await store.files.receive({ id, keyId: record.id, owner: PROCESS_OWNER });
    await store.files.addBatches(id, seq, [batch(0, ['a@x.test', 'b@x.test']), batch(2, ['c@x.test'])]);
    await store.files.accept(id, {
      fileName: 'f.csv',
      mode: 'non_catch_all',
      emailIndex: 0,
      headerLength: 1,
      credits: 3,
      resultHeader: 'Email,verification_status\r\n',
      batchesTotal: 2,
    });
    return { id, keyId: record.id };
  }

  it('does not count a batch given back by a stopping worker as an attempt', async () => {
    const { id } = await twoBatchFile();
    for (let round = 0; round < 7; round++) {
      const claimed = await store.batches.claim('stopping-worker', 60_000);
      expect(claimed).toMatchObject({ fileId: id, firstRow: 0, attempts: 1 });
      await store.batches.release(id, 0, 'stopping-worker');
    }
    // A claim that is not given back (its worker died) still counts.
    expect(await store.batches.claim('dying-worker', 1)).toMatchObject({ firstRow: 0, attempts: 1 });
    await new Promise((r) => setTimeout(r, 20));
    expect(await store.batches.claim('next-worker', 60_000)).toMatchObject({ firstRow: 0, attempts: 2 });
    await store.batches.release(id, 0, 'next-worker');
    await store.files.fail(id, 'test cleanup');
  });

  it('keeps the committed results of a file it fails, refunding every credit', async () => {
    const { id, keyId } = await twoBatchFile();
    const first = await store.batches.claim('w', 60_000);
    expect(first).toMatchObject({ fileId: id, firstRow: 0 });
    const output = 'a@x.test,undeliverable\r\nb@x.test,undeliverable\r\n';
    expect(
      await store.batches.commit({
        fileId: id,
        firstRow: 0,
        owner: 'w',
        output,
        counts: { ...NONE, undeliverable: 2 },
      }),
    ).toBe(true);
    await store.files.fail(id, 'the second batch failed too often');

    expect(await store.files.getById(id)).toMatchObject({ state: 'failed', credit_refund: 3 });
    expect((await store.keys.get(keyId))?.credits).toBe(10);
    const chunks: string[] = [];
    for await (const chunk of store.files.resultChunks(id)) chunks.push(chunk);
    expect(chunks).toEqual(['Email,verification_status\r\n', output]);
    // The rows never verified are gone: nothing is left to claim.
    expect(await store.batches.claim('w', 60_000)).toBeNull();
  });
});
