import { stat } from 'node:fs/promises';
import { MAX_COLUMNS } from '../../lib/api/contract';
import { emailCell, findEmailColumn } from './email-column';
import { type Dialect, detectDialect, RowTooLongError, readRows } from './rows';

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
 * Cells that padding short rows to the header's width may add: as many as the upload has bytes
 * (at least 1 Mi), so the original columns of the results are at most about twice the upload.
 */
export function paddingBudget(uploadBytes: number): number {
  return Math.max(uploadBytes, 1024 * 1024);
}

/**
 * One streaming pass over an uploaded file: dialect, header, email column and the number of
 * addresses, or the problem that refuses it (docs/design.md §3).
 */
export async function scanUpload(path: string, emailColumn: string | null): Promise<Scan | ScanProblem> {
  try {
    return await scanRows(path, await detectDialect(path), emailColumn);
  } catch (err) {
    if (err instanceof RowTooLongError) return 'too_long';
    throw err;
  }
}

async function scanRows(
  path: string,
  dialect: Dialect,
  emailColumn: string | null,
): Promise<Scan | ScanProblem> {
  const budget = paddingBudget((await stat(path)).size);
  let header: string[] | null = null;
  let emailIndex = -1;
  let emails = 0;
  let padding = 0;
  for await (const row of readRows(path, dialect)) {
    if (header === null) {
      header = row;
      if (header.length > MAX_COLUMNS) return 'too_wide';
      emailIndex = findEmailColumn(header, emailColumn);
      if (emailIndex < 0) return 'no_column';
      continue;
    }
    if (emailCell(row, emailIndex) !== '') emails++;
    if (row.length < header.length) padding += header.length - row.length;
    if (padding > budget) return 'too_short';
  }
  if (header === null) return 'no_column';
  if (emails === 0) return 'no_addresses';
  return { dialect, header, emailIndex, emails };
}
