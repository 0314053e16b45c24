/**
 * Downloading results: a status call issues a fresh signed URL (they expire after an hour),
 * saved through the downloads API as `<name>-verified.csv`.
 */
import { browser } from 'wxt/browser';
import { ApiError } from '../api/errors';
import { getSettings } from '../storage/settings';
import { msg } from './i18n';
import { getClient } from './service';

/** `leads.csv` → `leads-verified.csv`, without path separators or control characters. */
export function resultFileName(fileName: string): string {
  const base = fileName
    .replace(/\.(csv|txt)$/i, '')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
    .replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, '_')
    .replace(/^[.\s]+|[.\s]+$/g, '');
  return `${base || 'results'}-verified.csv`;
}

export async function downloadResults(input: { fileId: string; fileName: string }) {
  const client = await getClient();
  const status = await client.bulkStatus(input.fileId);
  if (status.download_url === '') {
    throw new ApiError(
      'bad_request',
      msg('bg_results_not_ready', 'The results of this file are not ready yet'),
    );
  }
  const { serviceUrl } = await getSettings();
  const url = new URL(status.download_url, `${serviceUrl.replace(/\/+$/, '')}/`).toString();
  let downloadId: number | null = null;
  try {
    downloadId = await browser.downloads.download({ url, filename: resultFileName(input.fileName) });
  } catch (err) {
    console.warn('[verimark] download failed', err);
    throw new ApiError('network', msg('bg_download_failed', 'The download could not be started'));
  }
  return { downloadId, url };
}
