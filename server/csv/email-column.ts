/**
 * Which column of an upload holds the addresses (the requested name, else `Email`), and the email
 * cell of a row.
 */
import { DEFAULT_EMAIL_COLUMN } from '@verimark/contract';
import { isBlank } from './rows';

/**
 * Finds the email column in a header row (docs/design.md §3): the requested name (default `Email`)
 * matched exactly first, then case-insensitively; surrounding spaces and a BOM are ignored.
 * Returns the column's index, or -1 when the header has no such column.
 */
export function findEmailColumn(header: readonly string[], requested?: string | null): number {
  const wanted = clean(requested || DEFAULT_EMAIL_COLUMN);
  const names = header.map(clean);
  const exact = names.indexOf(wanted);
  if (exact >= 0) return exact;
  const lower = wanted.toLowerCase();
  return names.findIndex((name) => name.toLowerCase() === lower);
}

/** An `emailColumn` must name a column, never be an address (docs/design.md §3). */
export function isValidColumnName(name: string): boolean {
  return !name.includes('@');
}

/**
 * The email cell of a data row exactly as it was uploaded, or '' when it is blank (credits count
 * the cells that are not). Not trimmed here: the engine judges the cell as `/verify/single`
 * judges the same text (contract/src/address.ts trims spaces, and a CR, LF or NUL anywhere is
 * invalid_syntax).
 */
export function emailCell(row: readonly string[], index: number): string {
  const cell = row[index] ?? '';
  return isBlank(cell) ? '' : cell;
}

function clean(name: string): string {
  return name.replace(/^\uFEFF/, '').trim();
}
