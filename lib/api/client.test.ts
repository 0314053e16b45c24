import { DESCRIPTIONS, ERRORS, PATHS } from '@verimark/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient } from './client';
import { parseRetryAfter } from './http';
import { apiError } from './testing/api-error';
import { fail, ok, type Script, startScriptedServer } from './testing/scripted-server';

let server: Awaited<ReturnType<typeof startScriptedServer>>;
const sleeps: number[] = [];

const client = (script: Script) => {
  server.setScript(script);
  return createApiClient({
    baseUrl: `${server.url}/`,
    apiKey: 'key-1',
    retry: { sleep: async (ms) => void sleeps.push(ms) },
  });
};

beforeAll(async () => {
  server = await startScriptedServer(() => ({ status: 500 }));
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  sleeps.length = 0;
});

describe('the five endpoints', () => {
  it('queues a single address with the key header and a JSON body', async () => {
    const api = client(() => ok(DESCRIPTIONS.queued, { task_id: 't-1' }));
    expect(await api.verifySingle('a@example.com', 'catch_all')).toEqual({ taskId: 't-1' });
    const [req] = server.requests;
    expect(req?.method).toBe('POST');
    expect(req?.path).toBe(PATHS.single);
    expect(req?.headers['x-api-key']).toBe('key-1');
    expect(req?.json).toEqual({ email: 'a@example.com', mode: 'catch_all' });
  });

  it('reads a single task status and keeps unknown fields', async () => {
    const api = client(() =>
      ok(DESCRIPTIONS.singleStatus, {
        task_id: 't-1',
        processing_status: 'completed',
        status: 'valid',
        x: 1,
      }),
    );
    const data = await api.singleStatus('t-1');
    expect(data.processing_status).toBe('completed');
    expect(data).toMatchObject({ status: 'valid', x: 1 });
    expect(server.requests[0]?.json).toEqual({ task_id: 't-1' });
  });

  it('uploads a CSV as multipart with file, fileName, emailColumn and mode', async () => {
    const api = client(() => ok(DESCRIPTIONS.queued, { file_id: 'f-1' }));
    const file = new Blob(['Email\na@example.com\n'], { type: 'text/csv' });
    const res = await api.verifyBulk({
      file,
      fileName: 'leads.csv',
      emailColumn: 'Email',
      mode: 'non_catch_all',
    });
    expect(res).toEqual({ fileId: 'f-1' });
    const form = server.requests[0]?.form;
    expect(form?.get('fileName')).toBe('leads.csv');
    expect(form?.get('emailColumn')).toBe('Email');
    expect(form?.get('mode')).toBe('non_catch_all');
    const sent = form?.get('file');
    expect(sent instanceof Blob ? await sent.text() : null).toBe('Email\na@example.com\n');
  });

  it('reads a bulk status', async () => {
    const api = client(() => ok(DESCRIPTIONS.bulkStatus, { status: 'pending', download_url: '' }));
    expect(await api.bulkStatus('f-1')).toMatchObject({ status: 'pending', download_url: '' });
    expect(server.requests[0]?.json).toEqual({ file_id: 'f-1' });
  });

  it('lists files with page, pageSize and search in the query', async () => {
    const record = { _id: 'f-1', file_name: 'leads.csv', state: 'completed' };
    const api = client(() =>
      ok(DESCRIPTIONS.bulkFiles, { files: [record], totalCount: 1, page: 2, pageSize: 5 }),
    );
    const list = await api.listFiles({ page: 2, pageSize: 5, search: 'lea' });
    expect(list.files[0]?.meta_data).toEqual({ deliverable: 0, undeliverable: 0, unknown: 0, risky: 0 });
    const query = server.requests[0]?.query;
    expect([query?.get('page'), query?.get('pageSize'), query?.get('search')]).toEqual(['2', '5', 'lea']);
  });
});

describe('odd but harmless shapes', () => {
  it('reads a file record with nulls and a pending status with a null download_url', async () => {
    const record = {
      _id: 'f-1',
      file_name: null,
      state: 'processing',
      options: null,
      meta_data: { deliverable: 3, undeliverable: null, risky: '2' },
    };
    const list = await client(() =>
      ok(DESCRIPTIONS.bulkFiles, { files: [record], totalCount: 1, page: 1, pageSize: 5 }),
    ).listFiles({ page: 1, pageSize: 5 });
    expect(list.files[0]).toMatchObject({
      _id: 'f-1',
      file_name: '',
      options: { credit_usage: 0, credit_refund: 0 },
      meta_data: { deliverable: 3, undeliverable: 0, unknown: 0, risky: 0 },
    });
    const status = await client(() =>
      ok(DESCRIPTIONS.bulkStatus, { status: 'pending', download_url: null }),
    ).bulkStatus('f-1');
    expect(status.download_url).toBe('');
  });
});

