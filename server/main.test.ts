/**
 * `npm run service` as a process: what it prints at start, structured JSON logs, a clean stop
 * on SIGTERM, and no demo key with DATABASE_URL.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PATHS } from '@verimark/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { Api, waitFor } from './testing/api';
import { type FakeNet, startFakeNet } from './testing/fake-net';
import { usePostgres } from './testing/postgres-suite';
import { type RunningService, startService } from './testing/service';

let net: FakeNet;
const pg = usePostgres();
let dataDir = '';
const started: RunningService[] = [];

afterAll(async () => {
  for (const s of started.reverse()) await s.stop();
  await net?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('npm run service', () => {
  it('prints a working demo key on an empty database, only then, and stops cleanly on SIGTERM', async () => {
    net = await startFakeNet();
    dataDir = await mkdtemp(join(tmpdir(), 'verimark-main-'));
    const first = await startService({ fakeNet: net, dataDir });
    started.push(first);
    const demo = /Demo API key: (vm_[\w-]+)/.exec(first.output())?.[1];
    expect(demo).toBeDefined();
    expect(first.output()).toContain(`Verimark service listening on ${first.baseUrl}`);
    const reply = await new Api(first.baseUrl, demo ?? '').get(`${PATHS.bulkFiles}?page=1&pageSize=1`);
    expect(reply.status).toBe(200);

    await first.stop();
    expect(first.exitCode()).toBe(0);

    const second = await startService({ fakeNet: net, dataDir });
    started.push(second);
    expect(second.output()).not.toContain('Demo API key');
    expect(
      (await new Api(second.baseUrl, demo ?? '').get(`${PATHS.bulkFiles}?page=1&pageSize=1`)).status,
    ).toBe(200);
  });

  it('writes structured JSON logs', async () => {
    const service = await startService({ fakeNet: net, env: { LOG_LEVEL: 'info' } });
    started.push(service);
    await new Api(service.baseUrl, service.apiKey).get(`${PATHS.bulkFiles}?page=1&pageSize=1`);
    const entries = await waitFor(async () => {
      const json = service
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { level: number; msg: string; res?: { statusCode: number } });
      return json.some((e) => e.msg === 'request completed') ? json : null;
    });
    expect(entries.find((e) => e.msg === 'request completed')?.res?.statusCode).toBe(200);
    expect(service.output()).not.toContain(service.apiKey);
  });
});

describe('npm run service with DATABASE_URL', () => {
  it('makes no demo key on an empty Postgres database', async () => {
    net ??= await startFakeNet();
    const service = await startService({ fakeNet: net, databaseUrl: pg.url() });
    started.push(service);
    expect(service.output()).not.toContain('Demo API key');
    expect(service.output()).toContain('Create an API key with');
    // The only key is the one the test helper made afterwards.
    const keys = (await service.admin(['list-keys']))
      .trim()
      .split('\n')
      .filter((l) => /credits=/.test(l));
    expect(keys).toHaveLength(1);
  });
});
