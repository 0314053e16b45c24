/**
 * While four 20 MB uploads stream at once, the service still answers other requests: GET
 * /account is answered, again and again, before the uploads end. (How fast is measured in
 * bench/, not here: a timed test on a shared machine would be about the machine.)
 */

import { PATHS } from '@verimark/contract';
import { describe, expect, it } from 'vitest';
import { type Api, useService } from '../testing/api';

// HTTP only: the uploads are received and stored, not verified (that is other work).
const svc = useService({ env: { RATE_LIMIT_PER_MIN: '1000000', RUN_WORKER: '0' } });

const TWENTY_MB = 20 * 1024 * 1024;

function bigCsv(seed: number): Uint8Array<ArrayBuffer> {
  const lines = ['email,name,company'];
  let size = lines[0]?.length ?? 0;
  for (let i = 0; size < TWENTY_MB - 100; i++) {
    const line = `user${seed}x${i}@deliverable.test,Person ${i},Company ${i % 977}`;
    lines.push(line);
    size += line.length + 1;
  }
  return new TextEncoder().encode(`${lines.join('\n')}\n`);
}

describe('uploads in flight', () => {
  it('leave GET /account answering while four 20 MB uploads stream', async () => {
    const keys: Api[] = await Promise.all([1, 2, 3, 4].map(() => svc.newKey(2_000_000)));
    const files = [1, 2, 3, 4].map(bigCsv);
    await svc.api.get(PATHS.account); // a warm service
    let uploading = true;
    const uploads = Promise.all(keys.map((key, i) => key.upload(files[i] ?? new Uint8Array()))).finally(
      () => {
        uploading = false;
      },
    );
    const answeredDuring: number[] = [];
    const times: number[] = [];
    while (uploading) {
      const started = performance.now();
      const reply = await svc.api.get(PATHS.account);
      times.push(performance.now() - started);
      if (uploading) answeredDuring.push(reply.status);
      await new Promise((r) => setTimeout(r, 50));
    }
    const replies = await uploads;
    console.log(
      `GET /account during 4×20 MB uploads: n=${times.length}, max ${Math.max(...times).toFixed(0)} ms`,
    );
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    // Answered many times over while the uploads were still arriving, every time correctly.
    expect(answeredDuring.length).toBeGreaterThanOrEqual(5);
    expect(new Set(answeredDuring)).toEqual(new Set([200]));
  }, 180_000);
});