describe('typed errors', () => {
  const cases: [number, string, string][] = [
    [400, ERRORS.missingEmailColumn, 'bad_request'],
    [401, ERRORS.invalidKey, 'invalid_key'],
    [402, ERRORS.insufficientCredits, 'payment_required'],
    [404, ERRORS.fileNotFound, 'not_found'],
    [413, ERRORS.tooLarge, 'too_large'],
  ];
  for (const [status, message, kind] of cases) {
    it(`maps ${status} to ${kind} with the service's message`, async () => {
      const err = await apiError(client(() => fail(status, message)).bulkStatus('f-1'));
      expect([err.kind, err.status, err.message]).toEqual([kind, status, message]);
      expect(server.requests).toHaveLength(1);
    });
  }

  it('reports 429 as rate_limited with Retry-After', async () => {
    const api = client(() => fail(429, ERRORS.rateLimited, { 'retry-after': '7' }));
    const err = await apiError(api.verifySingle('a@example.com', 'catch_all'));
    expect([err.kind, err.retryAfterSeconds]).toEqual(['rate_limited', 7]);
  });

  it('reports a response that breaks the contract as a server error, without retrying it', async () => {
    const err = await apiError(client(() => ok('x', { nothing: true })).bulkStatus('f-1'));
    expect(err.kind).toBe('server');
    expect(server.requests).toHaveLength(1);
  });

  it('never puts the key into an error message, even when fetch quotes it', async () => {
    const apiKey = 'pasted\nkey-with-a-line-break';
    const api = createApiClient({ baseUrl: server.url, apiKey, retry: { attempts: 1 } });
    const err = await apiError(api.listFiles({ page: 1, pageSize: 1 }));
    expect(err.kind).toBe('network');
    expect(err.message).not.toContain('key-with-a-line-break');
  });

  it('reports an unreachable service as a network error', async () => {
    const api = createApiClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k', retry: { attempts: 1 } });
    expect((await apiError(api.listFiles({ page: 1, pageSize: 1 }))).kind).toBe('network');
  });
});

describe('redirects', () => {
  it('are not followed, so the key never travels to another address', async () => {
    const elsewhere = await startScriptedServer(() =>
      ok(DESCRIPTIONS.bulkStatus, { status: 'pending', download_url: '' }),
    );
    try {
      const api = client(() => ({
        status: 302,
        headers: { location: `${elsewhere.url}/verify/bulk/status` },
      }));
      const err = await apiError(api.bulkStatus('f-1'));
      expect(err.kind).toBe('server');
      expect(err.message).toMatch(/redirect/);
      expect(elsewhere.requests).toHaveLength(0);
      expect(server.requests).toHaveLength(1);
    } finally {
      await elsewhere.close();
    }
  });
});

describe('retries', () => {
  it('never repeats a credit-spending POST', async () => {
    const single = client(() => fail(503, 'busy'));
    expect((await apiError(single.verifySingle('a@example.com', 'catch_all'))).kind).toBe('server');
    const bulk = client(() => fail(429, ERRORS.rateLimited, { 'retry-after': '1' }));
    await apiError(bulk.verifyBulk({ file: new Blob(['Email\n']), fileName: 'a.csv' }));
    expect(server.requests).toHaveLength(2);
  });

  it('retries a status call after 429, waiting as long as Retry-After says', async () => {
    let calls = 0;
    const api = client(() =>
      ++calls === 1
        ? fail(429, ERRORS.rateLimited, { 'retry-after': '3' })
        : ok(DESCRIPTIONS.bulkStatus, { status: 'completed', download_url: 'http://x/d.csv' }),
    );
    expect((await api.bulkStatus('f-1')).status).toBe('completed');
    expect(sleeps).toEqual([3000]);
  });

  it('retries list calls on 5xx with growing delays, then gives up', async () => {
    const err = await apiError(client(() => fail(502, 'bad gateway')).listFiles({ page: 1, pageSize: 1 }));
    expect(err.kind).toBe('server');
    expect(server.requests).toHaveLength(4);
    expect(sleeps[1]).toBeGreaterThan(sleeps[0] ?? Infinity);
  });

  it('does not retry client errors such as 401', async () => {
    await apiError(client(() => fail(401, ERRORS.invalidKey)).singleStatus('t'));
    expect(server.requests).toHaveLength(1);
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('12')).toBe(12);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6);
    expect(parseRetryAfter(null)).toBeNull();
    expect(parseRetryAfter('soon')).toBeNull();
  });
});

describe('getAccount (beyond the spec)', () => {
  it('reads the balance from GET /account with the key header', async () => {
    const api = client(() => ok(DESCRIPTIONS.account, { credits: 42, expires_at: null, label: 'team' }));
    expect(await api.getAccount()).toEqual({ credits: 42, expires_at: null, label: 'team' });
    expect(server.requests[0]).toMatchObject({ method: 'GET', path: PATHS.account });
    expect(server.requests[0]?.headers['x-api-key']).toBe('key-1');
  });

  it('is null from a service without the endpoint (404), and throws on a refused key', async () => {
    expect(await client(() => fail(404, 'Not Found')).getAccount()).toBeNull();
    expect((await apiError(client(() => fail(401, ERRORS.invalidKey)).getAccount())).kind).toBe(
      'invalid_key',
    );
  });
});
