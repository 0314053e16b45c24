import { emailCell, findEmailColumn } from './email-column';
import { type Dialect, detectDialect, readRows } from './rows';

export interface Scan {
  dialect: Dialect;
  header: string[];
  emailIndex: number;
  /** Non-empty cells of the email column: the credits the file costs. */
  emails: number;
}

/**
 * One streaming pass over an uploaded file: dialect, header, email column and the number of
 * addresses. Null when the file has no header with the email column.
 */
export async function scanUpload(path: string, emailColumn: string | null): Promise<Scan | null> {
  const dialect = await detectDialect(path);
  let header: string[] | null = null;
  let emailIndex = -1;
  let emails = 0;
  for await (const row of readRows(path, dialect)) {
    if (header === null) {
      header = row;
      emailIndex = findEmailColumn(header, emailColumn);
      if (emailIndex < 0) return null;
      continue;
    }
    if (emailCell(row, emailIndex) !== '') emails++;
  }
  if (header === null) return null;
  return { dialect, header, emailIndex, emails };
}
