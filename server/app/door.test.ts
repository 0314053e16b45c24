/**
 * Limits before the door (docs/design.md §4): failed requests counted per client address (IPv6
 * per /64) before any key lookup, a key accepted from an address passing that address's limit, TRUST_PROXY deciding who may name that address, downloads limited by address
 * rather than by a header the client makes up; uploads refused before their body is read; logs
 * without signatures or keys; a revoked key's download links dead.
 */
import http from 'node:http';
import { API_KEY_HEADER, PATHS } from '@verimark/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, apiWithNewKey, waitFor } from '../testing/api';
import { type FakeNet, startFakeNet } from '../testing/fake-net';
import { type RunningService, startService } from '../testing/service';
import { clientBucket, DOOR_LIMIT_PER_MIN } from './door-limit';

/** RATE_LIMIT_PER_MIN here; the limit before the door is its own (DOOR_LIMIT_PER_MIN, 30). */
const LIMIT = 20;
const DOOR = DOOR_LIMIT_PER_MIN;
let net: FakeNet;
/** Behind a trusted proxy on 127.0.0.1: X-Forwarded-For names the client. */
let proxied: RunningService;
/** No TRUST_PROXY: every request comes from the connection's address, whatever it claims. */
let direct: RunningService;

beforeAll(async () => {
  net = await startFakeNet();
  const env = { RATE_LIMIT_PER_MIN: String(LIMIT), LOG_LEVEL: 'info' };
  [proxied, direct] = await Promise.all([
    startService({ fakeNet: net, env: { ...env, TRUST_PROXY: '127.0.0.1' } }),
    startService({ fakeNet: net, env }),
  ]);
}, 60_000);
afterAll(async () => {
  await Promise.all([proxied?.stop(), direct?.stop()]);
  await net?.stop();
});

let clients = 0;
/** A client address of its own for each test (through the trusted proxy). */
const newClient = () => `198.51.100.${++clients}`;

async function get(base: string, path: string, headers: Record<string, string>): Promise<number> {
  return (await fetch(base + path, { headers })).status;
}

