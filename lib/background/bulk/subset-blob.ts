/**
 * A results subset as a Blob, built where blob URLs can be made: the background page (Firefox
 * MV2) or the offscreen document (Chrome MV3, whose service worker has no URL.createObjectURL).
 * The results CSV is fetched from its signed URL (no key needed) and streamed through the filter.
 */
import type { Subset } from '@/lib/shared/views';
import { filterResults, NoVerdictColumnError } from './results-subset';

/** Why a subset could not be built, as a message across contexts can carry it. */
export type SubsetFailure = { ok: false; kind: 'network' | 'server' | 'no_verdicts'; message: string };

export async function subsetBlob(
  url: string,
  subset: Subset,
): Promise<{ ok: true; blob: Blob; rows: number } | SubsetFailure> {
  let res: Response;
  try {
    res = await fetch(url, { redirect: 'error' });
  } catch (err) {
    return { ok: false, kind: 'network', message: `Cannot reach the service (${String(err)})` };
  }
  if (!res.ok || !res.body) {
    return { ok: false, kind: 'server', message: `The results could not be read (HTTP ${res.status})` };
  }
  try {
    return { ok: true, ...(await filterResults(res.body, subset)) };
  } catch (err) {
    if (err instanceof NoVerdictColumnError) return { ok: false, kind: 'no_verdicts', message: err.message };
    return { ok: false, kind: 'network', message: `The results could not be read (${String(err)})` };
  }
}
