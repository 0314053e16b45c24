/**
 * Crashes and stops mid-work: a service killed or stopped in the middle of a file or of single
 * tasks resumes with exact counts and credits.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Envelope, PATHS, type SingleResult } from '@verimark/contract';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, apiWithNewKey, balanceOf, waitFor } from '../testing/api';
import { FAKE_DOMAINS as D, type FakeNet, startFakeNet } from '../testing/fake-net';
import { type RunningService, startService, strayDataFiles } from '../testing/service';

let net: FakeNet;
const services: RunningService[] = [];

beforeAll(async () => {
  // The slow domain answers RCPT after 150 ms (within the 500 ms timeout): every batch of the
  // file below takes a while, so the service can be killed between two committed batches.
  net = await startFakeNet({ slowMs: 150 });
});
afterAll(async () => {
  for (const s of services.reverse()) await s.stop();
  await net?.stop();
});

/**
 * No verdict here depends on a timeout: a generous one keeps a loaded machine from turning slow
 * answers into unknowns. A short lease: the killed service's claims expire quickly.
 */
const SLACK = { SMTP_TIMEOUT_MS: '5000', WORKER_LEASE_MS: '2000' };
const ROWS = 1000;
/** Row i's address and expected verdict (non_catch_all mode). */
function row(i: number): [string, 'deliverable' | 'undeliverable' | 'unknown' | 'risky'] {
  if (i % 10 === 0) return [`slow${i}@${D.slow}`, 'deliverable'];
  switch (i % 4) {
    case 0:
      return [`bob+${i}@${D.rejecting}`, 'undeliverable'];
    case 1:
      return [`u${i}@${D.unreachable}`, 'unknown'];
    case 2:
      return [`f${i}@${D.mailboxFull}`, 'risky'];
    default:
      return [`r${i}@${D.rejecting}`, 'undeliverable'];
  }
}

describe('a service killed in the middle of a file', () => {
  it('resumes after a restart and completes with exact counts and credits', async () => {
    const first = await startService({ fakeNet: net, env: SLACK });
    services.push(first);
    const key = await apiWithNewKey(first, 5000);
    const lines = ['Id,Email'];
    const expected = { deliverable: 0, undeliverable: 0, unknown: 0, risky: 0 };
    for (let i = 0; i < ROWS; i++) {
      const [email, verdict] = row(i);
      lines.push(`${i},${email}`);
      expected[verdict]++;
    }
    const upload = await key.upload(lines.join('\n'), { mode: 'non_catch_all', fileName: 'big.csv' });
    expect(upload.status).toBe(200);
    const id = upload.body.data.file_id;

    // Wait until some batches are committed, then SIGKILL the service mid-file.
    const done = await waitFor(
      async () => {
        const m = (await key.fileRecord(id))?.meta_data;
        const total = m ? m.deliverable + m.undeliverable + m.unknown + m.risky : 0;
        return total >= 200 ? total : null;
      },
      30_000,
      20,
    );
    await first.kill();
    expect(done).toBeLessThan(ROWS);

    const second = await startService({ fakeNet: net, dataDir: first.dataDir, env: SLACK });
    services.push(second);
    const restartedApi = new Api(second.baseUrl, key.apiKey);
    const status = await restartedApi.waitForFile(id, 60_000);
    expect(status.status).toBe('completed');
    const record = await restartedApi.fileRecord(id);
    expect(record).toMatchObject({
      state: 'completed',
      options: { credit_usage: ROWS, credit_refund: expected.unknown },
      meta_data: expected,
    });
    expect(await balanceOf(second, restartedApi)).toBe(5000 - ROWS + expected.unknown);

    // Every row exactly once, in order, with its verdict.
    const text = await (await fetch(status.download_url)).text();
    const rows = Papa.parse<string[]>(text, { skipEmptyLines: true }).data;
    expect(rows).toHaveLength(ROWS + 1);
    expect(rows.slice(1).map((r) => Number(r[0]))).toEqual(Array.from({ length: ROWS }, (_, i) => i));
    expect(rows.slice(1).map((r) => r[2])).toEqual(Array.from({ length: ROWS }, (_, i) => row(i)[1]));

    // Rows committed before the kill were not verified again: the first row's address was
    // probed by the first service only.
    const probes = net.allCommands().filter((c) => c.toLowerCase() === `rcpt to:<slow0@${D.slow}>`);
    expect(probes).toHaveLength(1);
  });

  it('keeps no upload on disk: a queued file lives in the database and completes after a restart', async () => {
    const first = await startService({ fakeNet: net, env: SLACK });
    services.push(first);
    const key = await apiWithNewKey(first, 100);
    const lines = ['Email'];
    for (let i = 0; i < 40; i++) lines.push(`u${i}@${D.rejecting}`);
    const upload = await key.upload(lines.join('\n'));
    const id = upload.body.data.file_id;
    await first.kill();
    expect(strayDataFiles(first.dataDir)).toEqual([]);

    const second = await startService({ fakeNet: net, dataDir: first.dataDir, env: SLACK });
    services.push(second);
    const api = new Api(second.baseUrl, key.apiKey);
    expect((await api.waitForFile(id)).status).toBe('completed');
    expect(await api.fileRecord(id)).toMatchObject({
      state: 'completed',
      options: { credit_usage: 40, credit_refund: 0 },
      meta_data: { undeliverable: 40 },
    });
    expect(await balanceOf(second, api)).toBe(60);
  });

  it('finishes single tasks that were pending when the service died', async () => {
    const first = await startService({ fakeNet: net, env: SLACK });
    services.push(first);
    const key = await apiWithNewKey(first, 100);
    const queued = await key.post<Envelope<{ task_id: string }>>(PATHS.single, {
      email: `pending@${D.slow}`,
      mode: 'non_catch_all',
    });
    await first.kill();

    const second = await startService({ fakeNet: net, dataDir: first.dataDir, env: SLACK });
    services.push(second);
    const api = new Api(second.baseUrl, key.apiKey);
    const result = await waitFor(async () => {
      const reply = await api.post<Envelope<SingleResult>>(PATHS.singleStatus, {
        task_id: queued.body.data.task_id,
      });
      return reply.body.data.processing_status === 'completed' ? reply.body.data : null;
    });
    expect(result).toMatchObject({ status: 'deliverable', credits_used: 1, credits_refunded: 0 });
    expect(await balanceOf(second, api)).toBe(99);
  });
});

