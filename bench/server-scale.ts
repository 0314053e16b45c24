/**
 * Scaling out: rows per second of one bulk file with 1, 2 and 4 `npm run service:worker`
 * processes on one Postgres database (a throwaway cluster), against a loopback SMTP peer that
 * answers RCPT after a fixed latency, so the probes, not the CPU, are the limit. 16 MX hosts:
 * one worker is bound by its global limit (32 conversations), four by 4 × 32 = 128, which the
 * per-host limit (8 per host across all workers, 16 × 8 = 128) still allows. Prints rows/s,
 * the factor at 4 workers vs 1 (goal ≥ 3×) and the most conversations one host saw at once
 * (must never pass 8: the run fails if it does).
 *
 *   npx tsx bench/server-scale.ts [rows] [latencyMs]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiWithNewKey } from '../server/testing/api';
import { startFarmNet } from '../server/testing/farm-net';
import { startPostgres } from '../server/testing/postgres';
import { startService, startWorker } from '../server/testing/service';

const ROWS = Number(process.argv[2] ?? 10_000);
const LATENCY_MS = Number(process.argv[3] ?? 250);
const HOSTS = 16;
const PER_HOST = 8;
const WORKERS = [1, 2, 4];

interface Run {
  workers: number;
  rowsPerSecond: number;
  maxPerHost: number;
  maxTotal: number;
  /** Conversations open on average from upload to completion. */
  meanOpen: number;
}

async function run(workers: number, databaseUrl: string): Promise<Run> {
  const net = await startFarmNet(HOSTS, LATENCY_MS);
  const dir = await mkdtemp(join(tmpdir(), 'verimark-bench-scale-'));
  const env = { ...net.env(), WORKER_POLL_MS: '100' };
  const service = await startService({ databaseUrl, dataDir: dir, env: { ...env, RUN_WORKER: '0' } });
  const running = await Promise.all(
    Array.from({ length: workers }, () =>
      startWorker({ env: { ...env, DATABASE_URL: databaseUrl, DATA_DIR: dir } }),
    ),
  );
  try {
    const key = await apiWithNewKey(service, ROWS);
    const lines = ['Id,Email'];
    for (let i = 0; i < ROWS; i++) lines.push(`${i},user${i}@${net.domain(i)}`);
    const started = performance.now();
    const openBefore = net.openMs();
    const upload = await key.upload(lines.join('\n'), { mode: 'non_catch_all' });
    if (upload.status !== 200) throw new Error(`upload: ${upload.status}`);
    const status = await key.waitForFile(upload.body.data.file_id, 600_000);
    const ms = performance.now() - started;
    const seconds = ms / 1000;
    const meanOpen = (net.openMs() - openBefore) / ms;
    if (status.status !== 'completed') throw new Error(`the file ended ${status.status}`);
    return {
      workers,
      rowsPerSecond: ROWS / seconds,
      maxPerHost: Math.max(...net.maxPerHost().values()),
      maxTotal: net.maxTotal(),
      meanOpen,
    };
  } finally {
    await Promise.all(running.map((w) => w.stop()));
    await service.stop();
    await net.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const cluster = await startPostgres();
  const runs: Run[] = [];
  try {
    console.log(`${ROWS} rows, ${HOSTS} MX hosts, RCPT answered after ${LATENCY_MS} ms, Postgres`);
    for (const workers of WORKERS) {
      const result = await run(workers, await cluster.createDatabase());
      runs.push(result);
      console.log(
        `${workers} worker${workers > 1 ? 's' : ' '}: ${result.rowsPerSecond.toFixed(0).padStart(5)} rows/s   most per host at once ${result.maxPerHost}   most in all ${result.maxTotal}   on average ${result.meanOpen.toFixed(1)}`,
      );
    }
  } finally {
    await cluster.stop();
  }
  const one = runs[0]?.rowsPerSecond ?? 0;
  const four = runs.at(-1)?.rowsPerSecond ?? 0;
  console.log(`scaling at 4 workers vs 1: ${(four / one).toFixed(2)}× (goal ≥ 3×)`);
  const worst = Math.max(...runs.map((r) => r.maxPerHost));
  console.log(`per-host limit: at most ${worst} conversations with one host at once (limit ${PER_HOST})`);
  if (worst > PER_HOST) {
    console.error('The per-host limit was exceeded.');
    process.exitCode = 1;
  }
}

await main();
