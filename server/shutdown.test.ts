/**
 * Graceful shutdown of the real service (server/main.ts as a child process): SIGTERM in the
 * middle of a file stops the worker after its current batch, closes the database and exits 0;
 * the next start finishes the file with every row exactly once and exact credits.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, apiWithNewKey, balanceOf, waitFor } from './testing/api';
import { FAKE_DOMAINS as D, type FakeNet, startFakeNet } from './testing/fake-net';
import { type RunningService, startService } from './testing/service';

let net: FakeNet;
let dataDir = '';
const services: RunningService[] = [];

beforeAll(async () => {
  // Every 10th row waits 150 ms for its RCPT answer, so the file takes long enough to stop midway.
  net = await startFakeNet({ slowMs: 150 });
  dataDir = await mkdtemp(join(tmpdir(), 'verimark-shutdown-'));
});
afterAll(async () => {
  for (const s of services.reverse()) await s.stop();
  await net?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** Ten batches of 100 rows: the stop comes while most are still open. */
const ROWS = 1000;
/** Two service starts and a file: generous on a loaded machine; no speed is asserted. */
const TEST_TIMEOUT_MS = 120_000;
const SLACK = { SMTP_TIMEOUT_MS: '5000' };

function email(i: number): string {
  if (i % 10 === 0) return `slow${i}@${D.slow}`;
  return i % 2 === 0 ? `alice+${i}@${D.catchAll}` : `nobody${i}@${D.rejecting}`;
}

describe('SIGTERM', () => {
  it(
    'stops mid-file, exits 0, and the next start completes the file with every row once',
    async () => {
      const first = await startService({ fakeNet: net, dataDir, env: { ...SLACK, LOG_LEVEL: 'info' } });
      services.push(first);
      const key = await apiWithNewKey(first, 2000);
      const csv = ['Id,Email', ...Array.from({ length: ROWS }, (_, i) => `${i},${email(i)}`)].join('\n');
      const upload = await key.upload(csv, { mode: 'non_catch_all' });
      expect(upload.status).toBe(200);
      const id = upload.body.data.file_id;
      await waitFor(
        async () => {
          const m = (await key.fileRecord(id))?.meta_data;
          return m && m.deliverable + m.undeliverable >= 50 ? true : null;
        },
        30_000,
        20,
      );

      await first.stop(); // SIGTERM, and waits for the exit
      expect(first.exitCode()).toBe(0);
      expect(first.output()).toContain('"signal":"SIGTERM"');
      // The worker finished (committed) the batches it was verifying and took no more.
      expect(first.output()).toMatch(/"released":0[^\n]*"msg":"batch worker stopped"/);
      // Stopped before the end: the file is still open in the database.
      const second = await startService({ fakeNet: net, dataDir, env: SLACK });
      services.push(second);
      const api = new Api(second.baseUrl, key.apiKey);
      const stateAtRestart = (await api.fileRecord(id))?.state;
      expect(['pending', 'processing']).toContain(stateAtRestart);

      const status = await api.waitForFile(id, 60_000);
      expect(status.status).toBe('completed');
      const record = await api.fileRecord(id);
      expect(record).toMatchObject({
        options: { credit_usage: ROWS, credit_refund: 0 },
        meta_data: { deliverable: ROWS / 2, undeliverable: ROWS / 2, unknown: 0, risky: 0 },
      });
      expect(await balanceOf(second, api)).toBe(2000 - ROWS);
      const rows = Papa.parse<string[]>(await (await fetch(status.download_url)).text(), {
        skipEmptyLines: true,
      }).data;
      expect(rows).toHaveLength(ROWS + 1);
      expect(rows.slice(1).map((r) => Number(r[0]))).toEqual(Array.from({ length: ROWS }, (_, i) => i));
    },
    TEST_TIMEOUT_MS,
  );
});
