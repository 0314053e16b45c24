import { closeSync, createWriteStream, openSync, readSync, type WriteStream } from 'node:fs';
import { RESULT_COLUMNS } from '../../lib/api/contract';
import type { NewBatches } from '../store/store';
import { csvLine } from './verify-batch';

/** How far the parse may run ahead of the disk (a batch is ~20 KB for 200-byte rows). */
const SPOOL_BUFFER_BYTES = 256 * 1024;
/**
 * A batch is closed early once its cells reach about this many characters (of JSON), so wide rows (cells of
 * hundreds of KB) never gather in memory: the batch in the making stays about this small.
 */
const BATCH_CHARS = 512 * 1024;

/**
 * An upload's data rows split into batches of `batchRows` (the units workers claim; fewer when
 * the rows are wide, see BATCH_CHARS) as the upload is parsed: the same pass that counts its credits (server/csv/scan.ts) hands every data row
 * here, so the file is never read twice. Each batch is serialised at once (its cells as JSON, one
 * line — JSON has no raw line breaks) and written to a spool file with backpressure, so a large
 * upload, or one refused at its end (413, too short), holds no more than a batch in memory while
 * it arrives. Once the upload is accepted, spoolBatches() reads the lines back for the database;
 * the rows then live there, and the spool is removed in every case (server/csv/scan-thread.ts).
 */
export class BatchSpool {
  /** The batch in the making and the characters of its cells. */
  private current: string[][] = [];
  private chars = 0;
  /** Rows of each batch written, in order. */
  private readonly sizes: number[] = [];
  private readonly out: WriteStream;
  private failure: Error | null = null;

  constructor(
    path: string,
    private readonly batchRows: number,
  ) {
    this.out = createWriteStream(path, { highWaterMark: SPOOL_BUFFER_BYTES });
    // Kept for finish() and flush(): an unhandled 'error' would end the process.
    this.out.on('error', (err) => {
      this.failure ??= err;
    });
  }

  /**
   * Adds a data row; resolves when the spool may take more (a promise only when a batch was
   * written and the disk is behind, so the parse of a fast upload makes none per row).
   */
  add(row: string[]): Promise<void> | undefined {
    this.current.push(row);
    for (const cell of row) this.chars += cell.length + 3;
    const full = this.current.length >= this.batchRows || this.chars >= BATCH_CHARS;
    return full ? this.flush() : undefined;
  }

  private flush(): Promise<void> | undefined {
    if (this.failure) return Promise.reject(this.failure);
    const ready = this.out.write(`${JSON.stringify(this.current)}\n`);
    this.sizes.push(this.current.length);
    this.current = [];
    this.chars = 0;
    if (ready) return undefined;
    return new Promise<void>((resolve, reject) => {
      const done = () => {
        this.out.off('drain', done);
        this.out.off('close', done);
        if (this.failure) reject(this.failure);
        else resolve();
      };
      this.out.on('drain', done);
      this.out.on('close', done);
    });
  }

  /** Writes the batch in the making and closes the file; the rows of each batch, in order. */
  async finish(): Promise<number[]> {
    if (this.current.length > 0) await this.flush();
    await new Promise<void>((resolve, reject) => {
      if (this.failure) return reject(this.failure);
      this.out.once('error', reject);
      this.out.end(() => resolve());
    });
    return this.sizes;
  }

  /** Closes the file without writing more (a failed scan), once its descriptor is released. */
  async close(): Promise<void> {
    if (this.out.closed) return;
    await new Promise<void>((resolve) => {
      this.out.once('close', () => resolve());
      this.out.destroy();
    });
  }
}

/** Bytes read from the spool at a time when its batches are stored. */
const READ_BYTES = 1024 * 1024;

/**
 * The batches of a finished spool file (`sizes`: the rows of each, as BatchSpool.finish returns
 * them), read as the store takes them once the upload is accepted: a read at a time (the store's
 * transaction is synchronous on SQLite), each line decoded on its own, so the file is never all
 * in memory and each batch is garbage once stored.
 */
export function spoolBatches(path: string, sizes: readonly number[]): NewBatches {
  return {
    length: sizes.length,
    *[Symbol.iterator]() {
      const fd = openSync(path, 'r');
      try {
        const buffer = Buffer.allocUnsafe(READ_BYTES);
        let data = buffer.subarray(0, 0);
        let at = 0;
        // The start of a line longer than what one read brought (a batch of wide rows).
        let carry: Buffer[] = [];
        let firstRow = 0;
        for (const rowCount of sizes) {
          let end = data.indexOf(0x0a, at);
          while (end < 0) {
            if (at < data.length) carry.push(Buffer.from(data.subarray(at)));
            data = buffer.subarray(0, readSync(fd, buffer, 0, READ_BYTES, null));
            at = 0;
            if (data.length === 0) throw new Error('upload spool is shorter than the batches written to it');
            end = data.indexOf(0x0a);
          }
          let input: string;
          if (carry.length === 0) {
            input = data.toString('utf8', at, end);
          } else {
            carry.push(data.subarray(at, end));
            input = Buffer.concat(carry).toString('utf8');
            carry = [];
          }
          at = end + 1;
          yield { firstRow, rowCount, input };
          firstRow += rowCount;
        }
      } finally {
        closeSync(fd);
      }
    },
  };
}

/** The result file's first line: the upload's header, then the result columns. */
export function resultHeaderOf(header: string[]): string {
  return csvLine([...header, ...RESULT_COLUMNS]);
}
