/**
 * "Running it for a team" (docs/self-hosting.md), tried as a new user would: a throwaway
 * Postgres, then
 *   A. `npm run service` alone (HTTP + worker), and
 *   B. `npm run service` plus two `npm run service:worker`, one of them SIGKILLed mid-file,
 * each verifying one 20,000-row file against a loopback SMTP peer (16 MX hosts, RCPT answered
 * after a fixed latency) and a DNS server on 127.0.0.1. Every process runs the real npm script
 * with its own DATA_DIR (they share only DATABASE_URL) and default settings (30 s leases). Prints
 * the times, checks every row once in the results, credits exact before and after, and that
 * /healthz, /metrics and /openapi.json answer. Exit 1 on any failed check. The file, its folders
 * and the HTTP client are the scale tests' (server/testing/worker-farm.ts, api.ts); the processes
 * are not: here they are the npm scripts a team runs, not the test helpers' direct `tsx` runs.
 *
 *   npx tsx scripts/team-run.ts [rows] [latencyMs]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Envelope, PATHS } from '@verimark/contract';
import Papa from 'papaparse';
import { Api, waitFor } from '../server/testing/api';
import { type FarmNet, startFarmNet } from '../server/testing/farm-net';
import { startPostgres } from '../server/testing/postgres';
import { farmCsv, progressOf, tempDirs } from '../server/testing/worker-farm';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ROWS = Number(process.argv[2] ?? 20_000);
const LATENCY_MS = Number(process.argv[3] ?? 250);
const HOSTS = 16;
const CREDITS = 100_000;
const failures: string[] = [];

function check(ok: boolean, what: string): void {
  console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures.push(what);
}

interface Proc {
  child: ChildProcess;
  output: () => string;
}

/** `npm run <script>` in its own process group (so SIGKILL reaches node, not only npm). */
function npm(script: string, args: string[], env: Record<string, string>): Proc {
  const child = spawn('npm', ['run', '--silent', script, ...(args.length ? ['--', ...args] : [])], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let text = '';
  const collect = (chunk: Buffer) => {
    text = (text + chunk.toString('utf8')).slice(-100_000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  return { child, output: () => text };
}

function signal(proc: Proc, sig: NodeJS.Signals): void {
  try {
    if (proc.child.pid) process.kill(-proc.child.pid, sig);
  } catch {
    // already gone
  }
}

async function stop(proc: Proc): Promise<void> {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return;
  const exited = new Promise<void>((r) => proc.child.once('exit', () => r()));
  signal(proc, 'SIGTERM');
  const timer = setTimeout(() => signal(proc, 'SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

async function runOnce(label: string, workers: number, databaseUrl: string, net: FarmNet) {
  const env = net.env();
  const rcptsBefore = net.rcpts.length;
  console.log(`\n${label}`);
  const dirs = tempDirs();
  const base = { ...env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' };
  const procs: Proc[] = [];
  try {
    const service = npm('service', [], { ...base, PORT: '0', DATA_DIR: await dirs.ownDir() });
    procs.push(service);
    const baseUrl = await waitFor(
      () => /Verimark service listening on (http:\/\/\S+)/.exec(service.output())?.[1] ?? null,
      60_000,
      100,
      'service start',
    );
    for (let i = 0; i < workers; i++)
      procs.push(npm('service:worker', [], { ...base, DATA_DIR: await dirs.ownDir() }));
    for (const w of procs.slice(1))
      await waitFor(
        () => (/Verimark worker \S+ started/.test(w.output()) ? true : null),
        60_000,
        100,
        'worker start',
      );
    const admin = npm(
      'service:admin',
      ['create-key', '--credits', String(CREDITS), '--label', 'team-run'],
      base,
    );
    await new Promise((r) => admin.child.once('exit', r));
    const api = new Api(baseUrl, admin.output().trim().split('\n').at(-1)?.trim() ?? '');
    const balance = async () =>
      (await api.get<Envelope<{ credits: number }>>(PATHS.account)).body.data.credits;

    // 10 % bad… (undeliverable), 10 % temp… (unknown, refunded), the rest deliverable.
    const { text: csv, expected } = farmCsv(net, ROWS);
    const unknown = expected.unknown;
    const before = await balance();
    const started = performance.now();
    const upload = await api.upload(csv, { mode: 'non_catch_all' }, 'team.csv');
    const fileId = upload.body.data.file_id;
    const done = () => progressOf(api, fileId);
    let killedAt: number | null = null;
    if (workers > 0) {
      killedAt = await waitFor(
        async () => ((await done()) >= ROWS * 0.3 ? done() : null),
        600_000,
        100,
        'progress',
      );
      const victim = procs[1] as Proc;
      signal(victim, 'SIGKILL');
      console.log(`  one worker SIGKILLed with ${killedAt} of ${ROWS} rows done`);
    }
    const final = await waitFor(
      async () => {
        const status = (await api.fileStatus(fileId)).body.data;
        return status?.status === 'completed' || status?.status === 'failed' ? status : null;
      },
      1_800_000,
      100,
      'file completion',
    );
    const seconds = (performance.now() - started) / 1000;
    const text = await (await fetch(final.download_url)).text();
    const data = Papa.parse<string[]>(text, { skipEmptyLines: true }).data.slice(1);
    const ids = data.map((r) => Number(r[0]));
    const seen = new Set(ids);
    const after = await balance();
    console.log(
      `  ${ROWS} rows in ${seconds.toFixed(1)} s = ${(ROWS / seconds).toFixed(0)} rows/s; credits ${before} → ${after}`,
    );
    check(final.status === 'completed', `file completed (${final.status})`);
    check(
      data.length === ROWS && seen.size === ROWS,
      `every row once: ${data.length} result rows, ${ids.length - seen.size} duplicates, ${ROWS - seen.size} missing`,
    );
    check(
      after === before - ROWS + unknown,
      `credits exact: ${before} − ${ROWS} + ${unknown} refunded (unknown) = ${before - ROWS + unknown}, balance ${after}`,
    );
    const probes = new Map<string, number>();
    for (const a of net.rcpts.slice(rcptsBefore))
      if (!a.startsWith('temp')) probes.set(a, (probes.get(a) ?? 0) + 1);
    const again = [...probes.values()].filter((n) => n > 1).length;
    console.log(
      `  addresses probed more than once (not greylisted): ${again} (rows of batches a killed worker had not committed)`,
    );
    const metrics = await fetch(`${baseUrl}/metrics`);
    const metricsText = await metrics.text();
    check(
      metrics.status === 200 && metricsText.includes('verimark_queue_depth'),
      `/metrics answers ${metrics.status}`,
    );
    const openapi = await fetch(`${baseUrl}/openapi.json`);
    const spec = (await openapi.json()) as { openapi?: string };
    check(
      openapi.status === 200 && typeof spec.openapi === 'string',
      `/openapi.json answers ${openapi.status} (OpenAPI ${spec.openapi})`,
    );
    const health = await fetch(`${baseUrl}/healthz`);
    check(health.status === 200, `/healthz answers ${health.status}`);
    return { seconds, killedAt };
  } finally {
    await Promise.all(procs.map(stop));
    await dirs.removeAll();
  }
}

async function main(): Promise<void> {
  const cluster = await startPostgres();
  const net = await startFarmNet(HOSTS, LATENCY_MS);
  try {
    console.log(`${ROWS} rows, ${HOSTS} MX hosts, RCPT answered after ${LATENCY_MS} ms, default settings`);
    const one = await runOnce('A. npm run service (one process)', 0, await cluster.createDatabase(), net);
    const three = await runOnce(
      'B. npm run service + 2 × npm run service:worker (one SIGKILLed mid-file)',
      2,
      await cluster.createDatabase(),
      net,
    );
    console.log(
      `\n1 process ${one.seconds.toFixed(1)} s, 3 processes (one killed) ${three.seconds.toFixed(1)} s: ${(one.seconds / three.seconds).toFixed(2)}× faster`,
    );
    check(three.seconds < one.seconds, 'three processes faster than one');
  } finally {
    await net.stop();
    await cluster.stop();
  }
  if (failures.length > 0) {
    console.error(`\n${failures.length} check(s) failed`);
    process.exitCode = 1;
  }
}

await main();
