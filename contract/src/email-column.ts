/**
 * Which header names the email column (docs/design.md §3 "Bulk"): one rule for the popup's
 * preflight (lib/csv/detect-column.ts) and the service's upload scan (server/csv/scan.ts), so the
 * column the popup shows is the column the service reads. Names are compared without a leading
 * BOM and without surrounding white space (String.prototype.trim: spaces, tabs, no-break spaces);
 * an exact match wins over a case-insensitive one, and the first of equal names wins.
 */
import { DEFAULT_EMAIL_COLUMN } from './contract';

/** A header name as it is compared: no BOM in front, no white space around. */
export function cleanColumnName(name: string): string {
  return name.replace(/^\uFEFF/, '').trim();
}

/**
 * The index of the column named `requested` (default `Email`) in `header`: exactly first, then
 * case-insensitively; -1 when no column has that name.
 */
export function findEmailColumn(header: readonly string[], requested?: string | null): number {
  const wanted = cleanColumnName(requested || DEFAULT_EMAIL_COLUMN);
  const names = header.map(cleanColumnName);
  const exact = names.indexOf(wanted);
  if (exact >= 0) return exact;
  const lower = wanted.toLowerCase();
  return names.findIndex((name) => name.toLowerCase() === lower);
}

/** An `emailColumn` must name a column, never be an address (docs/design.md §3). */
export function isValidColumnName(name: string): boolean {
  return !name.includes('@');
}
