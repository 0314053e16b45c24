/**
 * The service behind the nginx configuration of docs/self-hosting.md ("Behind a reverse proxy"),
 * taken from the page (server/testing/doc-blocks.ts) with its ports and certificate paths put in:
 * Debian's nginx on 127.0.0.1 with a certificate made here, in front of the real service with
 * TRUST_PROXY=127.0.0.1 and PUBLIC_BASE_URL at the proxy. Clients connect from other loopback
 * addresses (127.0.0.2, …) so that their address differs from the proxy's.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_KEY_HEADER, MAX_UPLOAD_BYTES, PATHS } from '@verimark/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOOR_LIMIT_PER_MIN } from './app/door-limit';
import { waitFor } from './testing/api';
import { docBlock, substitute } from './testing/doc-blocks';
import { FAKE_DOMAINS } from './testing/fake-net-zone';
import { freePort } from './testing/free-port';
import { provisionPackage, type RunningNginx, startNginx } from './testing/nginx';
import { type RunningService, startService } from './testing/service';

let dir = '';
let proxyPort = 0;
let ca: Buffer;
let service: RunningService;
let nginx: RunningNginx;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One HTTPS request to the proxy (or a download URL), from the loopback address `from`. */
function request(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: Buffer | string; from?: string } = {},
): Promise<Answer> {
  return new Promise((done, fail) => {
    // A path is sent exactly as written (`//metrics` too), a full URL to its host.
    const target = url.startsWith('https://') ? new URL(url) : null;
    const req = https.request(
      {
        host: target?.hostname ?? '127.0.0.1',
        port: target?.port ?? proxyPort,
        path: target ? `${target.pathname}${target.search}` : url,
        method: opts.method ?? 'GET',
        headers: opts.headers,
        ca,
        localAddress: opts.from ?? '127.0.0.2',
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', fail);
      },
    );
    req.on('error', fail);
    req.end(opts.body);
  });
}

const json = (answer: Answer) => JSON.parse(answer.body.toString('utf8'));

/** A CSV of exactly `size` bytes: a header, one address, then 512 KiB padding cells on rows of their own. */
function csvOfSize(size: number): Buffer {
  const head = `Email,Pad\nalice@${FAKE_DOMAINS.deliverable},`;
  const pad = Buffer.alloc(size - head.length, 0x78);
  for (let i = 512 * 1024; i + 1 < pad.length; i += 512 * 1024) pad.set([0x0a, 0x2c], i);
  return Buffer.concat([Buffer.from(head), pad]);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verimark-proxy-'));
  proxyPort = await freePort();
  service = await startService({
    env: { TRUST_PROXY: '127.0.0.1', PUBLIC_BASE_URL: `https://127.0.0.1:${proxyPort}`, LOG_LEVEL: 'info' },
  });
  const servicePort = new URL(service.baseUrl).port;
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  // A certificate for the address clients use (its SAN), made for this run.
  const withSan = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { encoding: 'utf8' },
  );
  if (withSan.status !== 0) throw new Error(`openssl failed: ${withSan.stderr}`);
  ca = readFileSync(cert);
  const server = substitute(docBlock('nginx'), {
    'listen 443 ssl;': `listen 127.0.0.1:${proxyPort} ssl;`,
    'listen [::]:443 ssl;': `listen [::1]:${proxyPort} ssl;`,
    '/etc/letsencrypt/live/verify.example.com/fullchain.pem': cert,
    '/etc/letsencrypt/live/verify.example.com/privkey.pem': key,
    '127.0.0.1:8787': `127.0.0.1:${servicePort}`,
  });
  nginx = await startNginx({ dir, server, port: proxyPort });
}, 120_000);

