/**
 * Reading an upload's CSV: dialect detection, rows streamed through papaparse with a bound on a
 * row's size, blank cells, and rows padded to the header's width.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { MAX_ROW_BYTES } from '@verimark/contract';
import Papa from 'papaparse';
import { TimeSlice } from './time-slice';

/**
 * Characters String.prototype.trim removes besides those up to U+0020: NBSP, the Unicode space
 * separators (Zs), the line and paragraph separators and the BOM.
 */
const WIDE_SPACE = /[\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/;

/**
 * `cell.trim() === ''` without making the trimmed copy: a cell's first character nearly always
 * decides it, and counting cells of a 25 MB upload calls this for every one of them.
 */
export function isBlank(cell: string): boolean {
  for (let i = 0; i < cell.length; i++) {
    const code = cell.charCodeAt(i);
    if (code === 0x20 || (code >= 0x09 && code <= 0x0d)) continue;
    if (code < 0xa0 || !WIDE_SPACE.test(cell[i] ?? '')) return false;
  }
  return true;
}

/** Delimiter and line break of an uploaded file, detected once at upload and kept with the job. */
export interface Dialect {
  delimiter: string;
  newline: string;
}

/** Bytes at the start of a file that the dialect is detected from. */
export const SAMPLE_BYTES = 64 * 1024;
/**
 * Read size for parsing. Each chunk is parsed in one go (a few ms at this size); an unfinished
 * row is carried over and parsed once its line ends, so a long row costs linear time.
 */
const READ_CHUNK_BYTES = 64 * 1024;

const NEWLINES = ['\r\n', '\n', '\r'];

/** Detects the dialect from the start of the file (papaparse's guessing, pinned for later passes). */
export async function detectDialect(path: string): Promise<Dialect> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(SAMPLE_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SAMPLE_BYTES, 0);
    return dialectOf(buffer.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

/** The dialect of a file from its first bytes (up to SAMPLE_BYTES of them are looked at). */
export function dialectOf(start: Buffer): Dialect {
  const sample = new StringDecoder('utf8').write(start.subarray(0, SAMPLE_BYTES));
  const { meta } = Papa.parse<string[]>(sample, { preview: 10, skipEmptyLines: 'greedy' });
  const delimiter = meta.delimiter && meta.delimiter.length === 1 ? meta.delimiter : ',';
  const newline = NEWLINES.includes(meta.linebreak) ? meta.linebreak : '\n';
  return { delimiter, newline };
}

/**
 * A record longer than MAX_ROW_BYTES: parsing it would be one synchronous step of its whole
 * length (a line of millions of cells holds the event loop for seconds), so the file is
 * refused (docs/design.md §3).
 */
export class RowTooLongError extends Error {
  constructor() {
    super(`a row is longer than ${MAX_ROW_BYTES} bytes`);
    this.name = 'RowTooLongError';
  }
}

/**
 * Streams the file's rows (the header first) as arrays of strings, with backpressure: only a
 * chunk or so of the file is in memory at a time. Blank lines (all cells blank) are skipped; a
 * leading BOM is removed. Parsing gives the event loop a turn every few ms.
 *
 * Throws RowTooLongError as soon as more than MAX_ROW_BYTES of one record have been read without
 * its end, so no parse ever sees more than the bound plus one read (64 KiB). Rows up to the bound
 * always pass; the check runs at each read, so a row up to 64 KiB longer may pass too.
 */
export function readRows(path: string, dialect: Dialect): AsyncGenerator<string[]> {
  // Decoded as UTF-8 by the read stream, so a character split between chunks stays whole.
  const input = createReadStream(path, { encoding: 'utf8', highWaterMark: READ_CHUNK_BYTES });
  return rowsOf(input, dialect);
}

/**
 * readRows over any stream of decoded text (an upload as it arrives, for instance): the same
 * rows, the same bounds and time slicing.
 */
export async function* rowsOf(input: AsyncIterable<string>, dialect: Dialect): AsyncGenerator<string[]> {
  const slice = new TimeSlice();
  for await (const rows of rowBatchesOf(input, dialect)) {
    for (const row of rows) {
      yield row;
      await slice.pause();
    }
  }
}

/**
 * The rows of each parse (one read or so) at once, for callers whose work per row is small
 * (counting): no promise per row. The event loop gets a turn between batches every few ms.
 */
export async function* rowBatchesOf(
  input: AsyncIterable<string>,
  dialect: Dialect,
): AsyncGenerator<string[][]> {
  const parser = new Papa.Parser({
    delimiter: dialect.delimiter,
    newline: dialect.newline as Papa.ParseConfig['newline'],
  });
  const lineEnd = dialect.newline.at(-1) ?? '\n';
  const slice = new TimeSlice();
  // Text read but not parsed yet: the unfinished record of the last parse, then later chunks.
  let pending: string[] = [];
  let pendingBytes = 0;
  // No line end read since the last parse: the unfinished record has not ended.
  let lineEndSince = false;
  // An unfinished record (a quoted cell of many lines) is parsed again only once the pending
  // text has doubled, so it costs linear time rather than a parse of it per chunk. Small chunks
  // (an upload arrives in pieces of a few KB) are gathered to READ_CHUNK_BYTES first: a parse
  // has a fixed cost, and 16 KiB pieces parsed one by one took far longer (docs/benchmarks.md).
  let parseAt = READ_CHUNK_BYTES;
  let first = true;
  const parse = (last: boolean): string[][] => {
    const text = pending.join('');
    const result = parser.parse(text, 0, !last) as { data: string[][]; meta: { cursor: number } };
    const rest = last || result.meta.cursor >= text.length ? '' : text.slice(result.meta.cursor);
    pending = rest === '' ? [] : [rest];
    pendingBytes = Buffer.byteLength(rest);
    lineEndSince = false;
    parseAt = Math.max(2 * pendingBytes, READ_CHUNK_BYTES);
    if (pendingBytes > MAX_ROW_BYTES) throw new RowTooLongError();
    const rows: string[][] = [];
    for (const row of result.data) {
      if (first && row.length > 0) {
        row[0] = (row[0] ?? '').replace(/^\uFEFF/, '');
        first = false;
      }
      if (row.every(isBlank)) continue;
      rows.push(row);
    }
    return rows;
  };
  for await (const chunk of input) {
    pending.push(chunk);
    pendingBytes += Buffer.byteLength(chunk);
    lineEndSince ||= chunk.includes(lineEnd);
    if (pendingBytes > MAX_ROW_BYTES && !lineEndSince) throw new RowTooLongError();
    // Without a line end the record goes on: parse once it may have ended (no re-scanning).
    if (!lineEndSince || (pendingBytes < parseAt && pendingBytes <= MAX_ROW_BYTES)) continue;
    yield parse(false);
    await slice.pause();
  }
  if (pending.length > 0) yield parse(true);
}

/** A row cut or padded to the header's width, so appended result columns line up. */
export function fitRow(row: readonly string[], width: number): string[] {
  const fitted = row.slice(0, width);
  while (fitted.length < width) fitted.push('');
  return fitted;
}

/** CSV text of rows, each ending with CRLF (RFC 4180). */
export function toCsvLines(rows: readonly (readonly string[])[]): string {
  if (rows.length === 0) return '';
  return `${Papa.unparse(rows as string[][], { newline: '\r\n' })}\r\n`;
}
