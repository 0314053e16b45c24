/**
 * The scheduler against the simulated provider world (server/testing/providers/), through the
 * real service over HTTP (issue 31; docs/design.md §4 "The scheduler"):
 *
 * - a dead destination costs one wait: 40 checks at a tarpit domain are all answered within
 *   90 s with the production timeouts, and another key's checks meanwhile within seconds;
 * - a wildcard domain whose names all point at one address gets that address's slots only;
 * - a connection-limited host (Exim, 2 connections per client) is met with no more than it
 *   takes, and a bulk file at it ends decided, never "greylisted";
 * - a greylisted bulk file is deferred, survives a restart of the service, and completes
 *   decided after the window;
 * - a single check that met greylisting is verified again by the service after the window,
 *   so the next check of it is answered from what that revisit found.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_KEY_HEADER, PATHS, type SingleResult } from '@verimark/contract';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, apiWithNewKey, waitFor } from '../testing/api';
import { usePostgres } from '../testing/postgres-suite';
import { useProviderWorldService } from '../testing/providers/use-world';
import { type ProviderWorld, providerWorldEnv, startProviderWorld } from '../testing/providers/world';
import { type RunningService, type RunningWorker, startService, startWorker } from '../testing/service';

/** Results of a finished file, by email. */
async function fileResults(api: Api, id: string): Promise<Map<string, Record<string, string>>> {
  const status = await api.waitForFile(id, 120_000);
  expect(status.status).toBe('completed');
  const url = status.download_url ?? '';
  const csv = await (await fetch(url)).text();
  const rows = Papa.parse<Record<string, string>>(csv, { header: true, skipEmptyLines: true }).data;
  return new Map(rows.map((r) => [r.Email ?? '', r]));
}

describe('a dead destination and a wildcard domain', () => {
  // The production timeouts: SMTP_TIMEOUT_MS 10 s, VERIFY_DEADLINE_MS 60 s.
  const suite = useProviderWorldService({
    env: { SMTP_TIMEOUT_MS: '10000', VERIFY_DEADLINE_MS: '60000' },
  });

  it('answers 40 checks at a tarpit domain within 90 s, and another key at once meanwhile', async () => {
    const { world } = suite;
    const slowKey = await suite.newKey(100);
    const otherKey = await suite.newKey(10);
    const asked = Date.now();
    const tarpit = Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const r = (await slowKey.verifyNow(
          `t${i}@${world.tarpitDomain}`,
          'non_catch_all',
          95_000,
        )) as SingleResult;
        return { r, at: Date.now() - asked };
      }),
    );
    // Once the tarpit holds its connections, another key's checks go on as usual.
    await new Promise((r) => setTimeout(r, 1000));
    const started = Date.now();
    const others = await Promise.all(
      ['ok1', 'ok2', 'ok3'].map((l) => otherKey.verifyNow(`${l}@${world.fastDomain}`, 'non_catch_all')),
    );
    const othersMs = Date.now() - started;
    expect(others.map((r) => (r as SingleResult).status)).toEqual([
      'deliverable',
      'deliverable',
      'deliverable',
    ]);
    expect(othersMs).toBeLessThan(5_000);

    const answers = await tarpit;
    const latest = Math.max(...answers.map((a) => a.at));
    expect(answers.map((a) => a.r.status)).toEqual(answers.map(() => 'unknown'));
    expect(new Set(answers.map((a) => a.r.reason))).toEqual(new Set(['smtp_timeout']));
    expect(answers.every((a) => a.r.credits_refunded === 1)).toBe(true);
    expect(latest).toBeLessThan(90_000);
    // One wait, not forty: few connections were ever opened to the tarpit's hosts.
    const opened = world.connections('mx1.tarpit.test').length + world.connections('mx2.tarpit.test').length;
    expect(opened).toBeLessThanOrEqual(8);
  }, 120_000);

  it('stops probing a file the moment it is deleted: no row is asked for after its refund', async () => {
    const { world } = suite;
    const key = await suite.newKey(100);
    // The slow host answers RCPT after 5 s: the file is far from done when it is deleted.
    const emails = Array.from({ length: 30 }, (_, i) => `okdel${i}@${world.slowDomain}`);
    const upload = await key.upload(['Email', ...emails].join('\n'), { mode: 'non_catch_all' });
    const id = upload.body.data.file_id;
    const asked = () =>
      world.connections('mx.slow.test').flatMap((c) => c.rcpts.filter((r) => r.startsWith('okdel')));
    await waitFor(() => asked().length > 0 || null, 20_000, 50);
    const response = await fetch(`${key.baseUrl}${PATHS.bulkFile.replace('{file_id}', id)}`, {
      method: 'DELETE',
      headers: { [API_KEY_HEADER]: key.apiKey ?? '' },
    });
    expect(response.status).toBe(200);
    const atDelete = asked().length;
    expect(atDelete).toBeLessThan(emails.length);
    expect(await suite.balance(key)).toBe(100);
    await new Promise((r) => setTimeout(r, 6_000));
    expect(asked().length).toBe(atDelete);
  }, 60_000);

  it('gives a wildcard domain one set of slots for all its names', async () => {
    const { world } = suite;
    const key = await suite.newKey(100);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        key.verifyNow(`x@${world.silentWildcard(i + 1)}`, 'non_catch_all', 90_000),
      ),
    );
    expect(results.map((r) => (r as SingleResult).status)).toEqual(results.map(() => 'unknown'));
    // Twelve names, one silent address: at most its window (2) open at once, not 12 × 8.
    expect(world.maxOpen('silent.evil.test')).toBeLessThanOrEqual(2);
  }, 120_000);
});

