/**
 * The hidden `receiving` state of a bulk file (its batches stored while the upload arrives), on
 * both stores, against the real service over HTTP (RUN_WORKER=0, so only this test claims): a
 * receiving file is invisible and unclaimable; a refused or cut-off upload leaves nothing; at
 * start-up the receiving files of dead processes are removed and those of live ones kept.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import net from 'node:net';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { ERRORS, PATHS } from '@verimark/contract';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newId, PROCESS_OWNER } from '../store/ids';
import { openPostgresStore } from '../store/postgres/store';
import { openSqliteStore } from '../store/sqlite/store';
import type { NewBatch, NewFile, Store } from '../store/store';
import { apiWithNewKey, balanceOf, waitFor } from '../testing/api';
import { type FakeNet, startFakeNet } from '../testing/fake-net';
import { TEST_STORES, usePostgres } from '../testing/postgres-suite';
import { type RunningService, startService } from '../testing/service';
import { isOrphan } from './receiving-cleanup';

const batch = (firstRow: number, emails: string[]): NewBatch => ({
  firstRow,
  rowCount: emails.length,
  input: JSON.stringify(emails.map((e) => [e])),
});

/** What an upload of a one-column file (`Email`) tells the store when it is accepted. */
const acceptance = (fileName: string, credits: number, batchesTotal: number): NewFile => ({
  fileName,
  mode: 'non_catch_all',
  emailIndex: 0,
  headerLength: 1,
  credits,
  resultHeader: 'Email',
  batchesTotal,
});

/** A CSV of `rows` addresses, ~120 bytes a row. */
const csvOf = (rows: number) =>
  `Email,Note\n${Array.from({ length: rows }, (_, i) => `u${i}@example.test,${'n'.repeat(100)}`).join('\n')}\n`;

/**
 * Starts a raw multipart upload of a ~12 MB CSV and sends half of it: its first blocks reach the
 * database as a receiving file. The socket is left open (the rest never comes).
 */
