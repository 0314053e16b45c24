/**
 * A bulk file from upload to download on both stores: credits and refunds, the results CSV, signed
 * URLs, other keys' files invisible.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERRORS, PATHS, RESULT_COLUMNS } from '@verimark/contract';
import Papa from 'papaparse';
import { beforeAll, describe, expect, it } from 'vitest';
import { signDownloadUrl } from '../signing';
import { type Api, useService } from '../testing/api';
import { FAKE_DOMAINS as D } from '../testing/fake-net';
import { TEST_STORES } from '../testing/postgres-suite';
import { strayDataFiles } from '../testing/service';
import { UPLOADS_PER_KEY } from './bulk-upload';

async function download(url: string): Promise<{ status: number; type: string | null; text: string }> {
  const response = await fetch(url);
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

const CONTACTS = [
  'Name,Email,Company',
  `Alice,alice@${D.deliverable},"Acme, Inc."`,
  `Bob,nobody@${D.deliverable},Bobco`,
  `Carol,carol@${D.unreachable},Cc`,
  `Dan,dan@${D.catchAll},Dd`,
  'Eve,,Ee',
  `Frank,frank@${D.disposable},"Line one\nline two"`,
  '',
].join('\n');

describe.each(TEST_STORES)('on %s', (store) => {
  // On Postgres the generated secret lives in the database: the test sets one to sign with.
  const PG_SECRET = 'a-test-signing-secret-for-postgres';
  const svc = useService(store === 'postgres' ? { store, env: { SIGNING_SECRET: PG_SECRET } } : { store });
  const { newKey, balance } = svc;

  describe('a bulk file from upload to download', () => {
    let fileId: string;
    let key: Api;

    beforeAll(async () => {
      key = await newKey(20);
      const reply = await key.upload(CONTACTS, { fileName: 'Q3 contacts.csv' });
      expect(reply.status).toBe(200);
      expect(reply.body.message).toEqual({
        status: 'success',
        statusCode: 200,
        description: 'Email added to queue successfully',
      });
      fileId = reply.body.data.file_id;
    });

    it('takes one credit per non-empty email cell at upload and refunds unknowns at completion', async () => {
      const status = await key.waitForFile(fileId);
      expect(status.status).toBe('completed');
      const record = await key.fileRecord(fileId);
      expect(record).toMatchObject({
        _id: fileId,
        file_name: 'Q3 contacts.csv',
        state: 'completed',
        type: 'api',
        service_name: 'verify_email',
        options: { credit_usage: 5, credit_refund: 1 },
        meta_data: { deliverable: 1, undeliverable: 1, unknown: 1, risky: 2 },
      });
      expect(record?.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(record?.updatedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(await balance(key)).toBe(20 - 5 + 1);
      expect(strayDataFiles(svc.service.dataDir)).toEqual([]);
    });

    it('serves a results CSV with every original column and the result columns, without a key', async () => {
      const status = await key.fileStatus(fileId);
      expect(status.body.message.description).toBe('File status fetched successfully');
      const url = status.body.data.download_url;
      expect(url).toMatch(
        new RegExp(`^${svc.service.baseUrl}/downloads/${fileId}\\.csv\\?expires=\\d+&signature=[\\w-]+$`),
      );
      const expires = Number(new URL(url).searchParams.get('expires'));
      expect(expires - Date.now() / 1000).toBeGreaterThan(3500);
      expect(expires - Date.now() / 1000).toBeLessThanOrEqual(3600);

      const file = await download(url);
      expect(file.status).toBe(200);
      expect(file.type).toMatch(/^text\/csv/);
      const rows = Papa.parse<string[]>(file.text, { skipEmptyLines: true }).data;
      expect(rows[0]).toEqual(['Name', 'Email', 'Company', ...RESULT_COLUMNS]);
      expect(rows.slice(1).map((r) => r.slice(0, 5))).toEqual([
        ['Alice', `alice@${D.deliverable}`, 'Acme, Inc.', 'deliverable', 'accepted_email'],
        ['Bob', `nobody@${D.deliverable}`, 'Bobco', 'undeliverable', 'rejected_email'],
        ['Carol', `carol@${D.unreachable}`, 'Cc', 'unknown', 'smtp_unreachable'],
        ['Dan', `dan@${D.catchAll}`, 'Dd', 'risky', 'catch_all'],
        ['Eve', '', 'Ee', '', ''],
        ['Frank', `frank@${D.disposable}`, 'Line one\nline two', 'risky', 'disposable'],
      ]);
      const byName = Object.fromEntries(rows.slice(1).map((r) => [r[0], r]));
      const col = (name: (typeof RESULT_COLUMNS)[number]) => 3 + RESULT_COLUMNS.indexOf(name);
      expect(byName.Dan?.[col('is_catch_all')]).toBe('true');
      expect(byName.Alice?.[col('is_catch_all')]).toBe('false');
      expect(byName.Frank?.[col('is_disposable')]).toBe('true');
      expect(byName.Alice?.[col('mx_host')]).toBe(`mx.${D.deliverable}`);
      expect(byName.Eve?.slice(3)).toEqual(RESULT_COLUMNS.map(() => ''));
    });

    it('issues a fresh signed URL on each status call and refuses tampered or expired ones', async () => {
      const url = (await key.fileStatus(fileId)).body.data.download_url;
      const u = new URL(url);
      const sig = u.searchParams.get('signature') ?? '';
      const expires = u.searchParams.get('expires') ?? '';
      const variants = [
        url.replace(`signature=${sig}`, `signature=${sig.slice(0, -2)}xx`),
        url.replace(`expires=${expires}`, `expires=${Number(expires) + 3600}`),
        url.replace(fileId, `${fileId.slice(0, -1)}${fileId.endsWith('0') ? '1' : '0'}`),
        url.replace(/&signature=.*$/, ''),
        `${svc.service.baseUrl}/downloads/${fileId}.csv`,
      ];
      for (const bad of variants) expect((await download(bad)).status).toBe(403);

      const secret =
        store === 'postgres'
          ? PG_SECRET
          : readFileSync(join(svc.service.dataDir, 'signing-secret'), 'utf8').trim();
      const expired = signDownloadUrl(svc.service.baseUrl, secret, fileId, Date.now() - 3601_000);
      expect((await download(expired)).status).toBe(403);
      const valid = signDownloadUrl(svc.service.baseUrl, secret, fileId, Date.now() - 3000_000);
      expect((await download(valid)).status).toBe(200);
    });

    it('keeps files of other keys invisible', async () => {
      const other = await newKey(1);
      expect(await other.fileStatus(fileId)).toMatchObject({
        status: 404,
        body: { error: 404, message: ERRORS.fileNotFound },
      });
      const list = await other.listFiles('page=1&pageSize=100');
      expect(list.body.data).toEqual({ files: [], totalCount: 0, page: 1, pageSize: 100 });
      expect(await svc.api.fileStatus('ffffffffffffffffffffffff')).toMatchObject({ status: 404 });
    });
  });

  describe('bulk upload rules', () => {
    it('defaults fileName to the uploaded file name and mode to catch_all', async () => {
      const reply = await svc.api.upload(`Email\nx@${D.catchAll}\n`, {}, 'from-disk.csv');
      const status = await svc.api.waitForFile(reply.body.data.file_id);
      expect(status.status).toBe('completed');
      expect(await svc.api.fileRecord(reply.body.data.file_id)).toMatchObject({
        file_name: 'from-disk.csv',
        meta_data: { risky: 1 },
      });
    });

    it('honours non_catch_all', async () => {
      const reply = await svc.api.upload(`Email\nx@${D.catchAll}\n`, { mode: 'non_catch_all' });
      await svc.api.waitForFile(reply.body.data.file_id);
      expect(await svc.api.fileRecord(reply.body.data.file_id)).toMatchObject({
        meta_data: { deliverable: 1 },
      });
    });

    it('finds the column by emailColumn, exactly first, then case-insensitively', async () => {
      const csv = `work email,Work Email,Email\nx@${D.rejecting},alice@${D.deliverable},x@${D.rejecting}\n`;
      const exact = await svc.api.upload(csv, { emailColumn: 'Work Email' });
      await svc.api.waitForFile(exact.body.data.file_id);
      expect(await svc.api.fileRecord(exact.body.data.file_id)).toMatchObject({
        meta_data: { deliverable: 1 },
      });
      const loose = await svc.api.upload(`Name,EMAIL\nA,alice@${D.deliverable}\n`);
      await svc.api.waitForFile(loose.body.data.file_id);
      expect(await svc.api.fileRecord(loose.body.data.file_id)).toMatchObject({
        meta_data: { deliverable: 1 },
      });
    });

    it('rejects a missing email column, an address as emailColumn and an unknown mode', async () => {
      expect(await svc.api.upload('Name,Mail\nA,a@b.test\n')).toMatchObject({
        status: 400,
        body: { error: 400, message: ERRORS.missingEmailColumn },
      });
      expect(await svc.api.upload('Name,Contact\nA,a@b.test\n', { emailColumn: 'Email' })).toMatchObject({
        status: 400,
        body: { error: 400, message: ERRORS.missingEmailColumn },
      });
      expect(await svc.api.upload('Email\na@b.test\n', { emailColumn: 'a@b.test' })).toMatchObject({
        status: 400,
        body: { error: 400, message: ERRORS.invalidBody },
      });
      expect(await svc.api.upload('Email\na@b.test\n', { mode: 'thorough' })).toMatchObject({
        status: 400,
        body: { error: 400, message: ERRORS.invalidBody },
      });
    });

    it('402s when the balance is short, taking nothing', async () => {
      const key = await newKey(2);
      const reply = await key.upload(`Email\na@${D.deliverable}\nb@${D.deliverable}\nc@${D.deliverable}\n`);
      expect(reply).toMatchObject({ status: 402, body: { error: 402, message: ERRORS.insufficientCredits } });
      expect(await balance(key)).toBe(2);
      expect((await key.listFiles('page=1&pageSize=10')).body.data.totalCount).toBe(0);
    });

    it('never overdraws under concurrent uploads', async () => {
      const key = await newKey(5);
      // As many at once as a key may stream (UPLOADS_PER_KEY), wave after wave.
      const replies: Awaited<ReturnType<typeof key.upload>>[] = [];
      for (let wave = 0; wave < 12; wave += UPLOADS_PER_KEY) {
        const at = Array.from({ length: UPLOADS_PER_KEY }, (_, i) => wave + i);
        replies.push(...(await Promise.all(at.map((i) => key.upload(`Email\nr${i}@${D.rejecting}\n`)))));
      }
      expect(replies.filter((r) => r.status === 200)).toHaveLength(5);
      expect(replies.filter((r) => r.status === 402)).toHaveLength(7);
      expect(await balance(key)).toBe(0);
      expect((await key.listFiles('page=1&pageSize=100')).body.data.totalCount).toBe(5);
    });

    it('needs a key and a multipart body with a file', async () => {
      expect(await svc.api.withKey(null).upload('Email\n')).toMatchObject({
        status: 401,
        body: { error: 401, message: ERRORS.invalidKey },
      });
      expect(await svc.api.post(PATHS.bulk, { file: 'Email\na@b.test' })).toMatchObject({
        status: 400,
        body: { error: 400, message: ERRORS.invalidBody },
      });
      const form = new FormData();
      form.append('fileName', 'x.csv');
      const noFile = await fetch(svc.service.baseUrl + PATHS.bulk, {
        method: 'POST',
        headers: { 'x-api-key': svc.service.apiKey },
        body: form,
      });
      expect(noFile.status).toBe(400);
      expect(await noFile.json()).toEqual({ error: 400, message: ERRORS.invalidBody });
    });

    it('reports pending or processing while a file runs, with counts growing', async () => {
      const lines = ['Email'];
      for (let i = 0; i < 400; i++) lines.push(i % 20 === 0 ? `u${i}@${D.tarpit}` : `r${i}@${D.rejecting}`);
      const reply = await svc.api.upload(lines.join('\n'));
      const id = reply.body.data.file_id;
      const seen = new Set<string>();
      const totals: number[] = [];
      for (;;) {
        const status = (await svc.api.fileStatus(id)).body.data;
        seen.add(status.status);
        const record = await svc.api.fileRecord(id);
        const m = record?.meta_data;
        if (m) totals.push(m.deliverable + m.undeliverable + m.unknown + m.risky);
        if (status.status === 'completed') break;
        expect(status.download_url).toBe('');
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(seen.has('processing')).toBe(true);
      expect(totals.some((t) => t > 0 && t < 400)).toBe(true);
      expect(totals).toEqual([...totals].sort((a, b) => a - b));
      expect(totals.at(-1)).toBe(400);
    });
  });
});
