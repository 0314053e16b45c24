/**
 * While four 20 MB uploads stream at once, the service still answers other requests: GET
 * /account is answered, again and again, before the uploads end. The uploads are sent by curl
 * in processes of their own, so the test's event loop (which times the answers) is not busy
 * building them. (How fast is measured in bench/, not asserted here: a timed test on a shared
 * machine would be about the machine.)
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_KEY_HEADER, PATHS } from '@verimark/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { type Api, useService } from '../testing/api';

// HTTP only: the uploads are received and stored, not verified (that is other work).
const svc = useService({ env: { RATE_LIMIT_PER_MIN: '1000000', RUN_WORKER: '0' } });
const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

const TWENTY_MB = 20 * 1024 * 1024;

function bigCsv(seed: number): string {
  const lines = ['email,name,company'];
  let size = lines[0]?.length ?? 0;
  for (let i = 0; size < TWENTY_MB - 100; i++) {
    const line = `user${seed}x${i}@deliverable.test,Person ${i},Company ${i % 977}`;
    lines.push(line);
    size += line.length + 1;
  }
  return `${lines.join('\n')}\n`;
}

/** curl's upload of `path` with `key`; resolves with the HTTP status. */
function curlUpload(baseUrl: string, key: string, path: string): Promise<number> {
  const child = spawn('curl', [
    '-s',
    '-o',
    '/dev/null',
    '-w',
    '%{http_code}',
    '-H',
    `${API_KEY_HEADER}: ${key}`,
    '-F',
    `file=@${path};type=text/csv`,
    `${baseUrl}${PATHS.bulk}`,
  ]);
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', () => resolve(Number(out.trim())));
  });
}

describe('uploads in flight', () => {
  it('leave GET /account answering while four 20 MB uploads stream', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'verimark-uploads-'));
    dirs.push(dir);
    const paths = await Promise.all(
      [1, 2, 3, 4].map(async (seed) => {
        const path = join(dir, `big${seed}.csv`);
        await writeFile(path, bigCsv(seed));
        return path;
      }),
    );
    const keys: Api[] = await Promise.all(paths.map(() => svc.newKey(2_000_000)));
    await svc.api.get(PATHS.account); // a warm service
    let uploading = true;
    const uploads = Promise.all(
      keys.map((key, i) => curlUpload(svc.service.baseUrl, key.apiKey ?? '', paths[i] ?? '')),
    ).finally(() => {
      uploading = false;
    });
    const answeredDuring: number[] = [];
    const times: number[] = [];
    while (uploading) {
      const started = performance.now();
      const reply = await svc.api.get(PATHS.account);
      times.push(performance.now() - started);
      if (uploading) answeredDuring.push(reply.status);
      await new Promise((r) => setTimeout(r, 50));
    }
    const statuses = await uploads;
    console.log(
      `GET /account during 4×20 MB uploads: n=${times.length}, max ${Math.max(...times).toFixed(0)} ms`,
    );
    expect(statuses).toEqual([200, 200, 200, 200]);
    // Answered many times over while the uploads were still arriving, every time correctly.
    expect(answeredDuring.length).toBeGreaterThanOrEqual(5);
    expect(new Set(answeredDuring)).toEqual(new Set([200]));
  }, 180_000);
});
