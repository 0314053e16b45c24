/**
 * A results subset as a Blob, built where blob URLs can be made: the background page (Firefox
 * MV2) or the offscreen document (Chrome MV3, whose service worker has no URL.createObjectURL).
 * The results CSV is fetched from its signed URL (no key needed) and streamed through the filter.
 * A failure carries what went wrong, not a sentence: the offscreen document has no i18n (only
 * chrome.runtime), so the background words it in the person's language (`subsetError`).
 */
import type { Subset } from '@/lib/shared/views';
import { filterResults, NoVerdictColumnError } from './results-subset';

/**
 * Why a subset could not be built, as a message across contexts can carry it: the service could
 * not be reached, answered with an HTTP error (`detail` the status), the body broke off, or the
 * results have no verdict column. `detail` is the browser's own error text or the status.
 */
export type SubsetFailure = {
  ok: false;
  kind: 'unreachable' | 'http' | 'unreadable' | 'no_verdicts';
  detail: string;
};

export async function subsetBlob(
  url: string,
  subset: Subset,
): Promise<{ ok: true; blob: Blob; rows: number } | SubsetFailure> {
  let res: Response;
  try {
    res = await fetch(url, { redirect: 'error' });
  } catch (err) {
    return { ok: false, kind: 'unreachable', detail: String(err) };
  }
  if (!res.ok || !res.body) {
    return { ok: false, kind: 'http', detail: String(res.status) };
  }
  try {
    return { ok: true, ...(await filterResults(res.body, subset)) };
  } catch (err) {
    if (err instanceof NoVerdictColumnError) return { ok: false, kind: 'no_verdicts', detail: '' };
    return { ok: false, kind: 'unreadable', detail: String(err) };
  }
}