describe('before the door', () => {
  it('refuses a client address with 429 past the limit of bad-key requests, before looking the key up', async () => {
    const client = newClient();
    const statuses: number[] = [];
    for (let i = 0; i < 100; i++) {
      const headers = { 'x-forwarded-for': client, [API_KEY_HEADER]: `vm_guess${i}` };
      statuses.push(await get(proxied.baseUrl, PATHS.account, headers));
    }
    expect(statuses.slice(0, DOOR)).toEqual(Array(DOOR).fill(401));
    expect(statuses.slice(DOOR)).toEqual(Array(100 - DOOR).fill(429));
    // A request without a key from there too; the same key from another address goes through.
    expect(await get(proxied.baseUrl, PATHS.account, { 'x-forwarded-for': client })).toBe(429);
    const good = { 'x-forwarded-for': newClient(), [API_KEY_HEADER]: proxied.apiKey };
    expect(await get(proxied.baseUrl, PATHS.account, good)).toBe(200);
  });

  it('serves a valid key from an address that just failed 30 times, when that key was accepted from there before; per key it stays limited', async () => {
    const client = newClient();
    const api = await apiWithNewKey(proxied, 10);
    const own = { 'x-forwarded-for': client, [API_KEY_HEADER]: api.apiKey ?? '' };
    expect(await get(proxied.baseUrl, PATHS.account, own)).toBe(200);
    for (let i = 0; i < DOOR; i++) {
      const headers = { 'x-forwarded-for': client, [API_KEY_HEADER]: `vm_guess${i}` };
      expect(await get(proxied.baseUrl, PATHS.account, headers)).toBe(401);
    }
    // The address is shut: a guess, no key, and a valid key never used from there are refused…
    expect(
      await get(proxied.baseUrl, PATHS.account, { 'x-forwarded-for': client, [API_KEY_HEADER]: 'vm_x' }),
    ).toBe(429);
    expect(await get(proxied.baseUrl, PATHS.account, { 'x-forwarded-for': client })).toBe(429);
    const stranger = { 'x-forwarded-for': client, [API_KEY_HEADER]: proxied.apiKey };
    expect(await get(proxied.baseUrl, PATHS.account, stranger)).toBe(429);
    // …but the key accepted from it a moment ago is served, until its own limit per key.
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT; i++) statuses.push(await get(proxied.baseUrl, PATHS.account, own));
    expect(statuses.slice(0, LIMIT - 1)).toEqual(Array(LIMIT - 1).fill(200));
    expect(statuses.at(-1)).toBe(429);
    // Its pass belongs to that address: from another shut address it is refused like any other.
    const other = newClient();
    for (let i = 0; i < DOOR; i++) {
      await get(proxied.baseUrl, PATHS.account, {
        'x-forwarded-for': other,
        [API_KEY_HEADER]: `vm_guess${i}`,
      });
    }
    const elsewhere = await fetch(proxied.baseUrl + PATHS.account, {
      headers: { 'x-forwarded-for': other, [API_KEY_HEADER]: api.apiKey ?? '' },
    });
    expect(elsewhere.status).toBe(429);
    expect(Number(elsewhere.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('counts IPv6 clients per /64: rotating addresses inside one network does not escape the limit', async () => {
    const net64 = '2001:db8:7:1';
    const statuses: number[] = [];
    for (let i = 0; i < DOOR + 3; i++) {
      const headers = {
        'x-forwarded-for': `${net64}::${(i + 1).toString(16)}`,
        [API_KEY_HEADER]: `vm_v6_${i}`,
      };
      statuses.push(await get(proxied.baseUrl, PATHS.account, headers));
    }
    expect(statuses.slice(0, DOOR)).toEqual(Array(DOOR).fill(401));
    expect(statuses.slice(DOOR)).toEqual(Array(3).fill(429));
    const sameNet = { 'x-forwarded-for': `${net64}:abcd:ef01:2345:6789`, [API_KEY_HEADER]: 'vm_v6_next' };
    expect(await get(proxied.baseUrl, PATHS.account, sameNet)).toBe(429);
    // The next /64 is another client.
    const nextNet = { 'x-forwarded-for': '2001:db8:7:2::1', [API_KEY_HEADER]: 'vm_v6_other' };
    expect(await get(proxied.baseUrl, PATHS.account, nextNet)).toBe(401);
  });

  it('ignores X-Forwarded-For unless TRUST_PROXY trusts the sender', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < DOOR + 5; i++) {
      statuses.push(await get(direct.baseUrl, PATHS.account, { 'x-forwarded-for': `203.0.113.${i + 1}` }));
    }
    expect(statuses.slice(DOOR)).toEqual(Array(5).fill(429));
    // Behind the trusted proxy, as many different clients are each under the limit.
    const spread: number[] = [];
    for (let i = 0; i < DOOR + 5; i++) {
      spread.push(await get(proxied.baseUrl, PATHS.account, { 'x-forwarded-for': newClient() }));
    }
    expect(new Set(spread)).toEqual(new Set([401]));
  });
});

describe('client buckets', () => {
  it('are IPv4 addresses as they are, IPv4-mapped IPv6 as IPv4, other IPv6 addresses by their /64', () => {
    expect(clientBucket('198.51.100.7')).toBe('198.51.100.7');
    expect(clientBucket('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(clientBucket('2001:db8:7:1::1')).toBe('2001:db8:7:1::/64');
    expect(clientBucket('2001:0DB8:0007:0001:ffff:0:0:1')).toBe('2001:db8:7:1::/64');
    expect(clientBucket('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientBucket('::1')).toBe('0:0:0:0::/64');
    expect(clientBucket('2001:db8:7:2::1')).not.toBe(clientBucket('2001:db8:7:1::1'));
    expect(clientBucket('64:ff9b::198.51.100.7')).toBe('64:ff9b:0:0::/64');
  });
});

async function completedFile(service: RunningService, api: Api): Promise<string> {
  const queued = await api.upload('email\nalice@deliverable.test\n');
  expect(queued.status).toBe(200);
  const done = await api.waitForFile(queued.body.data.file_id);
  expect(done.status).toBe('completed');
  expect(done.download_url.startsWith(`${service.baseUrl}/downloads/`)).toBe(true);
  return done.download_url;
}

describe('downloads', () => {
  it('are limited per address, not per x-api-key value the client makes up', async () => {
    const api = await apiWithNewKey(proxied, 10);
    const url = await completedFile(proxied, api);
    const client = newClient();
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 5; i++) {
      const response = await fetch(url, {
        headers: { 'x-forwarded-for': client, [API_KEY_HEADER]: `vm_made_up_${i}` },
      });
      await response.arrayBuffer();
      statuses.push(response.status);
    }
    expect(statuses.slice(0, LIMIT)).toEqual(Array(LIMIT).fill(200));
    expect(statuses.slice(LIMIT)).toEqual(Array(5).fill(429));
  });

  it('die with their key when it is revoked', async () => {
    const api = await apiWithNewKey(proxied, 10);
    const url = await completedFile(proxied, api);
    const headers = { 'x-forwarded-for': newClient() };
    expect((await fetch(url, { headers })).status).toBe(200);
    await proxied.admin(['revoke-key', api.apiKey ?? '']);
    expect((await fetch(url, { headers })).status).toBe(403);
  });

  it('leave neither their signature nor any API key in the logs', async () => {
    const api = await apiWithNewKey(proxied, 10);
    const url = await completedFile(proxied, api);
    expect((await fetch(url, { headers: { 'x-forwarded-for': newClient() } })).status).toBe(200);
    const signature = new URL(url).searchParams.get('signature') ?? '';
    expect(signature.length).toBeGreaterThan(10);
    await waitFor(() =>
      proxied.output().includes(`/downloads/${new URL(url).pathname.slice(11)}`) ? true : null,
    );
    expect(proxied.output()).not.toContain(signature);
    expect(proxied.output()).not.toContain(api.apiKey ?? '');
    expect(proxied.output()).not.toContain(proxied.apiKey);
  });
});

interface Started {
  response: Promise<number>;
  abort(): void;
}

/**
 * A multipart upload that announces 20 MB and sends the first 64 KB only, then waits: an answer
 * can only come before the body is read.
 */
function partialUpload(service: RunningService, key: string, client: string): Started {
  const boundary = `----verimark${Math.random().toString(16).slice(2)}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\nContent-Type: text/csv\r\n\r\nemail\r\n`;
  const request = http.request(`${service.baseUrl}${PATHS.bulk}`, {
    method: 'POST',
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(20 * 1024 * 1024),
      'x-forwarded-for': client,
      [API_KEY_HEADER]: key,
    },
  });
  request.on('error', () => {});
  request.write(head + 'someone@deliverable.test\r\n'.repeat(2600));
  const response = new Promise<number>((resolve) => {
    request.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
  });
  return { response, abort: () => request.destroy() };
}

describe('uploads', () => {
  it('from a key without credit are refused (402) before their body is read', async () => {
    const broke = await apiWithNewKey(proxied, 0);
    const upload = partialUpload(proxied, broke.apiKey ?? '', newClient());
    expect(await upload.response).toBe(402);
    upload.abort();
  });

  it('are capped at two at once per key (429), the next one taken once one ends', async () => {
    const api = await apiWithNewKey(proxied, 10);
    const client = newClient();
    const first = partialUpload(proxied, api.apiKey ?? '', client);
    const second = partialUpload(proxied, api.apiKey ?? '', client);
    // Both are being read: the server has not answered them.
    await new Promise((r) => setTimeout(r, 300));
    const third = partialUpload(proxied, api.apiKey ?? '', client);
    expect(await third.response).toBe(429);
    third.abort();
    first.abort();
    second.abort();
    const reply = await waitFor(async () => {
      const r = await api.upload('email\nbob@deliverable.test\n');
      return r.status === 429 ? null : r;
    }, 10_000);
    expect(reply.status).toBe(200);
    expect(reply.body.data.file_id).toMatch(/^[0-9a-f]{24}$/);
  });
});
