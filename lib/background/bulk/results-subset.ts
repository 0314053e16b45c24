/**
 * Result subsets computed in the extension, so they work with any service: the results CSV is
 * parsed a chunk at a time (papaparse) and only the rows of the chosen verdicts are kept, header
 * first. Cells are copied as the service wrote them (its formula escaping included).
 */

import type { Verdict } from '@verimark/contract';
import Papa from 'papaparse';
import type { ResultPreview, Subset } from '@/lib/shared/views';
import { verdictOf } from '../../api/verdict';
import { looksLikeEmail } from '../../csv/detect-column';

/** Header names that hold the verdict in a results CSV, ours first. */
const STATUS_HEADERS = ['verification_status', 'status', 'result', 'verdict', 'email_status'];
const REASON_HEADERS = ['verification_reason', 'reason', 'sub_status'];

const KEEP: Record<Subset, ReadonlySet<Verdict>> = {
  deliverable: new Set(['deliverable']),
  deliverable_and_risky: new Set(['deliverable', 'risky']),
  undeliverable: new Set(['undeliverable']),
};

function columnOf(headers: readonly string[], names: readonly string[]): number {
  const lower = headers.map((h) => h.trim().toLowerCase());
  for (const name of names) {
    const index = lower.lastIndexOf(name);
    if (index >= 0) return index;
  }
  return -1;
}

/** The verdict column of a results header, or -1. The last match wins: ours are appended. */
const statusColumnOf = (headers: readonly string[]) => columnOf(headers, STATUS_HEADERS);

export class NoVerdictColumnError extends Error {}

/** A CSV source papaparse streams: the results file, or its text. */
type CsvSource = File | string;

/**
 * The rows of `source` whose verdict is in `subset`, as CSV text parts (header first), and how
 * many rows were kept. Rejects with NoVerdictColumnError when the header has no verdict column.
 */
export function filterResults(source: CsvSource, subset: Subset): Promise<{ parts: string[]; rows: number }> {
  const keep = KEEP[subset];
  return new Promise((resolve, reject) => {
    const parts: string[] = [];
    let column: number | null = null;
    let rows = 0;
    let failed = false;
    Papa.parse<string[]>(source as File, {
      skipEmptyLines: 'greedy',
      chunkSize: 256 * 1024,
      chunk: ({ data }, parser) => {
        if (failed) return;
        let body = data;
        if (column === null) {
          const [header = [], ...rest] = data;
          column = statusColumnOf(header);
          if (column < 0) {
            failed = true;
            parser.abort();
            reject(new NoVerdictColumnError('The results have no verdict column'));
            return;
          }
          parts.push(`${Papa.unparse([header])}\r\n`);
          body = rest;
        }
        const at = column;
        const kept = body.filter((row) => {
          const verdict = verdictOf(row[at] ?? '');
          return verdict !== null && keep.has(verdict);
        });
        rows += kept.length;
        if (kept.length > 0) parts.push(`${Papa.unparse(kept)}\r\n`);
      },
      complete: () => {
        if (!failed) resolve({ parts, rows });
      },
      error: (err: Error) => reject(err),
    });
  });
}

/** The address column of a results file: the one whose values look most like addresses. */
function emailColumnOf(rows: readonly string[][], width: number): number {
  let best = 0;
  let bestCount = -1;
  for (let i = 0; i < width; i++) {
    const count = rows.filter((row) => looksLikeEmail(row[i] ?? '')).length;
    if (count > bestCount) {
      best = i;
      bestCount = count;
    }
  }
  return best;
}

/** The first `limit` rows of a results CSV's text: address, verdict (our word when known) and reason. */
export function previewRows(text: string, limit: number): ResultPreview {
  const parsed = Papa.parse<string[]>(text, { skipEmptyLines: 'greedy', preview: limit + 1 });
  const [header = [], ...rows] = parsed.data;
  const status = statusColumnOf(header);
  const reason = columnOf(header, REASON_HEADERS);
  const email = emailColumnOf(rows, status < 0 ? header.length : Math.min(status, header.length));
  return {
    rows: rows.map((row) => {
      const raw = status < 0 ? '' : (row[status] ?? '');
      return {
        email: row[email] ?? '',
        status: verdictOf(raw) ?? raw,
        reason: reason < 0 ? '' : (row[reason] ?? ''),
      };
    }),
  };
}
