import { RESULT_COLUMNS } from '../../lib/api/contract';
import { readRows } from '../csv/rows';
import type { Scan } from '../csv/scan';
import type { NewBatch } from '../store/store';
import { csvLine } from './verify-batch';

/**
 * Reads a scanned upload into batches of `batchRows` data rows, the units workers claim, and
 * the result file's first line. The rows then live in the database, so any worker on any
 * machine can verify them and the upload itself is not needed afterwards.
 */
export async function splitUpload(
  path: string,
  scan: Scan,
  batchRows: number,
): Promise<{ resultHeader: string; batches: NewBatch[] }> {
  const batches: NewBatch[] = [];
  let current: string[][] = [];
  let header = true;
  let index = 0;
  for await (const row of readRows(path, scan.dialect)) {
    if (header) {
      header = false;
      continue;
    }
    current.push(row);
    if (current.length === batchRows) {
      batches.push({
        firstRow: index - current.length + 1,
        rowCount: current.length,
        input: JSON.stringify(current),
      });
      current = [];
    }
    index++;
  }
  if (current.length > 0)
    batches.push({
      firstRow: index - current.length,
      rowCount: current.length,
      input: JSON.stringify(current),
    });
  const resultHeader = csvLine([...scan.header, ...RESULT_COLUMNS]);
  return { resultHeader, batches };
}
