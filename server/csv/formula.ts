/** First characters that make a spreadsheet read a cell as a formula (OWASP, CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A cell a spreadsheet will show as text: one starting with `=`, `+`, `-`, `@`, TAB or CR gets
 * a leading `'` (docs/design.md §3). A number such as `-5` is quoted too: the price of a rule
 * that does not guess which cells are meant as numbers.
 */
export function neutraliseCell(cell: string): string {
  return FORMULA_START.test(cell) ? `'${cell}` : cell;
}
