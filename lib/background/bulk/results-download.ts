/**
 * "More download options" and the results preview: the results CSV is fetched from a fresh signed
 * URL (no key needed) and filtered here (results-subset.ts), so subsets work with any service.
 * The subset is saved through the downloads API as `<name>-<subset>.csv`.
 */
import { browser } from 'wxt/browser';
import { t } from '@/lib/shared/i18n';
import type { ResultPreview, Subset } from '@/lib/shared/views';
import { ApiError } from '../../api/errors';
import { resultFileName, resultsUrl } from './downloads';
import { filterResults, NoVerdictColumnError, previewRows } from './results-subset';

/** Bytes read for a preview: enough for a few rows of any sane file. */
const PREVIEW_BYTES = 64 * 1024;
/** A blob URL outlives the download's start by this much (the browser reads it asynchronously). */
const REVOKE_AFTER_MS = 60_000;

async function fetchResults(fileId: string): Promise<Response> {
  const url = await resultsUrl(fileId);
  let res: Response;
  try {
    res = await fetch(url, { redirect: 'error' });
  } catch (err) {
    throw new ApiError('network', `Cannot reach the service (${String(err)})`);
  }
  if (!res.ok) throw new ApiError('server', `The results could not be read (HTTP ${res.status})`, res.status);
  return res;
}

/** A URL the downloads API can save: a blob URL where the context has them, else a data URL (Chromium's service worker). */
async function downloadableUrl(blob: Blob): Promise<{ url: string; revoke: () => void }> {
  if (typeof URL.createObjectURL === 'function') {
    const url = URL.createObjectURL(blob);
    return { url, revoke: () => setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS) };
  }
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return { url: `data:text/csv;base64,${btoa(binary)}`, revoke: () => undefined };
}

export async function downloadSubset(input: { fileId: string; fileName: string; subset: Subset }) {
  const res = await fetchResults(input.fileId);
  // Streamed from the file a chunk at a time where FileReader exists; from its text otherwise.
  const file =
    typeof FileReader === 'function'
      ? new File([await res.blob()], 'results.csv', { type: 'text/csv' })
      : await res.text();
  let kept: Awaited<ReturnType<typeof filterResults>>;
  try {
    kept = await filterResults(file, input.subset);
  } catch (err) {
    if (err instanceof NoVerdictColumnError) throw new ApiError('server', t('bg_results_no_verdicts'));
    throw err;
  }
  const { url, revoke } = await downloadableUrl(new Blob(kept.parts, { type: 'text/csv' }));
  const filename = resultFileName(input.fileName, input.subset.replaceAll('_', '-'));
  try {
    const downloadId = await browser.downloads.download({ url, filename });
    return { downloadId, rows: kept.rows };
  } catch (err) {
    console.warn('[verimark] subset download failed', err);
    throw new ApiError('network', t('bg_download_failed'));
  } finally {
    revoke();
  }
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