describe('a service stopped gracefully in the middle of a batch', () => {
  it('gives the batch back without counting an attempt: five restarts over one batch still complete the file', async () => {
    // RCPT at the slow domain takes 1 s, 8 at a time per host: the file's one batch of 100 rows
    // takes over 12 s, longer than any stop's grace (5 s before SHUTDOWN_GRACE_MS), so every
    // SIGTERM below, sent as soon as the new process probes, catches it in flight and the
    // stopping service gives it back.
    const slowNet = await startFakeNet({ slowMs: 1000 });
    const dataDir = await mkdtemp(join(tmpdir(), 'verimark-graceful-'));
    const env = { ...SLACK, SHUTDOWN_GRACE_MS: '100' };
    /** RCPT commands for the slow domain so far: they keep coming while a process verifies the batch. */
    const rcpts = () =>
      slowNet.allCommands().filter((c) => /^RCPT TO:/i.test(c) && c.toLowerCase().includes(`@${D.slow}>`))
        .length;
    const mine: RunningService[] = [];
    try {
      let service = await startService({ fakeNet: slowNet, dataDir, env });
      mine.push(service);
      const key = await apiWithNewKey(service, 1000);
      const lines = ['Id,Email'];
      for (let i = 0; i < 100; i++) lines.push(`${i},slow${i}@${D.slow}`);
      const upload = await key.upload(lines.join('\n'), { mode: 'non_catch_all' });
      expect(upload.status).toBe(200);
      const id = upload.body.data.file_id;

      for (let restart = 1; restart <= 5; restart++) {
        // The batch is being verified by this process: its probes have reached the mail server.
        const before = rcpts();
        await waitFor(() => (rcpts() > before ? true : null), 30_000, 20, `probes of run ${restart}`);
        await service.stop();
        expect(service.exitCode()).toBe(0);
        expect(service.output()).not.toMatch(/failed too often/);
        service = await startService({ fakeNet: slowNet, dataDir, env });
        mine.push(service);
      }

      const api = new Api(service.baseUrl, key.apiKey);
      const status = await api.waitForFile(id, 90_000);
      expect(status.status).toBe('completed');
      expect(await api.fileRecord(id)).toMatchObject({
        state: 'completed',
        options: { credit_usage: 100, credit_refund: 0 },
        meta_data: { deliverable: 100, undeliverable: 0, unknown: 0, risky: 0 },
      });
      const rows = Papa.parse<string[]>(await (await fetch(status.download_url)).text(), {
        skipEmptyLines: true,
      }).data;
      expect(rows.slice(1).map((r) => Number(r[0]))).toEqual(Array.from({ length: 100 }, (_, i) => i));
    } finally {
      for (const s of mine) await s.stop();
      await slowNet.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});
