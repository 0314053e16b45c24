import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { pipeline } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import Papa from 'papaparse';

/** Delimiter and line break of an uploaded file, detected once at upload and kept with the job. */
export interface Dialect {
  delimiter: string;
  newline: string;
}

const SAMPLE_BYTES = 64 * 1024;
/**
 * Read size for parsing. papaparse re-scans an unfinished line with every new chunk, so large
 * chunks keep a very long line (up to the 25MB limit) from costing quadratic time.
 */
const READ_CHUNK_BYTES = 1024 * 1024;
const NEWLINES = ['\r\n', '\n', '\r'];

/** Detects the dialect from the start of the file (papaparse's guessing, pinned for later passes). */
export async function detectDialect(path: string): Promise<Dialect> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(SAMPLE_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SAMPLE_BYTES, 0);
    const sample = new StringDecoder('utf8').write(buffer.subarray(0, bytesRead));
    const { meta } = Papa.parse<string[]>(sample, { preview: 10, skipEmptyLines: 'greedy' });
    const delimiter = meta.delimiter && meta.delimiter.length === 1 ? meta.delimiter : ',';
    const newline = NEWLINES.includes(meta.linebreak) ? meta.linebreak : '\n';
    return { delimiter, newline };
  } finally {
    await handle.close();
  }
}

/**
 * Streams the file's rows (the header first) as arrays of strings, with backpressure: only a
 * chunk or so of the file is in memory at a time. Blank lines are skipped; a leading BOM is removed.
 */
export async function* readRows(path: string, dialect: Dialect): AsyncGenerator<string[]> {
  // Decoded as UTF-8 by the read stream, so a character split between chunks stays whole.
  const input = createReadStream(path, { encoding: 'utf8', highWaterMark: READ_CHUNK_BYTES });
  const parser = Papa.parse(Papa.NODE_STREAM_INPUT, {
    delimiter: dialect.delimiter,
    newline: dialect.newline as Papa.ParseConfig['newline'],
    skipEmptyLines: 'greedy',
  });
  pipeline(input, parser, () => {});
  let first = true;
  for await (const row of parser as AsyncIterable<string[]>) {
    if (first && row.length > 0) {
      row[0] = (row[0] ?? '').replace(/^\uFEFF/, '');
      first = false;
    }
    yield row;
  }
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
