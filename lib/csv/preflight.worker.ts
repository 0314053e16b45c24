/** Runs the CSV preflight off the popup's main thread: receives a File, answers a PreflightResult. */
import { type PreflightResult, preflight } from './preflight';

self.onmessage = async (event: MessageEvent<Blob>) => {
  let result: PreflightResult;
  try {
    result = preflight(new Uint8Array(await event.data.arrayBuffer()));
  } catch {
    result = { ok: false, error: 'binary' };
  }
  self.postMessage(result);
};
