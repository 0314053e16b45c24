/**
 * The HTTP surface: the per-key rate limit, CORS for any origin, 401 on every endpoint without a
 * valid key, signed URLs on PUBLIC_BASE_URL, 404s.
 */
import { ERRORS, PATHS } from '@verimark/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, apiWithNewKey } from '../testing/api';
import { type FakeNet, startFakeNet } from '../testing/fake-net';
import { type RunningService, startService } from '../testing/service';

let net: FakeNet;
let service: RunningService;

beforeAll(async () => {
  net = await startFakeNet();
  service = await startService({
    fakeNet: net,
    env: { RATE_LIMIT_PER_MIN: '5', PUBLIC_BASE_URL: 'https://verify.example.org/' },
  });
});
afterAll(async () => {
  await service?.stop();
  await net?.stop();
});

describe('rate limit', () => {
  it('429s past RATE_LIMIT_PER_MIN requests per key, with Retry-After, other keys unaffected', async () => {
    const key = await apiWithNewKey(service, 10);
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<Api['get']>> | null = null;
    for (let i = 0; i < 7; i++) {
      const reply = await key.get(`${PATHS.bulkFiles}?page=1&pageSize=1`);
      statuses.push(reply.status);
      if (reply.status === 429) limited = reply;
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(limited?.body).toEqual({ error: 429, message: ERRORS.rateLimited });
    expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited?.headers.get('access-control-allow-origin')).toBe('*');

    const fresh = await apiWithNewKey(service, 10);
    expect((await fresh.get(`${PATHS.bulkFiles}?page=1&pageSize=1`)).status).toBe(200);
  });
});

describe('HTTP surface', () => {
  it('answers CORS preflights for any origin, allowing x-api-key', async () => {
    const response = await fetch(service.baseUrl + PATHS.single, {
      method: 'OPTIONS',
      headers: {
        origin: 'chrome-extension://abcdefghijklmnop',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-api-key,content-type',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-api-key');
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
  });

  it('sends CORS headers on answers and errors', async () => {
    const response = await fetch(service.baseUrl + PATHS.single, {
      method: 'POST',
      headers: { origin: 'https://crm.example', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('401s a missing, unknown or revoked key on every endpoint', async () => {
    const revoked = await apiWithNewKey(service, 10);
    const listed = await service.admin(['list-keys']);
    const id = listed
      .split('\n')
      .find((l) => l.includes(` ${(revoked.apiKey ?? '').slice(0, 12)}…`))
      ?.split(/\s+/)[0];
    await service.admin(['revoke-key', id ?? '']);
    for (const key of [null, 'vm_nope', revoked.apiKey]) {
      const api = new Api(service.baseUrl, key);
      for (const reply of [
        await api.post(PATHS.single, { email: 'a@b.test' }),
        await api.post(PATHS.singleStatus, { task_id: 'x' }),
        await api.post(PATHS.bulkStatus, { file_id: 'x' }),
        await api.get(`${PATHS.bulkFiles}?page=1&pageSize=1`),
        await api.upload('Email\n'),
      ]) {
        expect(reply).toMatchObject({ status: 401, body: { error: 401, message: ERRORS.invalidKey } });
      }
    }
  });

  it('signs download URLs on PUBLIC_BASE_URL', async () => {
    const key = await apiWithNewKey(service, 10);
    const reply = await key.upload('Email\nnot-an-address\n');
    const status = await key.waitForFile(reply.body.data.file_id);
    expect(status.download_url).toMatch(
      new RegExp(`^https://verify\\.example\\.org/downloads/${reply.body.data.file_id}\\.csv\\?expires=`),
    );
  });

  it('404s unknown routes with the error body', async () => {
    const response = await fetch(`${service.baseUrl}/nope`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: 404 });
  });
});
