/**
 * buildApp in-process with the real engine and workers, and loadConfig's defaults and refusals.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { openSqliteStore } from '../store/sqlite/store';
import { Api } from '../testing/api';
import { FAKE_DOMAINS as D, type FakeNet, fakeNetEnv, startFakeNet } from '../testing/fake-net';
import { buildApp } from './app';

let net: FakeNet;
let dir: string;
let app: FastifyInstance;
let api: Api;

beforeAll(async () => {
  net = await startFakeNet();
  dir = await mkdtemp(join(tmpdir(), 'verimark-app-'));
  const config = loadConfig({ ...fakeNetEnv(net), DATA_DIR: dir, PORT: '0' });
  const store = openSqliteStore(dir, 8);
  const key = (await store.keys.create({ credits: 10 })).key;
  await store.close();
  app = await buildApp(config, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  api = new Api(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, key);
});
afterAll(async () => {
  await app?.close();
  await net?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('buildApp in-process', () => {
  it('serves the API with the real engine and workers', async () => {
    expect(await api.verifyNow(`alice@${D.deliverable}`)).toMatchObject({ status: 'deliverable' });
    const upload = await api.upload(`Email\nbob@${D.deliverable}\n`);
    expect((await api.waitForFile(upload.body.data.file_id)).status).toBe('completed');
  });
});

describe('loadConfig', () => {
  it('reads the documented environment with its defaults', () => {
    const defaults = loadConfig({});
    expect(defaults).toMatchObject({
      port: 8787,
      host: '127.0.0.1',
      publicBaseUrl: null,
      signingSecret: null,
      rateLimitPerMin: 600,
      engine: { dnsServers: [], smtpPort: 25, allowPrivateMx: false },
    });
    expect(defaults.dataDir.endsWith('.data')).toBe(true);
    const set = loadConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      DATA_DIR: '/srv/verimark',
      PUBLIC_BASE_URL: 'https://v.example/',
      SIGNING_SECRET: 's3cret',
      DNS_SERVERS: '127.0.0.1:5353, 10.0.0.1:53',
      SMTP_PORT: '2525',
      SMTP_HELO: 'probe.example',
      SMTP_FROM: 'check@probe.example',
      SMTP_TIMEOUT_MS: '4000',
      GREYLIST_RETRY_MS: '100',
      ALLOW_PRIVATE_MX: 'true',
      RATE_LIMIT_PER_MIN: '30',
    });
    expect(set).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      dataDir: '/srv/verimark',
      publicBaseUrl: 'https://v.example',
      signingSecret: 's3cret',
      rateLimitPerMin: 30,
      engine: {
        dnsServers: ['127.0.0.1:5353', '10.0.0.1:53'],
        smtpPort: 2525,
        heloName: 'probe.example',
        mailFrom: 'check@probe.example',
        smtpTimeoutMs: 4000,
        greylistRetryMs: 100,
        allowPrivateMx: true,
      },
    });
  });

  it('refuses malformed values', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ RATE_LIMIT_PER_MIN: '0' })).toThrow(/RATE_LIMIT_PER_MIN/);
    expect(() => loadConfig({ PUBLIC_BASE_URL: 'not a url' })).toThrow(/PUBLIC_BASE_URL/);
  });
});
