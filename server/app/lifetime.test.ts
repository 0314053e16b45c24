/**
 * Data with a lifetime (docs/design.md §3, §4), on both stores, against the real service over
 * HTTP and the real admin CLI: `DELETE /verify/bulk/files/{id}` removes a file's rows and results
 * at once (a key only its own); `purge` and the service's start-up remove finished work older
 * than RETENTION_DAYS; `delete-file` removes one file; `backup` copies a live SQLite database.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DESCRIPTIONS, type Envelope, ERRORS, PATHS, type SingleResult } from '@verimark/contract';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, apiWithNewKey, balanceOf } from '../testing/api';
import { FAKE_DOMAINS as D, type FakeNet, startFakeNet } from '../testing/fake-net';
import { TEST_STORES, usePostgres } from '../testing/postgres-suite';
import { type RunningService, startService } from '../testing/service';

const DAY_MS = 24 * 60 * 60 * 1000;
const fileUrl = (id: string) => PATHS.bulkFile.replace('{file_id}', encodeURIComponent(id));

async function remove(api: Api, id: string) {
  const response = await fetch(api.baseUrl + fileUrl(id), {
    method: 'DELETE',
    headers: api.apiKey ? { 'x-api-key': api.apiKey } : {},
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

/** Uploads `emails` (one column) and waits until the file is completed; its id. */
async function completedFile(api: Api, emails: string[]): Promise<string> {
  const upload = await api.upload(['Email', ...emails].join('\n'), { mode: 'non_catch_all' });
  expect(upload.status).toBe(200);
  const id = upload.body.data.file_id;
  expect((await api.waitForFile(id)).status).toBe('completed');
  return id;
}

async function singleTask(api: Api, email: string): Promise<string> {
  const queued = await api.post<Envelope<{ task_id: string }>>(PATHS.single, {
    email,
    mode: 'non_catch_all',
  });
  await api.verifyNow(email, 'non_catch_all');
  return queued.body.data.task_id;
}

const taskStatus = (api: Api, taskId: string) =>
  api.post<Envelope<SingleResult>>(PATHS.singleStatus, { task_id: taskId });

