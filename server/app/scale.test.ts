/**
 * Several processes on one Postgres database, as a team runs it: one HTTP-only service
 * (RUN_WORKER=0) and `npm run service:worker` processes, each in its own working directory
 * and DATA_DIR (they share nothing but the database), against one SMTP peer that counts the
 * conversations open at once per MX host.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Api, apiWithNewKey, balanceOf, waitFor } from '../testing/api';
import { type FarmNet, startFarmNet } from '../testing/farm-net';
import { usePostgres } from '../testing/postgres-suite';
import { type RunningService, type RunningWorker, startService, startWorker } from '../testing/service';

const HOSTS = 6;
const PER_HOST = 8;
let net: FarmNet;
const pg = usePostgres();
const dirs: string[] = [];
let service: RunningService;
let workers: RunningWorker[] = [];

/** A new empty folder, for one process's cwd and DATA_DIR. */
async function ownDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'verimark-proc-'));
  dirs.push(dir);
  return dir;
}

/** Short leases and polls: a killed worker's batches are taken again within seconds. */
const TUNING = { WORKER_LEASE_MS: '1500', WORKER_POLL_MS: '100' };

async function newWorker(): Promise<RunningWorker> {
  const dir = await ownDir();
  return startWorker({ env: { ...net.env(), ...TUNING, DATABASE_URL: pg.url(), DATA_DIR: dir }, cwd: dir });
}

beforeAll(async () => {
  net = await startFarmNet(HOSTS, 120);
  const dir = await ownDir();
  service = await startService({
    databaseUrl: pg.url(),
    dataDir: dir,
    cwd: dir,
    env: { ...net.env(), ...TUNING, RUN_WORKER: '0' },
  });
}, 120_000);
afterEach(async () => {
  await Promise.all(workers.map((w) => w.stop()));
  workers = [];
});
afterAll(async () => {
  await service?.stop();
  await net?.stop();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

type Verdict = 'deliverable' | 'undeliverable' | 'unknown';
/** Row i: its address and its verdict. */
function row(i: number): [string, Verdict] {
  const domain = net.domain(i);
  if (i % 10 === 3) return [`bad${i}@${domain}`, 'undeliverable'];
  if (i % 10 === 7) return [`temp${i}@${domain}`, 'unknown'];
  return [`user${i}@${domain}`, 'deliverable'];
}

function csv(rows: number): { text: string; expected: Record<Verdict | 'risky', number> } {
  const lines = ['Id,Email'];
  const expected = { deliverable: 0, undeliverable: 0, unknown: 0, risky: 0 };
  for (let i = 0; i < rows; i++) {
    const [email, verdict] = row(i);
    lines.push(`${i},${email}`);
    expected[verdict]++;
  }
  return { text: lines.join('\n'), expected };
}

/** The downloaded results: every row once, in order, with its verdict. */
async function expectEveryRowOnce(api: Api, id: string, rows: number): Promise<void> {
  const status = await api.waitForFile(id, 120_000);
  expect(status.status).toBe('completed');
  const text = await (await fetch(status.download_url)).text();
  const data = Papa.parse<string[]>(text, { skipEmptyLines: true }).data;
  expect(data).toHaveLength(rows + 1);
  expect(data.slice(1).map((r) => Number(r[0]))).toEqual(Array.from({ length: rows }, (_, i) => i));
  expect(data.slice(1).map((r) => r[2])).toEqual(Array.from({ length: rows }, (_, i) => row(i)[1]));
}

describe('three worker processes on one Postgres database', () => {
  it('keep the per-MX-host limit together while using more than one host’s worth of capacity', async () => {
    workers = await Promise.all([newWorker(), newWorker(), newWorker()]);
    const key = await apiWithNewKey(service, 10_000);
    const ROWS = 1200;
    const { text, expected } = csv(ROWS);
    const upload = await key.upload(text, { mode: 'non_catch_all' });
    expect(upload.status).toBe(200);
    const id = upload.body.data.file_id;
    await expectEveryRowOnce(key, id, ROWS);
    expect((await key.fileRecord(id))?.meta_data).toEqual(expected);

    const perHost = net.maxPerHost();
    expect(perHost.size).toBe(HOSTS);
    for (const [, max] of perHost) expect(max).toBeLessThanOrEqual(PER_HOST);
    expect(Math.max(...perHost.values())).toBe(PER_HOST);
    expect(net.maxTotal()).toBeGreaterThan(PER_HOST);
    // The three workers shared the file: each committed some of it.
    console.log(`per-host maxima ${[...perHost.values()].join(', ')}; most at once in all ${net.maxTotal()}`);
  }, 120_000);

  it('lose no row and no credit when a worker is SIGKILLed mid-file five times', async () => {
    workers = await Promise.all([newWorker(), newWorker(), newWorker()]);
    const key = await apiWithNewKey(service, 10_000);
    const ROWS = 5000;
    const { text, expected } = csv(ROWS);
    const upload = await key.upload(text, { mode: 'non_catch_all' });
    const id = upload.body.data.file_id;
    const progress = async () => {
      const m = (await key.fileRecord(id))?.meta_data;
      return m ? m.deliverable + m.undeliverable + m.unknown + m.risky : 0;
    };
    for (let kill = 0; kill < 5; kill++) {
      const before = await progress();
      await waitFor(async () => ((await progress()) >= before + 150 ? true : null), 60_000, 50);
      const victim = workers.shift() as RunningWorker;
      await victim.kill();
      expect((await key.fileStatus(id)).body.data.status).toBe('processing');
      workers.push(await newWorker());
    }
    await expectEveryRowOnce(key, id, ROWS);
    expect(await key.fileRecord(id)).toMatchObject({
      state: 'completed',
      options: { credit_usage: ROWS, credit_refund: expected.unknown },
      meta_data: expected,
    });
    expect(await balanceOf(service, new Api(service.baseUrl, key.apiKey))).toBe(
      10_000 - ROWS + expected.unknown,
    );
  }, 180_000);
});
