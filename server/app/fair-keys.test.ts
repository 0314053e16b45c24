/**
 * Fair between keys (issue 31, "Done when"): while two keys hold thousands of rows and dozens of
 * single checks of slow work (RCPT answered after 5 s), a third key's 3 single checks complete
 * within 15 s and its 30-row file within 30 s — on SQLite (the service verifying) and on Postgres
 * (an HTTP-only service and two worker processes). Production defaults, except the test network
 * (DNS_SERVERS, SMTP_PORT, ALLOW_PRIVATE_MX) and, with workers, short leases and polls.
 */
import { type Envelope, PATHS, type SingleResult } from '@verimark/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { type Api, apiWithNewKey, waitFor } from '../testing/api';
import { FAIR_DOMAINS, type FairNet, startFairNet } from '../testing/fair-net';
import { TEST_STORES, usePostgres } from '../testing/postgres-suite';
import { type RunningService, type RunningWorker, startService, startWorker } from '../testing/service';
import { tempDirs, WORKER_TUNING } from '../testing/worker-farm';

const SLOW_MS = 5000;
const BIG_ROWS = 3000;
const BIG_SINGLES = 60;
/** The bounds for the newcomer's work, from when it was asked for. */
const SINGLES_WITHIN_MS = 15_000;
const FILE_WITHIN_MS = 30_000;
/** What the service and its fake network would be given otherwise (production defaults). */
const PRODUCTION_TIMING = { SMTP_TIMEOUT_MS: '10000', GREYLIST_RETRY_MS: '15000' };

const pg = usePostgres();
const dirs = tempDirs();
const running: { stop(): Promise<void> }[] = [];
afterEach(async () => {
  // Workers and services first (they give their work back), then the network, then folders.
  for (const p of running.splice(0).reverse()) await p.stop();
  await dirs.removeAll();
});

function csv(domain: string, rows: number, prefix: string): string {
  const lines = ['Id,Email'];
  for (let i = 0; i < rows; i++) lines.push(`${i},${prefix}${i}@${domain}`);
  return lines.join('\n');
}

/** `probe`'s first value other than null and when it came, or undefined when none came within `ms`. */
async function within<T>(
  ms: number,
  probe: () => Promise<T | null>,
): Promise<{ value: T; at: number } | undefined> {
  try {
    const value = await waitFor(probe, Math.max(0, ms), 250);
    return { value, at: Date.now() };
  } catch (err) {
    if (err instanceof Error && err.message.startsWith('timed out')) return undefined;
    throw err;
  }
}

/** Queues a single check; its task id. */
async function ask(key: Api, email: string): Promise<string> {
  const reply = await key.post<Envelope<{ task_id: string }>>(PATHS.single, { email, mode: 'non_catch_all' });
  expect(reply.status).toBe(200);
  return reply.body.data.task_id;
}

async function singleDone(key: Api, taskId: string): Promise<SingleResult | null> {
  const reply = await key.post<Envelope<SingleResult>>(PATHS.singleStatus, { task_id: taskId });
  return reply.body.data?.processing_status === 'completed' ? reply.body.data : null;
}

async function upload(key: Api, text: string): Promise<string> {
  const reply = await key.upload(text, { mode: 'non_catch_all' });
  expect(reply.status).toBe(200);
  return reply.body.data.file_id;
}

/** The service (and workers) of one store on `net`; the service's base URL for the keys. */
async function startStore(kind: (typeof TEST_STORES)[number], net: FairNet): Promise<RunningService> {
  const env = { ...net.env(), ...PRODUCTION_TIMING };
  if (kind === 'sqlite') {
    const service = await startService({ cwd: await dirs.ownDir(), env });
    running.push(service);
    return service;
  }
  const withDb = { ...env, ...WORKER_TUNING, DATABASE_URL: pg.url() };
  const service = await startService({
    cwd: await dirs.ownDir(),
    dataDir: await dirs.ownDir(),
    databaseUrl: pg.url(),
    env: { ...withDb, RUN_WORKER: '0' },
  });
  running.push(service);
  const workers: RunningWorker[] = [];
  for (let i = 0; i < 2; i++) {
    const worker = await startWorker({
      env: { ...withDb, DATA_DIR: await dirs.ownDir() },
      cwd: await dirs.ownDir(),
    });
    workers.push(worker);
    running.push(worker);
  }
  return service;
}

describe.each(TEST_STORES)('three keys on %s', (kind) => {
  it("start a newcomer's checks and file within seconds while two keys hold thousands of slow rows", async () => {
    const net = await startFairNet(SLOW_MS);
    running.push(net);
    const service = await startStore(kind, net);
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => apiWithNewKey(service, 100_000)));
    if (!a || !b || !c) throw new Error('keys not created');

    // Keys A and B: a 3,000-row file and 60 single checks each, all at slow servers.
    const bigFiles = [
      await upload(a, csv(FAIR_DOMAINS.slowA, BIG_ROWS, 'a')),
      await upload(b, csv(FAIR_DOMAINS.slowB, BIG_ROWS, 'b')),
    ];
    for (let i = 0; i < BIG_SINGLES; i++) {
      await ask(a, `single-a${i}@${FAIR_DOMAINS.slowA}`);
      await ask(b, `single-b${i}@${FAIR_DOMAINS.slowB}`);
    }
    // Their work has reached the slow servers (and holds them: nothing of it is answered yet).
    await waitFor(() => (net.rcpts.slow >= 16 ? true : null), 30_000, 100, 'slow work under way');

    // Key C: 3 single checks and a 30-row file at a fast server.
    const asked = Date.now();
    const tasks = await Promise.all([0, 1, 2].map((i) => ask(c, `c${i}@${FAIR_DOMAINS.fast}`)));
    const smallFile = await upload(c, csv(FAIR_DOMAINS.fast, 30, 'c'));

    // Both are watched at once, each until its bound: a late single check does not hide a late file.
    const singles = within(SINGLES_WITHIN_MS - (Date.now() - asked), async () => {
      const done = await Promise.all(tasks.map((t) => singleDone(c, t)));
      return done.every((r) => r !== null) ? (done as SingleResult[]) : null;
    });
    const file = within(FILE_WITHIN_MS - (Date.now() - asked), async () => {
      const status = (await c.fileStatus(smallFile)).body.data?.status;
      return status === 'completed' || status === 'failed' ? status : null;
    });
    const [singlesDone, fileDone] = await Promise.all([singles, file]);
    const took = (at: number | undefined) => (at === undefined ? 'not done' : `${at - asked} ms`);
    console.log(
      `[${kind}] newcomer's 3 singles: ${took(singlesDone?.at)}; its 30-row file: ${took(fileDone?.at)}`,
    );
    expect(
      singlesDone?.value.map((r) => r.status),
      "the third key's 3 single checks within 15 s",
    ).toEqual(['deliverable', 'deliverable', 'deliverable']);
    expect(fileDone?.value, "the third key's 30-row file within 30 s").toBe('completed');
    expect((await c.fileRecord(smallFile))?.meta_data).toEqual({
      deliverable: 30,
      undeliverable: 0,
      unknown: 0,
      risky: 0,
    });

    // The other keys' slow work was still being held all that time.
    for (const [key, id] of [
      [a, bigFiles[0]],
      [b, bigFiles[1]],
    ] as const) {
      expect((await key.fileStatus(id as string)).body.data.status).toBe('processing');
    }
  }, 120_000);
});
