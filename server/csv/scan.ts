/**
 * The one pass over an upload that decides whether it can be taken and what it costs: the email
 * column, its non-empty cells (credits), and the refusals (no column, too wide, no addresses).
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { MAX_COLUMNS } from '@verimark/contract';
import { findEmailColumn } from '@verimark/contract/email-column';
import { type Dialect, dialectOf, isBlank, RowTooLongError, rowBatchesOf, SAMPLE_BYTES } from './rows';
import { TimeSlice } from './time-slice';

export interface Scan {
  dialect: Dialect;
  header: string[];
  emailIndex: number;
  /** Non-empty cells of the email column: the credits the file costs. */
  emails: number;
}

/** Why an upload cannot be taken. */
export type ScanProblem = 'no_column' | 'too_wide' | 'too_short' | 'no_addresses' | 'too_long';

/**
 * What one pass over an upload's rows finds before the email column is known (the `emailColumn`
 * field may come after the file in the multipart body): every column's filled cells are counted.
 */
export interface RowCounts {
  dialect: Dialect;
  /** The first row; null for a file without rows. */
  header: string[] | null;
  /** Non-empty (after trimming) cells of each header column, over the data rows. */
  filled: number[];
  /** Cells that padding short rows to the header's width adds. */
  padding: number;
  /** A row longer than MAX_ROW_BYTES ended the pass (RowTooLongError); the counts stop there. */
  tooLong: boolean;
}

/**
 * Cells that padding short rows to the header's width may add: as many as the upload has bytes
 * (at least 1 Mi), so the original columns of the results are at most about twice the upload.
 */
function paddingBudget(uploadBytes: number): number {
  return Math.max(uploadBytes, 1024 * 1024);
}

/** Decodes byte chunks as UTF-8 (a character split between chunks stays whole). */
async function* decoded(head: Buffer[], rest: AsyncIterator<Buffer> | null): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  for (const chunk of head) yield decoder.write(chunk);
  if (rest) for await (const chunk of { [Symbol.asyncIterator]: () => rest }) yield decoder.write(chunk);
  const end = decoder.end();
  if (end !== '') yield end;
}

/** Takes each data row of the pass (e.g. the batches stored at upload); a promise slows it down. */
export interface RowSink {
  add(row: string[]): Promise<void> | undefined;
}

/**
 * One streaming pass over an upload's bytes, as they arrive or from disk: dialect (from the first
 * SAMPLE_BYTES), header and counts, or `too_wide` as soon as the header shows it; every data row
 * also goes to `sink`, in order. Rows are read by rowBatchesOf, so with its bounds and event-loop
 * time slicing.
 */
export async function countRows(
  input: AsyncIterable<Buffer>,
  sink?: RowSink,
): Promise<RowCounts | 'too_wide'> {
  const source = input[Symbol.asyncIterator]();
  try {
    const head: Buffer[] = [];
    let headBytes = 0;
    let ended = false;
    while (headBytes < SAMPLE_BYTES) {
      const next = await source.next();
      if (next.done) {
        ended = true;
        break;
      }
      head.push(next.value);
      headBytes += next.value.length;
    }
    const dialect = dialectOf(Buffer.concat(head));
    const counts: RowCounts = { dialect, header: null, filled: [], padding: 0, tooLong: false };
    try {
      const text = decoded(head, ended ? null : source);
      if ((await countInto(counts, text, sink)) === 'too_wide') return 'too_wide';
    } catch (err) {
      if (!(err instanceof RowTooLongError)) throw err;
      counts.tooLong = true;
    }
    return counts;
  } finally {
    await source.return?.();
  }
}

async function countInto(
  counts: RowCounts,
  text: AsyncIterable<string>,
  sink: RowSink | undefined,
): Promise<'too_wide' | undefined> {
  const slice = new TimeSlice();
  for await (const rows of rowBatchesOf(text, counts.dialect)) {
    for (const row of rows) {
      if (slice.due()) await slice.pause(); // a batch of tiny rows can be long: tens of thousands
      const header = counts.header;
      if (header === null) {
        if (row.length > MAX_COLUMNS) return 'too_wide';
        counts.header = row;
        counts.filled = new Array<number>(row.length).fill(0);
        continue;
      }
      const width = Math.min(row.length, header.length);
      for (let i = 0; i < width; i++)
        if (!isBlank(row[i] ?? '')) counts.filled[i] = (counts.filled[i] ?? 0) + 1;
      if (row.length < header.length) counts.padding += header.length - row.length;
      const wait = sink?.add(row);
      if (wait) await wait;
    }
  }
  return undefined;
}

/**
 * The upload's scan once its fields are known: the email column, the credits it costs, or the
 * problem that refuses it (docs/design.md §3). `uploadBytes` is the upload's size.
 */
export function scanOf(
  counts: RowCounts | 'too_wide',
  emailColumn: string | null,
  uploadBytes: number,
): Scan | ScanProblem {
  if (typeof counts === 'string') return counts;
  const { dialect, header } = counts;
  if (header === null) return counts.tooLong ? 'too_long' : 'no_column';
  const emailIndex = findEmailColumn(header, emailColumn);
  if (emailIndex < 0) return 'no_column';
  // The order a pass over the file met them: padding grows row by row, up to a too-long one.
  if (counts.padding > paddingBudget(uploadBytes)) return 'too_short';
  if (counts.tooLong) return 'too_long';
  const emails = counts.filled[emailIndex] ?? 0;
  if (emails === 0) return 'no_addresses';
  return { dialect, header, emailIndex, emails };
}

/** countRows and scanOf over a file on disk. */
export async function scanUpload(path: string, emailColumn: string | null): Promise<Scan | ScanProblem> {
  const counts = await countRows(createReadStream(path));
  return scanOf(counts, emailColumn, (await stat(path)).size);
}
