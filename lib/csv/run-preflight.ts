/** Starts the preflight of a file in a Web Worker and resolves with its result. */
import { MAX_UPLOAD_BYTES } from '@verimark/contract';
import type { PreflightResult } from './preflight';
import PreflightWorker from './preflight.worker.ts?worker';

export function runPreflight(file: Blob): Promise<PreflightResult> {
  // Known without reading a byte: no need to ship 25MB+ to a worker.
  if (file.size > MAX_UPLOAD_BYTES) return Promise.resolve({ ok: false, error: 'too_large' });
  if (file.size === 0) return Promise.resolve({ ok: false, error: 'empty' });
  return new Promise((resolve, reject) => {
    const worker = new PreflightWorker();
    worker.onmessage = (event: MessageEvent<PreflightResult>) => {
      worker.terminate();
      resolve(event.data);
    };
    worker.onerror = (event) => {
      worker.terminate();
      reject(new Error(event.message || 'preflight worker failed'));
    };
    worker.postMessage(file);
  });
}
