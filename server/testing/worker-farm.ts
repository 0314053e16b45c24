/**
 * What the multi-process tests share (server/app/scale.test.ts on Postgres, scale-sqlite.test.ts
 * on one SQLite file): folders of their own for each process, short leases, a CSV whose verdicts
 * are known from the row number, and the checks that every row came back once and that the
 * per-MX-host limit held across the processes.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { Api } from './api';
import { type FarmNet, startFarmNet } from './farm-net';
import { type RunningService, type RunningWorker, startService, startWorker } from './service';

/** Short leases and polls: a killed worker's batches are taken again within seconds. */
export const WORKER_TUNING = { WORKER_LEASE_MS: '1500', WORKER_POLL_MS: '100' };

/** New empty folders (a process's cwd, a DATA_DIR), all removed by `removeAll`. */
export function tempDirs(): { ownDir(): Promise<string>; removeAll(): Promise<void> } {
  const dirs: string[] = [];
  return {
    async ownDir() {
      const dir = await mkdtemp(join(tmpdir(), 'verimark-proc-'));
      dirs.push(dir);
      return dir;
    },
    async removeAll() {
      for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface WorkerFarm {
  /** The SMTP peer and DNS of the farm (set in beforeAll). */
  readonly net: FarmNet;
  /** The HTTP-only service (RUN_WORKER=0). */
  readonly service: RunningService;
  /** Workers started by `startWorkers` and still running; each test's are stopped after it. */
  readonly workers: RunningWorker[];
  startWorkers(count: number): Promise<RunningWorker[]>;
}

/**
 * The suite's lifecycle: a farm of `hosts` MX hosts, an HTTP-only service and workers started on
 * demand, each process in a folder of its own. `databaseUrl` (read when each process starts):
 * Postgres; without it every process shares one SQLite DATA_DIR.
 */
export function useWorkerFarm(hosts: number, databaseUrl?: () => string): WorkerFarm {
  const dirs = tempDirs();
  let net: FarmNet | undefined;
  let service: RunningService | undefined;
  let sharedDataDir = '';
  const workers: RunningWorker[] = [];
  const dataDir = async () => (databaseUrl ? dirs.ownDir() : sharedDataDir);
  const dbEnv = (): Record<string, string> => (databaseUrl ? { DATABASE_URL: databaseUrl() } : {});

  beforeAll(async () => {
    net = await startFarmNet(hosts, 120);
    sharedDataDir = await dirs.ownDir();
    service = await startService({
      dataDir: await dataDir(),
      cwd: await dirs.ownDir(),
      ...(databaseUrl ? { databaseUrl: databaseUrl() } : {}),
      env: { ...net.env(), ...WORKER_TUNING, RUN_WORKER: '0' },
    });
  }, 120_000);
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop()));
  });
  afterAll(async () => {
    await service?.stop();
    await net?.stop();
    await dirs.removeAll();
  });

  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the worker farm is set up in beforeAll');
    return value;
  };
  return {
    get net() {
      return started(net);
    },
    get service() {
      return started(service);
    },
    workers,
    async startWorkers(count) {
      const env = { ...started(net).env(), ...WORKER_TUNING, ...dbEnv() };
      const more = await Promise.all(
        Array.from({ length: count }, async () =>
          startWorker({ env: { ...env, DATA_DIR: await dataDir() }, cwd: await dirs.ownDir() }),
        ),
      );
      workers.push(...more);
      return more;
    },
  };
}

export type Verdict = 'deliverable' | 'undeliverable' | 'unknown';

/** Row i of a farm CSV: its address (spread over the farm's domains) and the verdict it gets. */
export function farmRow(net: FarmNet, i: number): [string, Verdict] {
  const domain = net.domain(i);
  if (i % 10 === 3) return [`bad${i}@${domain}`, 'undeliverable'];
  if (i % 10 === 7) return [`temp${i}@${domain}`, 'unknown'];
  return [`user${i}@${domain}`, 'deliverable'];
}

/** A CSV of `rows` rows (`Id,Email`) and how many of each verdict it should come back with. */
export function farmCsv(
  net: FarmNet,
  rows: number,
): { text: string; expected: Record<Verdict | 'risky', number> } {
  const lines = ['Id,Email'];
  const expected = { deliverable: 0, undeliverable: 0, unknown: 0, risky: 0 };
  for (let i = 0; i < rows; i++) {
    const [email, verdict] = farmRow(net, i);
    lines.push(`${i},${email}`);
    expected[verdict]++;
  }
  return { text: lines.join('\n'), expected };
}

/** Rows of the file verified so far, from its record. */
export async function progressOf(api: Api, id: string): Promise<number> {
  const m = (await api.fileRecord(id))?.meta_data;
  return m ? m.deliverable + m.undeliverable + m.unknown + m.risky : 0;
}

/** The downloaded results: every row once, in order, with its verdict. */
export async function expectEveryRowOnce(api: Api, net: FarmNet, id: string, rows: number): Promise<void> {
  const status = await api.waitForFile(id, 120_000);
  expect(status.status).toBe('completed');
  const text = await (await fetch(status.download_url)).text();
  const data = Papa.parse<string[]>(text, { skipEmptyLines: true }).data;
  expect(data).toHaveLength(rows + 1);
  expect(data.slice(1).map((r) => Number(r[0]))).toEqual(Array.from({ length: rows }, (_, i) => i));
  expect(data.slice(1).map((r) => r[2])).toEqual(Array.from({ length: rows }, (_, i) => farmRow(net, i)[1]));
}

/**
 * The peer saw every one of the `hosts` MX hosts, none above `perHost` conversations at once, at
 * least one at exactly that, and more than one host's worth in all (the processes worked together).
 */
export function expectPerHostLimit(net: FarmNet, hosts: number, perHost: number): void {
  const maxima = net.maxPerHost();
  expect(maxima.size).toBe(hosts);
  for (const [, max] of maxima) expect(max).toBeLessThanOrEqual(perHost);
  expect(Math.max(...maxima.values())).toBe(perHost);
  expect(net.maxTotal()).toBeGreaterThan(perHost);
  console.log(`per-host maxima ${[...maxima.values()].join(', ')}; most at once in all ${net.maxTotal()}`);
}
