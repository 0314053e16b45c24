/**
 * `npm run service` (server/main.ts) as a process: no key made on an empty database (the first
 * comes from the admin command), a refused configuration stops it at start, JSON logs, a clean
 * stop on SIGTERM; the same on Postgres.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PATHS } from '@verimark/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { Api, waitFor } from './testing/api';
import { type FakeNet, startFakeNet } from './testing/fake-net';
import { usePostgres } from './testing/postgres-suite';
import { type RunningService, startService } from './testing/service';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
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
  it('makes no key on an empty database, says how to make one, and stops cleanly on SIGTERM', async () => {
    net = await startFakeNet();
    dataDir = await mkdtemp(join(tmpdir(), 'verimark-main-'));
    const first = await startService({ fakeNet: net, dataDir });
    started.push(first);
    expect(first.output()).toContain(`Verimark service listening on ${first.baseUrl}`);
    await waitFor(() =>
      first.output().includes('No API key yet. Create one with the admin command') ? true : null,
    );
    expect(first.output()).not.toMatch(/vm_[\w-]{8,}/);
    // The only key is the one the test helper made with the admin command afterwards.
    const keys = (await first.admin(['list-keys'])).split('\n').filter((l) => /credits=/.test(l));
    expect(keys).toHaveLength(1);
    expect(keys[0]).toContain('label="test"');

    await first.stop();
    expect(first.exitCode()).toBe(0);

    // With a key in the database, no hint either.
    const second = await startService({ fakeNet: net, dataDir });
    started.push(second);
    expect(second.output()).not.toContain('No API key yet');
    expect(
      (await new Api(second.baseUrl, first.apiKey).get(`${PATHS.bulkFiles}?page=1&pageSize=1`)).status,
    ).toBe(200);
  }, 90_000);

  it('refuses TRUST_PROXY=true at start, saying what to write instead', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', DATA_DIR: dataDir, TRUST_PROXY: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d));
    child.stderr.on('data', (d: Buffer) => (output += d));
    const code = await new Promise<number | null>((done) => child.once('exit', done));
    expect(code).toBe(2);
    expect(output).toMatch(/^Configuration error: TRUST_PROXY=true is refused/m);
    expect(output).toContain("write the reverse proxy's own addresses instead: TRUST_PROXY=127.0.0.1");
    expect(output).not.toContain('listening');
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
  it('makes no key on an empty Postgres database', async () => {
    net ??= await startFakeNet();
    const service = await startService({ fakeNet: net, databaseUrl: pg.url() });
    started.push(service);
    expect(service.output()).toContain('No API key yet. Create one with the admin command');
    // The only key is the one the test helper made afterwards.
    const keys = (await service.admin(['list-keys']))
      .trim()
      .split('\n')
      .filter((l) => /credits=/.test(l));
    expect(keys).toHaveLength(1);
  });
});
