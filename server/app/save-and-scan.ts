import { createWriteStream } from 'node:fs';
import { PassThrough, type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { countRows, type RowCounts } from '../csv/scan';

export interface Saved {
  /**
   * The scan's findings (countRows), or its refusal; settled once the file is written. A
   * promise, so a failing scanner stays a server error rather than the client's.
   */
  counts: Promise<RowCounts | 'too_wide'>;
  /** Bytes written to the file. */
  bytes: number;
}

/** The scanner's buffer: how far the disk may run ahead of it before the upload is slowed. */
const SCAN_BUFFER_BYTES = 256 * 1024;

/**
 * Streams `source` to `path` and, chunk by chunk as they pass, to the CSV scanner, so a file is
 * counted while it arrives rather than read again once written: accepting it takes about the
 * longer of the two, not their sum. Backpressure from either side slows the upload; a scanner
 * that has finished early (a refusal found in the header) is no longer fed.
 */
export async function saveAndScan(source: Readable, path: string): Promise<Saved> {
  const toScanner = new PassThrough({ highWaterMark: SCAN_BUFFER_BYTES });
  let scanned = false;
  const scanning = countRows(toScanner);
  const stop = () => {
    scanned = true;
    toScanner.destroy();
  };
  scanning.then(stop, stop); // also marks a rejection as handled: the caller awaits `counts`
  const drained = () =>
    new Promise<void>((resolve) => {
      if (toScanner.destroyed) return resolve();
      const go = () => {
        toScanner.off('drain', go);
        toScanner.off('close', go);
        resolve();
      };
      toScanner.on('drain', go);
      toScanner.on('close', go);
    });
  let bytes = 0;
  const tee = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (scanned || toScanner.destroyed || toScanner.write(chunk)) done(null, chunk);
      else drained().then(() => done(null, chunk));
    },
    flush(done) {
      if (!scanned && !toScanner.destroyed) toScanner.end();
      done();
    },
  });
  try {
    await pipeline(source, tee, createWriteStream(path));
  } catch (err) {
    stop();
    await scanning.catch(() => {});
    throw err;
  }
  await scanning.catch(() => {});
  return { counts: scanning, bytes };
}
