/**
 * The preflight of a CSV before upload (runs in a Web Worker, see preflight.worker.ts):
 * size, encoding, header, a preview, and per column the number of non-empty cells (the
 * credits an upload with that email column takes) and of values that look like addresses.
 */

import { MAX_UPLOAD_BYTES } from '@verimark/contract';
import Papa from 'papaparse';
import { detectEmailColumn, looksLikeEmail } from './detect-column';
import { type SniffError, sniff } from './sniff';

export type PreflightError = SniffError | 'too_large' | 'no_header' | 'no_rows';

export interface PreflightSummary {
  ok: true;
  headers: string[];
  /** The first rows after the header, for the preview. */
  preview: string[][];
  rowCount: number;
  /** Per column: non-empty cells, i.e. the credits an upload with that email column takes. */
  nonEmpty: number[];
  /** Per column: sampled values that look like email addresses. */
  emailLike: number[];
  /** Per column: non-empty values among the sampled rows (the first SAMPLE_ROWS). */
  sampledNonEmpty?: number[];
  /** The preselected email column, or -1. */
  emailColumn: number;
}

export type PreflightResult = PreflightSummary | { ok: false; error: PreflightError };

const PREVIEW_ROWS = 5;
export const SAMPLE_ROWS = 500;

export function preflight(bytes: Uint8Array): PreflightResult {
  if (bytes.length > MAX_UPLOAD_BYTES) return { ok: false, error: 'too_large' };
  const sniffed = sniff(bytes);
  if (!sniffed.ok) return sniffed;

  let headers: string[] | null = null;
  const preview: string[][] = [];
  let nonEmpty: number[] = [];
  let emailLike: number[] = [];
  let sampledNonEmpty: number[] = [];
  let rowCount = 0;
  Papa.parse<string[]>(sniffed.text, {
    skipEmptyLines: 'greedy',
    step: ({ data }) => {
      if (headers === null) {
        headers = data.map((h) => h.trim());
        nonEmpty = headers.map(() => 0);
        emailLike = headers.map(() => 0);
        sampledNonEmpty = headers.map(() => 0);
        return;
      }
      if (rowCount < PREVIEW_ROWS) preview.push(data);
      const sampled = rowCount < SAMPLE_ROWS;
      rowCount++;
      for (let i = 0; i < nonEmpty.length; i++) {
        const cell = data[i]?.trim() ?? '';
        if (cell === '') continue;
        nonEmpty[i] = (nonEmpty[i] ?? 0) + 1;
        if (!sampled) continue;
        sampledNonEmpty[i] = (sampledNonEmpty[i] ?? 0) + 1;
        if (looksLikeEmail(cell)) emailLike[i] = (emailLike[i] ?? 0) + 1;
      }
    },
  });
  const head: string[] = headers ?? [];
  // A header row holding an address (or nothing at all) means the file has no header.
  if (head.every((h) => h === '') || head.some((h) => looksLikeEmail(h) || h.includes('@'))) {
    return { ok: false, error: 'no_header' };
  }
  if (rowCount === 0) return { ok: false, error: 'no_rows' };
  const emailColumn = detectEmailColumn(head, emailLike);
  return { ok: true, headers: head, preview, rowCount, nonEmpty, emailLike, sampledNonEmpty, emailColumn };
}
