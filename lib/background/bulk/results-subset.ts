/**
 * Result subsets computed in the extension, so they work with any service: the results CSV is
 * streamed, parsed a block of records at a time (papaparse) and only the rows of the chosen
 * verdicts are kept, header first, in a Blob. Cells are written by the same rule as the service's
 * results file (contract/src/csv-cell.ts): a formula cell another service left as is goes out
 * neutralised, one already neutralised stays as it is, and a cell holding `;` or TAB is quoted.
 */

import type { Verdict } from '@verimark/contract';
import { csvLine } from '@verimark/contract/csv-cell';
import Papa from 'papaparse';
import { verdictOf } from '@/lib/api/verdict';
import { looksLikeEmail } from '@/lib/csv/detect-column';
import type { ResultPreview, Subset } from '@/lib/shared/views';

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

/** Text is cut into blocks of at least this many characters, each ending at a record boundary. */
const BLOCK_CHARS = 256 * 1024;
/** Kept CSV text is gathered into one Blob part per this many characters (few, large parts). */
const PART_CHARS = 1024 * 1024;

/** The text of a byte stream, decoded as UTF-8 a chunk at a time (a leading BOM dropped). */
async function* textOf(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const text = decoder.decode(value, { stream: true });
      if (text !== '') yield text;
    }
    const rest = decoder.decode();
    if (rest !== '') yield rest;
  } finally {
    reader.releaseLock();
  }
}

/**
 * CSV text in blocks that end at a record boundary: a line feed outside quotes (a quoted cell
 * may hold line breaks; an escaped quote `""` toggles twice, so the parity stays right).
 */
export async function* csvBlocks(
  chunks: AsyncIterable<string>,
  minChars = BLOCK_CHARS,
): AsyncGenerator<string> {
  let buffer = '';
  let scanned = 0;
  let inQuotes = false;
  let boundary = -1;
  for await (const chunk of chunks) {
    buffer += chunk;
    for (let i = scanned; i < buffer.length; i++) {
      const code = buffer.charCodeAt(i);
      if (code === 34) inQuotes = !inQuotes;
      else if (code === 10 && !inQuotes) boundary = i;
    }
    scanned = buffer.length;
    if (boundary >= 0 && boundary + 1 >= minChars) {
      yield buffer.slice(0, boundary + 1);
      buffer = buffer.slice(boundary + 1);
      scanned -= boundary + 1;
      boundary = -1;
    }
  }
  if (buffer !== '') yield buffer;
}

/** Kept text gathered into Blob parts, so no long list of strings (or copy of the file) is held. */
class BlobBuilder {
  private parts: Blob[] = [];
  private pending: string[] = [];
  private pendingChars = 0;

  add(text: string): void {
    this.pending.push(text);
    this.pendingChars += text.length;
    if (this.pendingChars >= PART_CHARS) this.flush();
  }

  private flush(): void {
    if (this.pending.length > 0) this.parts.push(new Blob(this.pending));
    this.pending = [];
    this.pendingChars = 0;
  }

  build(): Blob {
    this.flush();
    return new Blob(this.parts, { type: 'text/csv' });
  }
}

/** A results CSV: its response body as it streams in, or (tests) its text. */
type CsvSource = ReadableStream<Uint8Array> | string;

async function* single(text: string): AsyncGenerator<string> {
  yield text;
}

/**
 * The rows of `source` whose verdict is in `subset`, as one CSV Blob (header first), and how
 * many rows were kept. The source is read as it arrives, one block of records at a time (parsed
 * with papaparse), so the whole file is never held. Rejects with NoVerdictColumnError when the
 * header has no verdict column.
 */
export async function filterResults(
  source: CsvSource,
  subset: Subset,
): Promise<{ blob: Blob; rows: number }> {
  const keep = KEEP[subset];
  const out = new BlobBuilder();
  const text = typeof source === 'string' ? single(source) : textOf(source);
  let column: number | null = null;
  let rows = 0;
  for await (const block of csvBlocks(text)) {
    let body = Papa.parse<string[]>(block, { skipEmptyLines: 'greedy' }).data;
    if (column === null) {
      const [header, ...rest] = body;
      if (!header) continue;
      column = statusColumnOf(header);
      if (column < 0) {
        if (typeof source !== 'string') await source.cancel().catch(() => undefined);
        throw new NoVerdictColumnError('The results have no verdict column');
      }
      out.add(csvLine(header));
      body = rest;
    }
    const at = column;
    const kept = body.filter((row) => {
      const verdict = verdictOf(row[at] ?? '');
      return verdict !== null && keep.has(verdict);
    });
    rows += kept.length;
    if (kept.length > 0) out.add(kept.map(csvLine).join(''));
  }
  return { blob: out.build(), rows };
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
