/**
 * Bad input never makes a 500: broken JSON and multipart bodies get 400, awkward CSV files a
 * correct result or a clear 400, and nothing is charged for them.
 */
import { ERRORS, MAX_ROW_BYTES, PATHS, RESULT_COLUMNS } from '@verimark/contract';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { useService } from '../testing/api';
import { FAKE_DOMAINS as D } from '../testing/fake-net';

const svc = useService();
const { newKey, balance } = svc;

const INVALID_BODY = { status: 400, body: { error: 400, message: ERRORS.invalidBody } };

describe('bad JSON bodies get 400 Invalid request body, never a 500', () => {
  const raw: [string, string, string][] = [
    ['malformed JSON', '{"email": ', 'application/json'],
    ['an empty JSON body', '', 'application/json'],
    ['JSON null', 'null', 'application/json'],
    ['a JSON array', '[]', 'application/json'],
    ['a JSON string', '"a@b.test"', 'application/json'],
    ['prototype poisoning', '{"__proto__": {"x": 1}, "email": "a@b.test"}', 'application/json'],
    ['text/plain', 'a@b.test', 'text/plain'],
    ['form encoding', 'email=a%40b.test', 'application/x-www-form-urlencoded'],
  ];
  for (const path of [PATHS.single, PATHS.singleStatus, PATHS.bulkStatus]) {
    it.each(raw)(`${path}: %s`, async (_name, body, type) => {
      expect(await svc.api.post(path, body, type)).toMatchObject(INVALID_BODY);
    });
  }

  it.each([
    [{}],
    [{ email: 42 }],
    [{ email: ['a@b.test'] }],
    [{ email: null }],
    [{ email: '   ' }],
    [{ email: 'a@b.test', mode: 'fast' }],
    [{ email: 'a@b.test', mode: 1 }],
    [{ email: `${'a'.repeat(2000)}@b.test` }],
  ])('/verify/single: wrong fields %j', async (body) => {
    expect(await svc.api.post(PATHS.single, body)).toMatchObject(INVALID_BODY);
  });

  it.each([[{}], [{ task_id: 1 }], [{ task_id: '' }], [{ task_id: { $ne: null } }]])(
    '/verify/single/status: wrong fields %j',
    async (body) => {
      expect(await svc.api.post(PATHS.singleStatus, body)).toMatchObject(INVALID_BODY);
    },
  );

  it.each([[{}], [{ file_id: 7 }], [{ file_id: ['x'] }]])(
    '/verify/bulk/status: wrong fields %j',
    async (body) => {
      expect(await svc.api.post(PATHS.bulkStatus, body)).toMatchObject(INVALID_BODY);
    },
  );

  it('a body past the JSON size limit', async () => {
    const big = JSON.stringify({ email: 'a@b.test', pad: 'x'.repeat(200_000) });
    expect(await svc.api.post(PATHS.single, big)).toMatchObject(INVALID_BODY);
  });

  it('does not charge for rejected bodies', async () => {
    const key = await newKey(5);
    for (const [, body, type] of raw) await key.post(PATHS.single, body, type);
    await key.post(PATHS.single, { email: 42 });
    await key.upload('Name\nx\n');
    expect(await balance(key)).toBe(5);
  });
});

describe('broken multipart bodies get 400 Invalid request body', () => {
  const part = (name: string, file: string | null, body: string) =>
    `--XYZ\r\nContent-Disposition: form-data; name="${name}"${file ? `; filename="${file}"` : ''}\r\n\r\n${body}\r\n`;
  it.each([
    ['no boundary', 'multipart/form-data', 'garbage'],
    ['a boundary that never comes', 'multipart/form-data; boundary=XYZ', 'garbage'],
    [
      'a body cut short',
      'multipart/form-data; boundary=XYZ',
      '--XYZ\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nEmail\na@b.test\n',
    ],
    [
      'fields but no file',
      'multipart/form-data; boundary=XYZ',
      `${part('fileName', null, 'a.csv')}--XYZ--\r\n`,
    ],
    [
      'two files',
      'multipart/form-data; boundary=XYZ',
      `${part('file', 'a.csv', 'Email')}${part('file', 'b.csv', 'Email')}--XYZ--\r\n`,
    ],
    [
      'a file under another name',
      'multipart/form-data; boundary=XYZ',
      `${part('upload', 'a.csv', 'Email')}--XYZ--\r\n`,
    ],
    ['not multipart at all', 'multipart/mixed; boundary=XYZ', 'garbage'],
  ])('%s', async (_name, type, body) => {
    expect(await svc.api.post(PATHS.bulk, body, type)).toMatchObject(INVALID_BODY);
  });
});

/** Uploads, waits for completion and returns the results CSV's rows (header first). */
async function roundTrip(content: string | Uint8Array<ArrayBuffer>, fields: Record<string, string> = {}) {
  const reply = await svc.api.upload(content, fields);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  const id = reply.body.data.file_id;
  const status = await svc.api.waitForFile(id);
  expect(status.status).toBe('completed');
  const text = await (await fetch(status.download_url)).text();
  const record = await svc.api.fileRecord(id);
  return { rows: Papa.parse<string[]>(text, { skipEmptyLines: true }).data, record };
}

const ok = `alice@${D.deliverable}`;
const no = `nobody@${D.deliverable}`;

