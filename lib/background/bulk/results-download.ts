/**
 * "More download options" and the results preview: the results CSV is fetched from a fresh signed
 * URL (no key needed) and filtered as it streams in (results-subset.ts), so subsets work with any
 * service and any size up to the 25 MB limit without holding the file. The subset is saved through
 * the downloads API from a blob URL as `<name>-<subset>.csv` (the suffix translated): made by the background page in
 * Firefox, by the offscreen document in Chrome (lib/offscreen/document.ts).
 */
import { browser } from 'wxt/browser';
import { ApiError } from '@/lib/api/errors';
import { ensureOffscreen, holdOffscreen, releaseOffscreen } from '@/lib/offscreen/document';
import type { OffscreenRequest, OffscreenSubsetAnswer } from '@/lib/offscreen/protocol';
import { type MessageKey, t } from '@/lib/shared/i18n';
import type { ResultPreview, Subset } from '@/lib/shared/views';
import { resultFileName, resultsUrl } from './downloads';
import { previewRows } from './results-subset';
import { type SubsetFailure, subsetBlob } from './subset-blob';
import { whenDownloadEnds } from './when-download-ends';

/** Bytes read for a preview: enough for a few rows of any sane file. */
const PREVIEW_BYTES = 64 * 1024;
/** A blob URL is let go once its download ends, or after this long at most. */
const REVOKE_AFTER_MS = 10 * 60_000;

async function fetchResults(fileId: string): Promise<Response> {
  const url = await resultsUrl(fileId);
  let res: Response;
  try {
    res = await fetch(url, { redirect: 'error' });
  } catch (err) {
    throw new ApiError('network', t('api_unreachable', String(err)));
  }
  if (!res.ok) throw new ApiError('server', t('bg_results_unreadable', String(res.status)), res.status);
  return res;
}

/** A subset's blob URL, and how to let go of it once its download is over. */
interface SubsetUrl {
  url: string;
  rows: number;
  revoke: () => void;
}

/** A subset's failure (from here or the offscreen document) in the person's language. */
export function subsetError(failure: SubsetFailure): ApiError {
  switch (failure.kind) {
    case 'no_verdicts':
      return new ApiError('server', t('bg_results_no_verdicts'));
    case 'http':
      return new ApiError(
        'server',
        t('bg_results_unreadable', failure.detail),
        Number(failure.detail) || null,
      );
    case 'unreachable':
      return new ApiError('network', t('api_unreachable', failure.detail));
    default:
      return new ApiError('network', t('bg_results_broken', failure.detail));
  }
}

/** `leads-deliverable.csv` and the like, the suffix in the person's language. */
const SUBSET_SUFFIX: Record<Subset, MessageKey> = {
  deliverable: 'file_suffix_deliverable',
  deliverable_and_risky: 'file_suffix_deliverable_and_risky',
  undeliverable: 'file_suffix_undeliverable',
};

/** Firefox's background page (and any context with blob URLs): built and made here. */
async function subsetHere(url: string, subset: Subset): Promise<SubsetUrl> {
  const built = await subsetBlob(url, subset);
  if (!built.ok) throw subsetError(built);
  const blobUrl = URL.createObjectURL(built.blob);
  return { url: blobUrl, rows: built.rows, revoke: () => URL.revokeObjectURL(blobUrl) };
}

/** Chrome's service worker: built in the offscreen document, which owns the blob URL. */
async function subsetOffscreen(url: string, subset: Subset): Promise<SubsetUrl> {
  await holdOffscreen();
  let answer: OffscreenSubsetAnswer | undefined;
  const request: OffscreenRequest = { verimarkOffscreen: 'subset', url, subset };
  const ask = async () => (await browser.runtime.sendMessage(request)) as OffscreenSubsetAnswer | undefined;
  try {
    // The document closes itself once idle (lib/offscreen/subset-page.ts): if it did so just as
    // this request left, it is opened again and asked once more.
    answer = await ask().catch(async () => {
      await ensureOffscreen();
      return ask();
    });
  } catch (err) {
    await releaseOffscreen();
    throw err;
  }
  if (!answer?.ok) {
    await releaseOffscreen();
    throw answer ? subsetError(answer) : new ApiError('server', t('bg_download_failed'));
  }
  const blobUrl = answer.url;
  const revoke = () => {
    const message: OffscreenRequest = { verimarkOffscreen: 'revoke', url: blobUrl };
    browser.runtime
      .sendMessage(message)
      .catch(() => undefined)
      .finally(() => releaseOffscreen());
  };
  return { url: blobUrl, rows: answer.rows, revoke };
}

export async function downloadSubset(input: { fileId: string; fileName: string; subset: Subset }) {
  const url = await resultsUrl(input.fileId);
  const made =
    typeof URL.createObjectURL === 'function'
      ? await subsetHere(url, input.subset)
      : await subsetOffscreen(url, input.subset);
  const filename = resultFileName(input.fileName, t(SUBSET_SUFFIX[input.subset]));
  let downloadId: number;
  try {
    downloadId = await browser.downloads.download({ url: made.url, filename });
  } catch (err) {
    made.revoke();
    console.warn('[verimark] subset download failed', err);
    throw new ApiError('network', t('bg_download_failed'));
  }
  whenDownloadEnds(downloadId, REVOKE_AFTER_MS).then(made.revoke, made.revoke);
  return { downloadId, rows: made.rows };
}

export async function previewResults(input: { fileId: string; limit: number }): Promise<ResultPreview> {
  const limit = Math.max(1, Math.min(20, Math.floor(input.limit) || 5));
  const res = await fetchResults(input.fileId);
  const reader = res.body?.getReader();
  if (!reader) return previewRows(await res.text(), limit);
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (value) text += decoder.decode(value, { stream: !done });
    if (done) break;
    if (text.length >= PREVIEW_BYTES) {
      await reader.cancel().catch(() => undefined);
      // The last line may be cut: drop it.
      text = text.slice(0, text.lastIndexOf('\n') + 1);
      break;
    }
  }
  return previewRows(text, limit);
}