async function startUpload(service: RunningService, apiKey: string): Promise<net.Socket> {
  const boundary = 'verimark-cut';
  const body = csvOf(100_000);
  const head = `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="a.csv"\r\ncontent-type: text/csv\r\n\r\n`;
  const { port } = new URL(service.baseUrl);
  const socket = net.connect(Number(port), '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.on('error', () => {});
  socket.write(
    `POST ${PATHS.bulk} HTTP/1.1\r\nhost: 127.0.0.1\r\nx-api-key: ${apiKey}\r\n` +
      `content-type: multipart/form-data; boundary=${boundary}\r\n` +
      `content-length: ${Buffer.byteLength(head) + body.length + 100}\r\n\r\n${head}`,
  );
  socket.write(body.slice(0, body.length / 2));
  return socket;
}

describe.each(TEST_STORES)('on %s', (kind) => {
  const postgres = kind === 'postgres' ? usePostgres() : null;
  let service: RunningService;
  let store: Store;
  let fakeNet: FakeNet;
  let dataDir: string | undefined;
  /** Rows of a table, read straight from the database. */
  let countOf: (table: 'bulk_files' | 'file_batches') => Promise<number>;
  let closeRaw: () => Promise<void> = async () => {};

  const start = async () => {
    service = await startService({
      ...(dataDir ? { dataDir } : {}),
      fakeNet,
      env: { RUN_WORKER: '0' },
      ...(postgres ? { databaseUrl: postgres.url() } : {}),
    });
    dataDir = service.dataDir;
  };

  beforeAll(async () => {
    fakeNet = await startFakeNet();
    await start();
    store = postgres ? await openPostgresStore(postgres.url(), 8) : openSqliteStore(service.dataDir, 8);
    if (postgres) {
      const client = new pg.Client({ connectionString: postgres.url() });
      await client.connect();
      countOf = async (table) => (await client.query(`SELECT COUNT(*)::int AS n FROM ${table}`)).rows[0].n;
      closeRaw = () => client.end();
    } else {
      const db = new Database(join(service.dataDir, 'verimark.sqlite'), { readonly: true });
      countOf = async (table) => (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
      closeRaw = async () => {
        db.close();
      };
    }
  }, 60_000);
  afterAll(async () => {
    await closeRaw();
    await store?.close();
    await service?.stop();
    await fakeNet?.stop();
    // The data dir outlived the first service (killed, then started again on it).
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps a receiving file invisible and unclaimable until it is accepted', async () => {
    const key = await apiWithNewKey(service, 10);
    const keyId = (await store.keys.findByKey(key.apiKey ?? ''))?.id ?? '';
    const id = newId();
    const seq = await store.files.receive({ id, keyId, owner: PROCESS_OWNER });
    await store.files.addBatches(id, seq, [batch(0, ['a@x.test', 'b@x.test']), batch(2, ['c@x.test'])]);

    expect((await key.fileStatus(id)).status).toBe(404);
    expect((await key.listFiles('page=1&pageSize=10')).body.data).toMatchObject({ totalCount: 0, files: [] });
    expect(await store.files.getById(id)).toBeNull();
    expect(await store.batches.claim('test-worker', 60_000)).toBeNull();

    // A file accepted meanwhile, behind it in the queue, is claimed past it.
    const behind = newId();
    const behindSeq = await store.files.receive({ id: behind, keyId, owner: PROCESS_OWNER });
    expect(behindSeq).toBeGreaterThan(seq);
    await store.files.addBatches(behind, behindSeq, [batch(0, ['z@x.test'])]);
    const early = await store.files.accept(behind, acceptance('early.csv', 1, 1));
    expect(early).toMatchObject({ state: 'pending' });
    const past = await store.batches.claim('test-worker', 60_000);
    expect(past).toMatchObject({ fileId: behind, firstRow: 0, rows: [['z@x.test']] });
    expect(await store.batches.claim('test-worker', 60_000)).toBeNull();

    const file = await store.files.accept(id, acceptance('late.csv', 3, 2));
    expect(file).toMatchObject({ id, state: 'pending', credit_usage: 3, batches_total: 2 });
    expect((await key.fileStatus(id)).body.data).toMatchObject({ status: 'pending' });
    expect(await balanceOf(service, key)).toBe(6);
    const claimed = await store.batches.claim('test-worker', 60_000);
    expect(claimed).toMatchObject({ fileId: id, firstRow: 0, rows: [['a@x.test'], ['b@x.test']] });
    if (claimed) await store.batches.release(claimed.fileId, claimed.firstRow, 'test-worker');
    // Accepted once only; an accept with the wrong count of batches is refused.
    await expect(store.files.accept(id, acceptance('again.csv', 3, 2))).rejects.toThrow(/removed/);
    const other = newId();
    const otherSeq = await store.files.receive({ id: other, keyId, owner: PROCESS_OWNER });
    await store.files.addBatches(other, otherSeq, [batch(0, ['d@x.test'])]);
    await expect(store.files.accept(other, acceptance('x.csv', 1, 2))).rejects.toThrow(/1 batches of 2/);
    await store.files.discard(other);
    expect(await balanceOf(service, key)).toBe(6);
  });

  describe('uploads that are not accepted leave nothing', () => {
    let before: { files: number; batches: number };
    beforeAll(async () => {
      before = { files: await countOf('bulk_files'), batches: await countOf('file_batches') };
    });
    afterEach(async () => {
      expect(await store.files.receiving()).toEqual([]);
      expect(await countOf('bulk_files')).toBe(before.files);
      expect(await countOf('file_batches')).toBe(before.batches);
    });

    it('402: a 6 MB upload the balance cannot pay', async () => {
      const key = await apiWithNewKey(service, 10);
      const reply = await key.upload(csvOf(50_000));
      expect(reply.status).toBe(402);
      expect(reply.body).toMatchObject({ message: ERRORS.insufficientCredits });
      expect(await balanceOf(service, key)).toBe(10);
    });

    it('400: a bad field after the file', async () => {
      const key = await apiWithNewKey(service, 100_000);
      const reply = await key.upload(csvOf(50_000), { mode: 'no_such_mode' });
      expect(reply.status).toBe(400);
      expect(await balanceOf(service, key)).toBe(100_000);
    });

    it('a connection cut mid-upload, once batches were stored', async () => {
      const key = await apiWithNewKey(service, 100_000);
      const socket = await startUpload(service, key.apiKey ?? '');
      await waitFor(async () => ((await countOf('file_batches')) > before.batches ? true : null), 20_000, 20);
      expect(await store.files.receiving()).toHaveLength(1);
      socket.destroy();
      await waitFor(async () => ((await store.files.receiving()).length === 0 ? true : null), 20_000, 20);
      expect(await balanceOf(service, key)).toBe(100_000);
    });
  });

  describe('at start-up', () => {
    const children: ChildProcess[] = [];
    afterAll(() => {
      for (const child of children) child.kill('SIGKILL');
    });

    it('removes the receiving files of dead processes and keeps those of live ones', async () => {
      const key = await apiWithNewKey(service, 10);
      const keyId = (await store.keys.findByKey(key.apiKey ?? ''))?.id ?? '';
      const dead = spawn('true');
      await new Promise((resolve) => dead.once('exit', resolve));
      const live = spawn('sleep', ['60']);
      children.push(live);
      const owners = {
        dead: `${hostname()}:${dead.pid}:aaaaaa`,
        live: `${hostname()}:${live.pid}:bbbbbb`,
        elsewhere: `another-host.example:${dead.pid}:cccccc`,
      };
      const ids: Record<string, string> = {};
      for (const [name, owner] of Object.entries(owners)) {
        ids[name] = newId();
        const seq = await store.files.receive({ id: ids[name] as string, keyId, owner });
        await store.files.addBatches(ids[name] as string, seq, [batch(0, [`${name}@x.test`])]);
      }
      // And an upload the service itself was receiving when it was killed.
      const batchesBefore = await countOf('file_batches');
      const socket = await startUpload(service, key.apiKey ?? '');
      await waitFor(async () => ((await countOf('file_batches')) > batchesBefore ? true : null), 20_000, 20);
      const mine = (await store.files.receiving()).find((r) => !Object.values(ids).includes(r.id));
      expect(mine?.upload_owner).toMatch(new RegExp(`^${hostname()}:${service.pid}:`));
      // Killed (as if it crashed), then started again on the same database.
      await service.kill();
      socket.destroy();
      await start();
      const left = (await store.files.receiving()).map((r) => r.id).sort();
      expect(left).toEqual([ids.live, ids.elsewhere].sort());
      // The dead owner's batches went with its file.
      expect(await store.files.getById(ids.dead as string)).toBeNull();
      for (const id of left) await store.files.discard(id);
      expect(await store.files.receiving()).toEqual([]);
      expect(await countOf('file_batches')).toBe(batchesBefore - 3);
    }, 60_000);
  });
});

describe('which receiving files are orphans', () => {
  const now = Date.parse('2026-01-01T12:00:00.000Z');
  const row = (owner: string | null, minutesAgo: number) => ({
    id: 'f',
    upload_owner: owner,
    created_at: new Date(now - minutesAgo * 60_000).toISOString(),
  });
  const MAX = 10 * 60_000;

  it('any file older than any request can last, whoever owns it', () => {
    expect(isOrphan(row(PROCESS_OWNER, 11), now, MAX)).toBe(true);
    expect(isOrphan(row('another-host.example:1:abcdef', 11), now, MAX)).toBe(true);
    expect(isOrphan(row('another-host.example:1:abcdef', 9), now, MAX)).toBe(false);
  });

  it('a younger file only when its owner ran here and is gone', () => {
    expect(isOrphan(row(PROCESS_OWNER, 0), now, MAX)).toBe(false);
    expect(isOrphan(row(`${hostname()}:${process.pid}:zzzzzz`, 0), now, MAX)).toBe(true);
    expect(isOrphan(row(`${hostname()}:${process.ppid}:zzzzzz`, 0), now, MAX)).toBe(false);
    expect(isOrphan(row(null, 0), now, MAX)).toBe(false);
    expect(isOrphan(row('not-a-name', 0), now, MAX)).toBe(false);
  });
});