describe('awkward CSV files get a correct result or a clear 400', () => {
  it('an empty file: 400 missing email column', async () => {
    expect(await svc.api.upload('')).toMatchObject({
      status: 400,
      body: { error: 400, message: ERRORS.missingEmailColumn },
    });
  });

  it('binary bytes: 400 missing email column', async () => {
    const bytes = new Uint8Array(4096);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919) % 256;
    expect(await svc.api.upload(bytes)).toMatchObject({
      status: 400,
      body: { error: 400, message: ERRORS.missingEmailColumn },
    });
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    expect((await svc.api.upload(png)).status).toBe(400);
  });

  it('a header-only file is refused: an upload always costs a credit', async () => {
    expect(await svc.api.upload('Name,Email\n')).toMatchObject({
      status: 400,
      body: { error: 400, message: ERRORS.noAddresses },
    });
  });

  it('a BOM before the header', async () => {
    const { rows } = await roundTrip(`\uFEFFEmail,Name\n${ok},A\n`);
    expect(rows[0]?.[0]).toBe('Email');
    expect(rows[1]?.slice(0, 3)).toEqual([ok, 'A', 'deliverable']);
  });

  it.each([
    ['CRLF', '\r\n'],
    ['CR', '\r'],
    ['LF', '\n'],
  ])('%s line ends', async (_name, nl) => {
    const { rows, record } = await roundTrip(['Name,Email', `A,${ok}`, `B,${no}`, ''].join(nl));
    expect(rows.map((r) => r.slice(0, 3))).toEqual([
      ['Name', 'Email', 'verification_status'],
      ['A', ok, 'deliverable'],
      ['B', no, 'undeliverable'],
    ]);
    expect(record?.options.credit_usage).toBe(2);
  });

  it('quoted newlines, quotes and delimiters inside cells', async () => {
    const { rows } = await roundTrip(`Note,Email\n"two\nlines, and ""quotes""",${ok}\n"x\r\ny",${no}\n`);
    expect(rows.slice(1).map((r) => r.slice(0, 3))).toEqual([
      ['two\nlines, and "quotes"', ok, 'deliverable'],
      ['x\r\ny', no, 'undeliverable'],
    ]);
  });

  it('semicolon-separated files', async () => {
    const { rows } = await roundTrip(`Name;Email\nA;${ok}\n`);
    expect(rows[1]?.slice(0, 3)).toEqual(['A', ok, 'deliverable']);
  });

  it('very long lines: up to 1 MiB a row, beyond that a clear 400', async () => {
    const long = 'x'.repeat(MAX_ROW_BYTES - 100);
    const { rows } = await roundTrip(`Bio,Email\n${long},${ok}\nshort,${no}\n`);
    expect(rows[1]?.[0]).toHaveLength(long.length);
    expect(rows.slice(1).map((r) => r[2])).toEqual(['deliverable', 'undeliverable']);
    const longer = 'x'.repeat(2 * MAX_ROW_BYTES);
    expect(await svc.api.upload(`Bio,Email\n${longer},${ok}\nshort,${no}\n`)).toMatchObject({
      status: 400,
      body: { error: 400, message: ERRORS.rowTooLong },
    });
  });

  it('duplicate headers keep every column; the first Email column is used', async () => {
    const { rows } = await roundTrip(`Email,Name,Email\n${ok},A,${no}\n`);
    expect(rows[0]).toEqual(['Email', 'Name', 'Email', ...RESULT_COLUMNS]);
    expect(rows[1]?.slice(0, 4)).toEqual([ok, 'A', no, 'deliverable']);
  });

  it('ragged rows are padded or cut to the header width', async () => {
    const { rows } = await roundTrip(`Name,Email,Extra\nA,${ok}\nB,${no},x,y,z\n`);
    expect(rows.map((r) => r.length)).toEqual([11, 11, 11]);
    expect(rows.slice(1).map((r) => r.slice(0, 4))).toEqual([
      ['A', ok, '', 'deliverable'],
      ['B', no, 'x', 'undeliverable'],
    ]);
  });

  it('addresses with spaces, uppercase and trailing dots', async () => {
    const cells = [`  ${ok}  `, `ALICE@${D.deliverable.toUpperCase()}`, `${ok}.`, `al ice@${D.deliverable}`];
    const { rows, record } = await roundTrip(`Email\n${cells.map((c) => `"${c}"`).join('\n')}\n`);
    expect(rows.slice(1).map((r) => r[0])).toEqual(cells);
    const verdicts = rows.slice(1).map((r) => r[1]);
    expect(verdicts[0]).toBe('deliverable');
    expect(verdicts[1]).toBe('deliverable');
    for (const v of verdicts.slice(2)) expect(['deliverable', 'undeliverable']).toContain(v);
    expect(rows[4]?.slice(1, 3)).toEqual(['undeliverable', 'invalid_syntax']);
    expect(record?.options.credit_usage).toBe(4);
  });

  it('blank lines and empty email cells cost nothing and are kept as rows', async () => {
    const { rows, record } = await roundTrip(`Name,Email\n\nA,\n\nB,${ok}\n   \n`);
    expect(rows.slice(1).map((r) => r.slice(0, 3))).toEqual([
      ['A', '', ''],
      ['B', ok, 'deliverable'],
    ]);
    expect(record?.options.credit_usage).toBe(1);
  });

  it('multi-byte characters split across read chunks survive', async () => {
    const name = 'Zoë Łukasz 東京 '.repeat(9000);
    const { rows } = await roundTrip(`Name,Email\n${name},${ok}\n`);
    expect(rows[1]?.[0]).toBe(name);
  });
});