describe.each(TEST_STORES)('on %s', (kind) => {
  const postgres = kind === 'postgres' ? usePostgres() : null;
  let service: RunningService;
  let fakeNet: FakeNet;
  let dataDir: string;
  /** Runs SQL straight on the service's database (`?` placeholders). */
  let sql: (text: string, ...params: (string | number)[]) => Promise<{ n: number }[]>;
  let closeRaw: () => Promise<void> = async () => {};

  const start = async () => {
    service = await startService({
      dataDir,
      fakeNet,
      env: { WORKER_POLL_MS: '50' },
      ...(postgres ? { databaseUrl: postgres.url() } : {}),
    });
  };
  const rowsOf = async (id: string) =>
    (await sql('SELECT COUNT(*) AS n FROM file_batches WHERE file_id = ?', id))[0]?.n ?? -1;
  /** Makes a file or task look finished `days` ago. */
  const age = async (table: 'bulk_files' | 'single_tasks', id: string, days: number) => {
    const at = new Date(Date.now() - days * DAY_MS).toISOString();
    await sql(`UPDATE ${table} SET created_at = ?, updated_at = ? WHERE id = ?`, at, at, id);
  };

  beforeAll(async () => {
    fakeNet = await startFakeNet();
    dataDir = await mkdtemp(join(tmpdir(), 'verimark-lifetime-'));
    await start();
    if (postgres) {
      const client = new pg.Client({ connectionString: postgres.url() });
      await client.connect();
      sql = async (text, ...params) => {
        let n = 0;
        const numbered = text.replace(/\?/g, () => `$${++n}`).replace('COUNT(*)', 'COUNT(*)::int');
        return (await client.query<{ n: number }>(numbered, params)).rows;
      };
      closeRaw = () => client.end();
    } else {
      const db = new Database(join(dataDir, 'verimark.sqlite'));
      db.pragma('busy_timeout = 5000');
      sql = async (text, ...params) => {
        const statement = db.prepare(text);
        if (statement.reader) return statement.all(...params) as { n: number }[];
        statement.run(...params);
        return [];
      };
      closeRaw = async () => {
        db.close();
      };
    }
  }, 60_000);
  afterAll(async () => {
    await closeRaw();
    await service?.stop();
    await fakeNet?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('DELETE /verify/bulk/files/{id} removes a file with its rows and results at once; only its own key may', async () => {
    const owner = await apiWithNewKey(service, 100);
    const stranger = await apiWithNewKey(service, 100);
    const id = await completedFile(owner, [`a@${D.rejecting}`, `b@${D.rejecting}`, `c@${D.rejecting}`]);
    const link = (await owner.fileStatus(id)).body.data.download_url;
    expect((await fetch(link)).status).toBe(200);
    expect(await rowsOf(id)).toBeGreaterThan(0);
    // Where a file completed before results moved into the database keeps them: removed too.
    const legacy = join(dataDir, 'results', `${id}.csv`);
    writeFileSync(legacy, 'Email\r\n');

    const notFound = { status: 404, body: { error: 404, message: ERRORS.fileNotFound } };
    expect(await remove(stranger, id)).toEqual(notFound);
    expect(await remove(owner.withKey(null), id)).toMatchObject({ status: 401 });
    expect((await owner.fileStatus(id)).body.data.status).toBe('completed');

    expect(await remove(owner, id)).toEqual({
      status: 200,
      body: {
        message: { status: 'success', statusCode: 200, description: DESCRIPTIONS.fileDeleted },
        data: { file_id: id },
      },
    });
    expect(await rowsOf(id)).toBe(0);
    expect(existsSync(legacy)).toBe(false);
    expect((await sql('SELECT COUNT(*) AS n FROM bulk_files WHERE id = ?', id))[0]?.n).toBe(0);
    expect((await owner.fileStatus(id)).status).toBe(404);
    expect((await fetch(link)).status).toBe(404);
    expect(await remove(owner, id)).toEqual(notFound);
    expect(await balanceOf(service, owner)).toBe(97);
  });

  it('DELETE of a file not finished yet refunds what completing it would have', async () => {
    const key = await apiWithNewKey(service, 50);
    // The slow domain answers after the probe's timeout: every row would end unknown, refunded.
    const upload = await key.upload(
      ['Email', ...Array.from({ length: 20 }, (_, i) => `s${i}@${D.slow}`)].join('\n'),
    );
    const id = upload.body.data.file_id;
    // Still being verified (asked over HTTP, quicker than the admin command below).
    expect((await key.fileStatus(id)).body.data.status).not.toBe('completed');
    expect((await remove(key, id)).status).toBe(200);
    expect(await balanceOf(service, key)).toBe(50);
    expect(await rowsOf(id)).toBe(0);
  });

  it('purge removes files, results and single tasks finished before the retention; delete-file removes one', async () => {
    const key = await apiWithNewKey(service, 100);
    const old = await completedFile(key, [`old@${D.rejecting}`]);
    const tenDays = await completedFile(key, [`ten@${D.rejecting}`]);
    const recent = await completedFile(key, [`new@${D.rejecting}`]);
    const oldTask = await singleTask(key, `old@${D.rejecting}`);
    const recentTask = await singleTask(key, `new@${D.rejecting}`);
    await age('bulk_files', old, 31);
    await age('bulk_files', tenDays, 10);
    await age('single_tasks', oldTask, 31);

    // RETENTION_DAYS is 30 by default.
    expect(await service.admin(['purge'])).toContain('Removed 1 file(s) and 1 single task(s)');
    expect((await key.fileStatus(old)).body).toEqual({ error: 404, message: ERRORS.fileNotFound });
    expect(await rowsOf(old)).toBe(0);
    expect((await taskStatus(key, oldTask)).body).toEqual({ error: 404, message: ERRORS.taskNotFound });
    expect((await key.fileStatus(tenDays)).body.data.status).toBe('completed');
    expect((await taskStatus(key, recentTask)).body.data.processing_status).toBe('completed');

    expect(await service.admin(['purge', '--older-than', '7'])).toContain('Removed 1 file(s)');
    expect((await key.fileStatus(tenDays)).status).toBe(404);
    expect((await key.fileStatus(recent)).body.data.status).toBe('completed');

    expect(await service.admin(['delete-file', recent])).toContain(`Deleted file ${recent}`);
    expect((await key.fileStatus(recent)).status).toBe(404);
    expect(await rowsOf(recent)).toBe(0);
    await expect(service.admin(['delete-file', recent])).rejects.toThrow(/No such file/);
    await expect(service.admin(['purge', '--older-than', 'a week'])).rejects.toThrow(/--older-than/);
  });

  it('removes work older than RETENTION_DAYS when the service starts', async () => {
    const key = await apiWithNewKey(service, 100);
    const old = await completedFile(key, [`start@${D.rejecting}`]);
    const kept = await completedFile(key, [`kept@${D.rejecting}`]);
    await age('bulk_files', old, 3);
    await service.stop();
    service = await startService({
      dataDir,
      fakeNet,
      env: { RETENTION_DAYS: '2' },
      ...(postgres ? { databaseUrl: postgres.url() } : {}),
    });
    const fresh = new Api(service.baseUrl, key.apiKey);
    expect((await fresh.fileStatus(old)).status).toBe(404);
    expect(await rowsOf(old)).toBe(0);
    expect((await fresh.fileStatus(kept)).body.data.status).toBe('completed');
  });

  it(
    kind === 'sqlite' ? 'backup copies the live database to a new file' : 'backup says to use pg_dump',
    async () => {
      const target = join(dataDir, 'backup.sqlite');
      if (kind === 'postgres') {
        await expect(service.admin(['backup', target])).rejects.toThrow(/pg_dump/);
        expect(existsSync(target)).toBe(false);
        return;
      }
      expect(await service.admin(['backup', target])).toContain('Backed up');
      const copy = new Database(target, { readonly: true });
      try {
        const count = (table: string) =>
          (copy.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
        expect(count('api_keys')).toBe((await sql('SELECT COUNT(*) AS n FROM api_keys'))[0]?.n);
        expect(count('bulk_files')).toBe((await sql('SELECT COUNT(*) AS n FROM bulk_files'))[0]?.n);
        expect(count('api_keys')).toBeGreaterThan(0);
      } finally {
        copy.close();
      }
      await expect(service.admin(['backup', target])).rejects.toThrow(/exists already/);
      await expect(service.admin(['backup', join(dataDir, 'no-such-folder', 'b.sqlite')])).rejects.toThrow(
        /does not exist: make it first/,
      );
    },
  );
});
