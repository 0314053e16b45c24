/**
 * Bulk throughput of the reference service: a 5,000-row CSV uploaded to the real service (child
 * process) verifying against the fake DNS/SMTP network on loopback, from upload to completed.
 * Printed as a ratio against a floor measured in the same run: papaparse streaming the same
 * file from disk (parsing only, no verification), the least any bulk run must do.
 *
 *   npx tsx bench/server-bulk.ts [rows]
 */
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import Papa from 'papaparse';
import { type Api, apiWithNewKey } from '../server/testing/api';
import { FAKE_DOMAINS as D, startFakeNet } from '../server/testing/fake-net';
import { startService } from '../server/testing/service';

const ROWS = Number(process.argv[2] ?? 5000);
const DOMAINS = [D.deliverable, D.rejecting, D.catchAll, D.mailboxFull, D.freeProvider, D.aFallback];

function makeCsv(rows: number): string {
  const lines = ['Id,Name,Email,Company'];
  for (let i = 0; i < rows; i++) {
    const domain = DOMAINS[i % DOMAINS.length];
    const local = i % 3 === 0 ? 'alice' : `user${i}`;
    lines.push(`${i},"Person ${i}",${local}+${i}@${domain},"Company ${i % 97}, Ltd"`);
  }
  return `${lines.join('\n')}\n`;
}

/** Rows per second papaparse streams the file from disk: the floor. */
async function floorRowsPerSecond(path: string): Promise<number> {
  let best = 0;
  for (let run = 0; run < 3; run++) {
    let count = 0;
    const started = performance.now();
    await pipeline(
      createReadStream(path, { encoding: 'utf8' }),
      Papa.parse(Papa.NODE_STREAM_INPUT, {}),
      new Writable({
        objectMode: true,
        write(_row, _enc, done) {
          count++;
          done();
        },
      }),
    );
    best = Math.max(best, count / ((performance.now() - started) / 1000));
  }
  return best;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'verimark-bench-'));
  const net = await startFakeNet();
  // A generous SMTP timeout: a loaded machine must not turn slow answers into timeouts here.
  const service = await startService({ fakeNet: net, env: { SMTP_TIMEOUT_MS: '10000' } });
  try {
    const csv = makeCsv(ROWS);
    const path = join(dir, 'bench.csv');
    await writeFile(path, csv);
    const floor = await floorRowsPerSecond(path);

    const api: Api = await apiWithNewKey(service, ROWS * 2);
    const started = performance.now();
    const upload = await api.upload(csv, { fileName: 'bench.csv' });
    if (upload.status !== 200) throw new Error(`upload failed: ${upload.status}`);
    const uploadedMs = performance.now() - started;
    const status = await api.waitForFile(upload.body.data.file_id, 120_000);
    const seconds = (performance.now() - started) / 1000;
    if (status.status !== 'completed') throw new Error(`file ended ${status.status}`);
    const rate = ROWS / seconds;

    console.log(
      `server bulk: ${ROWS} rows, upload ${uploadedMs.toFixed(0)} ms, completed in ${seconds.toFixed(2)} s`,
    );
    console.log(`  service      ${rate.toFixed(0)} rows/s (upload → completed, verified over loopback SMTP)`);
    console.log(
      `  floor        ${floor.toFixed(0)} rows/s (papaparse streaming the same file, no verification)`,
    );
    console.log(`  ratio        ${(rate / floor).toFixed(4)} of the floor`);
  } finally {
    await service.stop();
    await net.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
