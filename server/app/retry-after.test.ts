/**
 * Every 429 the service sends carries `Retry-After` (docs/design.md §3 "Errors"), against the real
 * service over HTTP: the per-key rate limit, the per-address limit of requests without a key
 * (downloads), the limit before the door (bad keys), and the per-key cap on uploads streaming at
 * once. A scan of the service's sources finds every place that answers 429, so a new one cannot
 * appear without a case here.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_KEY_HEADER, ERRORS, PATHS } from '@verimark/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiWithNewKey } from '../testing/api';
import { type FakeNet, startFakeNet } from '../testing/fake-net';
import { type RunningService, startService } from '../testing/service';
import { UPLOAD_RETRY_AFTER_S, UPLOADS_PER_KEY } from './bulk-upload';
import { DOOR_LIMIT_PER_MIN } from './door-limit';

const SERVER = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** RATE_LIMIT_PER_MIN: room for a file's upload and status polls, few enough to reach quickly. */
const LIMIT = 40;
let net: FakeNet;
let service: RunningService;
let clients = 0;
/** A client address of its own for each request series (the service trusts 127.0.0.1 to say it). */
const newClient = () => `198.51.100.${++clients}`;

beforeAll(async () => {
  net = await startFakeNet();
  service = await startService({
    fakeNet: net,
    env: { RATE_LIMIT_PER_MIN: String(LIMIT), TRUST_PROXY: '127.0.0.1' },
  });
}, 60_000);
afterAll(async () => {
  await service?.stop();
  await net?.stop();
});

/** The first 429 of up to `tries` calls of `request`, with its body and headers. */
async function first429(tries: number, request: () => Promise<Response>): Promise<Response> {
  for (let i = 0; i < tries; i++) {
    const response = await request();
    if (response.status === 429) return response;
    await response.arrayBuffer();
  }
  throw new Error(`no 429 in ${tries} requests`);
}

/** Retry-After as whole seconds ≥ 1 (RFC 9110 §10.2.3, the delay form), or NaN. */
function retryAfter(response: Response): number {
  const value = response.headers.get('retry-after') ?? '';
  return /^\d+$/.test(value) && Number(value) >= 1 ? Number(value) : Number.NaN;
}

async function expectLimited(response: Response, atMostS: number): Promise<void> {
  expect(await response.json()).toEqual({ error: 429, message: ERRORS.rateLimited });
  expect(retryAfter(response)).toBeGreaterThanOrEqual(1);
  expect(retryAfter(response)).toBeLessThanOrEqual(atMostS);
  // A browser client may read it (CORS).
  expect(response.headers.get('access-control-expose-headers')).toMatch(/retry-after/i);
}

describe('Retry-After on every 429', () => {
  it('the per-key rate limit', async () => {
    const key = await apiWithNewKey(service, 10);
    const headers = { [API_KEY_HEADER]: key.apiKey ?? '', 'x-forwarded-for': newClient() };
    const limited = await first429(LIMIT + 2, () =>
      fetch(`${service.baseUrl}${PATHS.bulkFiles}?page=1&pageSize=1`, { headers }),
    );
    await expectLimited(limited, 60);
  });

  it('the per-address limit of requests without a key (downloads)', async () => {
    const key = await apiWithNewKey(service, 10);
    const queued = await key.upload('email\nalice@deliverable.test\n');
    const done = await key.waitForFile(queued.body.data.file_id);
    const client = newClient();
    const limited = await first429(LIMIT + 2, () =>
      fetch(done.download_url, { headers: { 'x-forwarded-for': client } }),
    );
    await expectLimited(limited, 60);
  });

  it('the limit before the door (bad keys from one address)', async () => {
    const client = newClient();
    let guess = 0;
    const limited = await first429(DOOR_LIMIT_PER_MIN + 2, () =>
      fetch(service.baseUrl + PATHS.account, {
        headers: { 'x-forwarded-for': client, [API_KEY_HEADER]: `vm_guess${++guess}` },
      }),
    );
    expect(guess).toBe(DOOR_LIMIT_PER_MIN + 1);
    await expectLimited(limited, 60);
  });

  it('the cap on uploads one key streams at once', async () => {
    const key = (await apiWithNewKey(service, 10)).apiKey ?? '';
    const client = newClient();
    const streaming = Array.from({ length: UPLOADS_PER_KEY }, () => partialUpload(key, client));
    try {
      // Wait until the service is reading each (it has answered none of them).
      await new Promise((r) => setTimeout(r, 300));
      const refused = partialUpload(key, client);
      const response = await refused.response;
      refused.abort();
      expect(response.status).toBe(429);
      expect(JSON.parse(response.body)).toEqual({ error: 429, message: ERRORS.rateLimited });
      expect(response.retryAfter).toBe(String(UPLOAD_RETRY_AFTER_S));
    } finally {
      for (const upload of streaming) upload.abort();
    }
  });

  it('has no other place in the service that answers 429', () => {
    const sites = sourceFiles(SERVER)
      .filter((file) => !/\.test\.ts$/.test(file) && !file.includes('/testing/'))
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .filter((line) => /\b429\b/.test(line) && !/^\s*(\*|\/\/)/.test(line))
          .map(() => relative(SERVER, file)),
      );
    // Each is one of the cases above: the rate limiter's errors mapped to 429 (per key, per
    // address), the door limit, the upload cap; openapi-paths.ts only describes them.
    expect([...new Set(sites)].sort()).toEqual([
      'app/app.ts',
      'app/bulk-upload.ts',
      'app/door-limit.ts',
      'app/errors.ts',
      'app/openapi-paths.ts',
    ]);
  });
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return name.endsWith('.ts') ? [full] : [];
  });
}

interface Answer {
  status: number;
  body: string;
  retryAfter: string | undefined;
}

/**
 * A multipart upload that announces 20 MB and sends 64 KB, then waits: the service answers it
 * only when it refuses it before reading the body.
 */
function partialUpload(key: string, client: string): { response: Promise<Answer>; abort(): void } {
  const boundary = `----verimark${Math.random().toString(16).slice(2)}`;
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
  request.write(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\nContent-Type: text/csv\r\n\r\nemail\r\n${'someone@deliverable.test\r\n'.repeat(2600)}`,
  );
  const response = new Promise<Answer>((done) => {
    request.on('response', (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => {
        body += chunk.toString('utf8');
      });
      res.on('end', () =>
        done({ status: res.statusCode ?? 0, body, retryAfter: res.headers['retry-after'] }),
      );
    });
  });
  return { response, abort: () => request.destroy() };
}