afterAll(async () => {
  await nginx?.stop();
  await service?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the service behind the nginx configuration of docs/self-hosting.md', () => {
  it('takes a 25 MB upload, and its download link, built from PUBLIC_BASE_URL, works through the proxy', async () => {
    const boundary = '----verimark-proxy-test';
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\nContent-Type: text/csv\r\n\r\n`,
      ),
      csvOfSize(MAX_UPLOAD_BYTES),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    expect(body.length).toBeGreaterThan(MAX_UPLOAD_BYTES);
    const key = { [API_KEY_HEADER]: service.apiKey };
    const uploaded = await request(PATHS.bulk, {
      method: 'POST',
      headers: { ...key, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    });
    expect(uploaded.status, uploaded.body.toString('utf8').slice(0, 500)).toBe(200);
    const fileId = json(uploaded).data.file_id as string;
    const done = await waitFor(async () => {
      const status = await request(PATHS.bulkStatus, {
        method: 'POST',
        headers: { ...key, 'content-type': 'application/json' },
        body: JSON.stringify({ file_id: fileId }),
      });
      const data = json(status).data as { status: string; download_url: string };
      return data.status === 'completed' || data.status === 'failed' ? data : null;
    }, 120_000);
    expect(done.status).toBe('completed');
    expect(done.download_url.startsWith(`https://127.0.0.1:${proxyPort}/downloads/`)).toBe(true);
    const csv = await request(done.download_url);
    expect(csv.status).toBe(200);
    expect(csv.body.length).toBeGreaterThan(MAX_UPLOAD_BYTES);
    // The address's row: its 512 KiB pad cell, then the verdict (compared by its ends only).
    const row = csv.body.toString('utf8').split(/\r?\n/)[1] ?? '';
    expect(row.slice(0, 24)).toBe('alice@deliverable.test,x');
    expect(row.slice(-300).replace(/^x+/, '')).toMatch(/^,deliverable,/);
  });

  it("passes the client's own address to the service, never a forged X-Forwarded-For", async () => {
    const forged = '203.0.113.77';
    const answer = await request('/healthz', { from: '127.0.0.2', headers: { 'x-forwarded-for': forged } });
    expect(answer.status).toBe(200);
    const entries = await waitFor(() => {
      const found = service
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{') && l.includes('/healthz'))
        .map((l) => JSON.parse(l) as { req?: { remoteAddress?: string } })
        .filter((e) => e.req?.remoteAddress);
      return found.length > 0 ? found : null;
    });
    expect(entries.map((e) => e.req?.remoteAddress)).toContain('127.0.0.2');
    expect(service.output()).not.toContain(forged);

    // The limit before the door counts the real client: a new forged address per request does
    // not escape it, and another client is not shut out with it.
    const statuses: number[] = [];
    for (let i = 0; i < DOOR_LIMIT_PER_MIN + 2; i++) {
      const headers = { [API_KEY_HEADER]: `vm_guess${i}`, 'x-forwarded-for': `198.51.100.${i + 1}` };
      statuses.push((await request(PATHS.account, { from: '127.0.0.3', headers })).status);
    }
    expect(statuses.slice(0, DOOR_LIMIT_PER_MIN)).toEqual(Array(DOOR_LIMIT_PER_MIN).fill(401));
    expect(statuses.slice(DOOR_LIMIT_PER_MIN)).toEqual([429, 429]);
    const other = await request(PATHS.account, {
      from: '127.0.0.4',
      headers: { [API_KEY_HEADER]: 'vm_guess' },
    });
    expect(other.status).toBe(401);
  });

  it('does not serve /metrics to the outside (the service itself does, inside)', async () => {
    for (const path of [
      '/metrics',
      '/metrics?name=x',
      '//metrics',
      '/%6Detrics',
      '/./metrics',
      '/downloads/../metrics',
    ]) {
      const answer = await request(path);
      expect(answer.status, path).toBe(404);
      expect(answer.body.toString('utf8'), path).not.toContain('verimark_');
    }
    const inside = await fetch(`${service.baseUrl}/metrics`);
    expect(inside.status).toBe(200);
    expect(await inside.text()).toContain('verimark_');
  });
});

describe('the Caddy configuration of docs/self-hosting.md', () => {
  it("is valid Caddyfile for Debian's caddy, with room for a 25 MB upload, /metrics answered 404 and the service as upstream", () => {
    const caddy = provisionPackage('caddy', '/usr/bin/caddy');
    const file = join(dir, 'Caddyfile');
    writeFileSync(file, `${docBlock('caddy')}\n`);
    const adapted = spawnSync(caddy, ['adapt', '--config', file, '--adapter', 'caddyfile'], {
      encoding: 'utf8',
    });
    expect(adapted.status, adapted.stderr).toBe(0);
    // No warning either (an unneeded directive, a deprecated one).
    expect(adapted.stderr).not.toMatch(/"level":"warn"/);
    const json = adapted.stdout;
    const maxSize = Number(/"max_size":(\d+)/.exec(json)?.[1]);
    expect(maxSize).toBeGreaterThan(MAX_UPLOAD_BYTES + 64 * 1024);
    expect(json).toContain(
      '{"handler":"static_response","status_code":404}],"match":[{"path_regexp":{"pattern":"^/+metrics"}}]',
    );
    expect(json).toContain('"upstreams":[{"dial":"127.0.0.1:8787"}]');
    expect(json).toContain('"read_timeout":300000000000');
  });
});
