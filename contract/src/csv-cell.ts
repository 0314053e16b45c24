/**
 * How a results CSV is written, wherever it is written: the service's results file
 * (server/jobs/verify-batch.ts) and the extension's subset export
 * (lib/background/bulk/results-subset.ts) use these two functions, so a cell comes out of both
 * alike (docs/design.md §3, OWASP's CSV injection advice).
 */

/** First characters that make a spreadsheet read a cell as a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A cell of nothing but digits, spaces and `+ - ( ) . /` (a phone number, a negative number): it cannot run. */
const NUMBER_LIKE = /^[0-9 +\-()./]*$/;
/**
 * What makes a cell quoted: the delimiter, a quote, a line break, a BOM, edge spaces (as
 * papaparse quotes), and `;` or TAB, which Excel in a semicolon locale, or a tab-separated
 * import, would split the cell at.
 */
const NEEDS_QUOTES = /[",;\t\r\n\uFEFF]|^ | $/;

/**
 * A cell a spreadsheet will show as text: one that starts with `=`, `+`, `-`, `@`, TAB or CR
 * and holds anything besides digits, spaces and `+ - ( ) . /` gets a leading `'`. Phone
 * numbers (`+1 415 555 0101`) and negative numbers (`-5`) stay byte for byte.
 */
export function neutraliseCell(cell: string): string {
  return FORMULA_START.test(cell) && !NUMBER_LIKE.test(cell) ? `'${cell}` : cell;
}

/** One CSV cell: neutralised, then quoted where needed. */
export function csvCell(cell: string): string {
  const safe = neutraliseCell(cell);
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One CSV line (CRLF-terminated) of `csvCell`s. */
export function csvLine(cells: readonly string[]): string {
  let line = '';
  for (let i = 0; i < cells.length; i++) {
    if (i > 0) line += ',';
    line += csvCell(cells[i] ?? '');
  }
  return `${line}\r\n`;
}