describe('a connection-limited host (Exim, 2 connections per client)', () => {
  const suite = useProviderWorldService({
    slowRcptMs: 300,
    limitedConnections: 2,
    env: { RETRY_BACKOFF_MS: '1000', GREYLIST_RETRY_MS: '500' },
  });

  it('decides a bulk file at it without ever calling a refusal greylisting', async () => {
    const { world } = suite;
    const key = await suite.newKey(100);
    const emails = Array.from(
      { length: 16 },
      (_, i) => `${i % 4 === 0 ? 'nobody' : 'ok'}${i}@${world.limitedWildcard(i + 1)}`,
    );
    const upload = await key.upload(['Email', ...emails].join('\n'), { mode: 'non_catch_all' });
    expect(upload.status).toBe(200);
    const results = await fileResults(key, upload.body.data.file_id);
    for (const email of emails) {
      const row = results.get(email);
      expect(row?.verification_reason, email).not.toBe('greylisted');
      expect(row?.verification_status, email).toBe(email.startsWith('ok') ? 'deliverable' : 'undeliverable');
    }
    // The window starts at 2 and, refused, shrinks: never more than one over the limit at once.
    expect(world.maxOpen('limited.evil.test')).toBeLessThanOrEqual(3);
  }, 150_000);
});

describe('greylisting', () => {
  const WINDOW_MS = 3000;
  let world: ProviderWorld;
  let dataDir: string;
  const services: RunningService[] = [];
  const env = () => ({
    ...providerWorldEnv(world),
    GREYLIST_WINDOW_MS: String(WINDOW_MS + 500),
    GREYLIST_RETRY_MS: '300',
    WORKER_POLL_MS: '100',
  });

  beforeAll(async () => {
    world = await startProviderWorld({ greylistWindowMs: WINDOW_MS });
    dataDir = await mkdtemp(join(tmpdir(), 'verimark-greylist-'));
  });
  afterAll(async () => {
    for (const s of services.reverse()) await s.stop();
    await world?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('defers a greylisted bulk file, keeps it through a restart and completes it decided', async () => {
    const first = await startService({ env: env(), dataDir });
    services.push(first);
    const key = await apiWithNewKey(first, 100);
    const emails = ['alice', 'bob', 'carol', 'ghost1', 'ghost2'].map((l) => `${l}@postgrey-site.test`);
    const upload = await key.upload(['Email', ...emails].join('\n'), { mode: 'non_catch_all' });
    const id = upload.body.data.file_id;
    // Every row met greylisting once: the batch is in the deferred queue now.
    await waitFor(async () => emails.every((e) => world.connectionsFor(e).length >= 1) || null, 20_000, 50);
    await new Promise((r) => setTimeout(r, 1000));
    expect((await key.fileRecord(id))?.state).not.toBe('completed');
    await first.kill();

    const second = await startService({ env: env(), dataDir });
    services.push(second);
    const again = new Api(second.baseUrl, key.apiKey);
    const results = await fileResults(again, id);
    expect(emails.map((e) => results.get(e)?.verification_status)).toEqual([
      'deliverable',
      'deliverable',
      'deliverable',
      'undeliverable',
      'undeliverable',
    ]);
    const record = await again.fileRecord(id);
    expect(record?.meta_data).toMatchObject({ deliverable: 3, undeliverable: 2, unknown: 0 });
    expect(record?.options.credit_refund).toBe(0);
  }, 150_000);

  it('revisits a greylisted single check after the window: the next check is answered from it', async () => {
    world.reset();
    const service = await startService({
      env: env(),
      dataDir: await mkdtemp(join(tmpdir(), 'verimark-revisit-')),
    });
    services.push(service);
    const key = await apiWithNewKey(service, 10);
    const email = 'carol@postgrey-site.test';
    const first = (await key.verifyNow(email, 'non_catch_all')) as SingleResult;
    expect(first).toMatchObject({ status: 'unknown', reason: 'greylisted', credits_refunded: 1 });
    const before = world.connectionsFor(email).length;
    // The service tries it again by itself once the window has passed.
    await waitFor(async () => world.connectionsFor(email).length > before || null, 20_000, 100);
    await new Promise((r) => setTimeout(r, 500));
    const after = world.connectionsFor(email).length;
    const second = (await key.verifyNow(email, 'non_catch_all')) as SingleResult;
    expect(second).toMatchObject({ status: 'deliverable', reason: 'accepted_email' });
    // Answered from what the revisit found: no further conversation about it.
    expect(world.connectionsFor(email).length).toBe(after);
  }, 60_000);
});

describe('a file deleted through an HTTP-only service while a worker process verifies it (Postgres)', () => {
  const pg = usePostgres();
  let world: ProviderWorld;
  let service: RunningService;
  let worker: RunningWorker;

  beforeAll(async () => {
    world = await startProviderWorld({});
    const env = { ...providerWorldEnv(world), DATABASE_URL: pg.url() };
    service = await startService({ env: { ...env, RUN_WORKER: '0' }, databaseUrl: pg.url() });
    worker = await startWorker({ env });
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    await service?.stop();
    await world?.stop();
  });

  it("stops the worker's probes of it within a second or two", async () => {
    const key = await apiWithNewKey(service, 100);
    const emails = Array.from({ length: 30 }, (_, i) => `okpg${i}@${world.slowDomain}`);
    const upload = await key.upload(['Email', ...emails].join('\n'), { mode: 'non_catch_all' });
    const id = upload.body.data.file_id;
    const asked = () =>
      world.connections('mx.slow.test').flatMap((c) => c.rcpts.filter((r) => r.startsWith('okpg')));
    await waitFor(() => asked().length > 0 || null, 30_000, 50);
    const response = await fetch(`${key.baseUrl}${PATHS.bulkFile.replace('{file_id}', id)}`, {
      method: 'DELETE',
      headers: { [API_KEY_HEADER]: key.apiKey ?? '' },
    });
    expect(response.status).toBe(200);
    // The worker notices at its next lease renewal (at least every second).
    await new Promise((r) => setTimeout(r, 2_000));
    const settled = asked().length;
    await new Promise((r) => setTimeout(r, 6_000));
    expect(asked().length).toBe(settled);
    expect(settled).toBeLessThan(emails.length);
    // Its connections were cut, not left to finish their slow answers.
    const open = world
      .connections('mx.slow.test')
      .filter((c) => c.rcpts.some((r) => r.startsWith('okpg')) && c.closedAt === null);
    expect(open).toEqual([]);
  }, 90_000);
});
