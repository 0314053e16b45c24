import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { countRows, type RowCounts, type RowSink } from '../csv/scan';

export interface Saved {
  /**
   * The scan's findings (countRows), or its refusal; settled once the part is read. A promise,
   * so a failing scanner (or spool) stays a server error rather than the client's.
   */
  counts: Promise<RowCounts | 'too_wide'>;
  /** Bytes of the part. */
  bytes: number;
}

/**
 * Parses the upload's `file` part once, as it arrives: the CSV scanner counts its credits and
 * hands every data row to `rows` (the batch spool, server/jobs/split-upload.ts), so accepting a
 * file is one pass over it. Backpressure from the spool slows the upload. A scanner that has
 * finished early (a refusal found in the header, a row over the bound) is no longer fed: the rest
 * of the part is read and dropped, so the multipart body still ends (and a 413 is still seen).
 */
export async function saveAndScan(source: Readable, rows: RowSink): Promise<Saved> {
  let bytes = 0;
  async function* chunks(): AsyncGenerator<Buffer> {
    // Not destroyed when the scanner stops early: busboy must still read the part to its end.
    for await (const chunk of source.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      yield chunk;
    }
  }
  const scanning = countRows(chunks(), rows);
  try {
    await scanning;
  } catch {
    // The caller awaits `counts`; the part is drained below either way.
  }
  if (!source.readableEnded) {
    source.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    source.resume();
    await finished(source);
  }
  return { counts: scanning, bytes };
}
