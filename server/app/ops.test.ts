/**
 * The endpoints beyond the contract (docs/design.md §3) over real HTTP against the real service
 * (server/main.ts as a child process, real DNS and SMTP servers on loopback).
 */
import { readFileSync } from 'node:fs';
import { API_KEY_HEADER, type Envelope, PATHS } from '@verimark/contract';
import { describe, expect, it } from 'vitest';
import { Api, useService, waitFor } from '../testing/api';
import { FAKE_DOMAINS as D } from '../testing/fake-net';
import { OPENAPI_FILE } from '../write-openapi';

const svc = useService();

interface AccountData {
  credits: number;
  expires_at: string | null;
  label: string;
}

/** The value of one sample line of a Prometheus text answer, or null when it is absent. */
function sample(text: string, name: string, labels: string): number | null {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}} `));
  return line ? Number(line.split(' ').at(-1)) : null;
}

async function scrape(): Promise<string> {
  const response = await fetch(`${svc.service.baseUrl}/metrics`);
  expect(response.status).toBe(200);
  return response.text();
}

describe('GET /account', () => {
  it("answers the key's balance, expiry and label in the envelope, and follows spending", async () => {
    const key = await svc.newKey(7, ['--label', 'Team <a>']);
    const first = await key.get<Envelope<AccountData>>(PATHS.account);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      message: { status: 'success', statusCode: 200, description: 'Account fetched successfully' },
      data: { credits: 7, expires_at: null, label: 'Team <a>' },
    });
    await key.verifyNow(`alice@${D.deliverable}`);
    expect((await key.get<Envelope<AccountData>>(PATHS.account)).body.data.credits).toBe(6);
  });

  it('answers 401 for a missing or unknown key', async () => {
    for (const key of [null, 'vm_not-a-key']) {
      const reply = await svc.api.withKey(key).get(PATHS.account);
      expect(reply.status).toBe(401);
      expect(reply.body).toEqual({ error: 401, message: 'Invalid API key' });
    }
  });

  it('answers an expired key with its account (never 402), while the verify endpoints refuse it', async () => {
    const expired = await svc.newKey(3, ['--expires', '2020-01-01T00:00:00Z']);
    const reply = await expired.get<Envelope<AccountData>>(PATHS.account);
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual({ credits: 3, expires_at: '2020-01-01T00:00:00.000Z', label: '' });
    expect((await expired.get(`${PATHS.bulkFiles}?page=1&pageSize=1`)).status).toBe(402);
  });
});

describe('GET /healthz', () => {
  it('answers ok without a key', async () => {
    const reply = await new Api(svc.service.baseUrl, null).get('/healthz');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ status: 'ok' });
  });
});

describe('GET /metrics', () => {
  it('counts requests by route and status, verifications by verdict and SMTP probes by outcome', async () => {
    const before = await scrape();
    const verdictsBefore = sample(before, 'verimark_verifications_total', 'verdict="undeliverable"') ?? 0;
    const refusedBefore = sample(before, 'verimark_smtp_probes_total', 'outcome="refused"') ?? 0;
    const unauthorized = 'method="GET",route="/account",status="401"';
    const unauthorizedBefore = sample(before, 'verimark_http_requests_total', unauthorized) ?? 0;
    await svc.api.verifyNow(`nobody@${D.rejecting}`);
    await svc.api.verifyNow(`x@${D.nonexistent}`);
    await svc.api.withKey('vm_wrong').get(PATHS.account);

    const after = await scrape();
    expect(sample(after, 'verimark_verifications_total', 'verdict="undeliverable"')).toBe(verdictsBefore + 2);
    // Only the rejecting domain got as far as SMTP: NXDOMAIN is decided by DNS.
    expect(sample(after, 'verimark_smtp_probes_total', 'outcome="refused"')).toBe(refusedBefore + 1);
    expect(
      sample(after, 'verimark_http_requests_total', 'method="POST",route="/verify/single",status="200"'),
    ).toBeGreaterThanOrEqual(2);
    expect(sample(after, 'verimark_http_requests_total', unauthorized)).toBe(unauthorizedBefore + 1);
    expect(after).toContain('# TYPE verimark_process_resident_memory_bytes gauge');
  });

  it('answers in the Prometheus text format without a key', async () => {
    const response = await fetch(`${svc.service.baseUrl}/metrics`);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(await response.text()).toMatch(/^# HELP verimark_/m);
  });

  it('reports the queue depth from the database while a file is processed, and back to 0 after', async () => {
    const lines = ['Email', ...Array.from({ length: 24 }, (_, i) => `t${i}@${D.tarpit}`)];
    const upload = await svc.api.upload(lines.join('\n'));
    expect(upload.status).toBe(200);
    const depth = () =>
      scrape().then((t) => sample(t, 'verimark_queue_depth', 'kind="file",state="processing"'));
    await waitFor(async () => ((await depth()) === 1 ? true : null), 20_000, 20);
    await svc.api.waitForFile(upload.body.data.file_id);
    expect(await depth()).toBe(0);
  });
});

describe('GET /openapi.json and /docs', () => {
  it('serves the committed OpenAPI document without a key', async () => {
    const reply = await new Api(svc.service.baseUrl, null).get('/openapi.json');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    expect(reply.body).toEqual(JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')));
  });

  it('serves a readable HTML page of every endpoint, with no scripts', async () => {
    const response = await fetch(`${svc.service.baseUrl}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await response.text();
    for (const op of ['POST /verify/single', 'GET /verify/bulk/files', 'GET /account', 'GET /healthz']) {
      expect(html).toContain(`<code>${op}</code>`);
    }
    expect(html).toContain(`<code>pageSize</code> (query, required): integer, minimum 1, maximum 100`);
    expect(html).toContain(`Needs the API key in the <code>${API_KEY_HEADER}</code> header.`);
    expect(html).toContain('No API key.');
    expect(html).not.toMatch(/<script|https?:\/\/(?!json-schema\.org)/i);
  });
});
