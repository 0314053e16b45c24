/**
 * Downloading results: a status call issues a fresh signed URL (they expire after an hour),
 * saved through the downloads API as `<name>-verified.csv` ("verified" in the person's language). The service's Content-Disposition
 * suggests `<name>-results.csv` for plain browser downloads; the `filename` given here wins in
 * Chromium and Firefox.
 */
import { browser } from 'wxt/browser';
import { ApiError } from '@/lib/api/errors';
import { getClient } from '@/lib/background/core/service';
import { t } from '@/lib/shared/i18n';
import { getSettings } from '@/lib/storage/settings';

/** Longest base name kept, in UTF-8 bytes: with the suffix well under every file system's 255. */
export const MAX_BASE_BYTES = 120;
/**
 * Characters Chromium's downloads API refuses in a file name (it fails the whole download with
 * "Invalid filename"): path separators, `: * ? " < > |`, control and invisible format characters
 * (a bidi override could disguise the extension). `%` is allowed but silently replaced, so it is
 * replaced here and the name asked for is the name saved.
 */
const UNSAFE = /[\p{Cc}\p{Cf}/\\:*?"<>|%]+/gu;
const EXTENSION = /\.(csv|txt)$/i;
/** Refused at the start of a name (a dot: hidden; `~`; spaces) and at its end (dots, spaces). */
const ENDS = /^[.\s~]+|[.\s]+$/gu;
/** Windows device names followed by a dot: refused by Chromium on every platform. */
const DEVICE = /^(con|prn|aux|nul|com\d|lpt\d|clock\$)\./i;

/** Drops dots and spaces at both ends and every trailing `.csv`/`.txt`, until none is left. */
function trimEnds(text: string): string {
  let out = text;
  for (let prev = ''; prev !== out; ) {
    prev = out;
    out = out.replace(EXTENSION, '').replace(ENDS, '');
  }
  return out;
}

/** Cuts to at most `max` UTF-8 bytes without splitting a character. */
function capBytes(text: string, max: number): string {
  const encoder = new TextEncoder();
  let out = '';
  let bytes = 0;
  for (const char of text) {
    bytes += encoder.encode(char).length;
    if (bytes > max) break;
    out += char;
  }
  return out;
}

/**
 * `leads.csv` → `leads-verified.csv`: one file name (no folders), nothing a downloads API
 * refuses or rewrites, no leading dot (hidden file), a length cap, and `.csv` once at the end.
 */
export function resultFileName(fileName: string, suffix = t('file_suffix_verified')): string {
  const cleaned = trimEnds(fileName.normalize('NFC').replace(UNSAFE, '_'));
  const base = trimEnds(capBytes(cleaned, MAX_BASE_BYTES)) || t('file_results');
  const tail = trimEnds(suffix.normalize('NFC').replace(UNSAFE, '_')) || 'verified';
  return `${DEVICE.test(base) ? '_' : ''}${base}-${tail}.csv`;
}

/** A fresh signed URL of a completed file's results CSV, absolute. */
export async function resultsUrl(fileId: string): Promise<string> {
  const client = await getClient();
  const status = await client.bulkStatus(fileId);
  if (status.download_url === '') {
    throw new ApiError('bad_request', t('bg_results_not_ready'));
  }
  const { serviceUrl } = await getSettings();
  return checkResultsLink(status.download_url, serviceUrl);
}

/**
 * A results link as the service gave it, made absolute against the service URL. It must be
 * `https:`: the results CSV holds every column of the upload. Only a service that is itself plain
 * `http:` (a loopback or LAN install) may give an `http:` link, and only to its own host.
 */
export function checkResultsLink(link: string, serviceUrl: string): string {
  const service = new URL(`${serviceUrl.replace(/\/+$/, '')}/`);
  const url = new URL(link, service);
  const plainSameHost = url.protocol === 'http:' && service.protocol === 'http:' && url.host === service.host;
  if (url.protocol !== 'https:' && !plainSameHost)
    throw new ApiError('server', t('bg_results_link_insecure', `${url.protocol}//${url.host}`));
  return url.toString();
}

export async function downloadResults(input: { fileId: string; fileName: string }) {
  const url = await resultsUrl(input.fileId);
  let downloadId: number | null = null;
  try {
    downloadId = await browser.downloads.download({ url, filename: resultFileName(input.fileName) });
  } catch (err) {
    console.warn('[verimark] download failed', err);
    throw new ApiError('network', t('bg_download_failed'));
  }
  return { downloadId, url };
}
