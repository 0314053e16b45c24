/**
 * The email cell of an uploaded row. Which column it is comes from the shared rule
 * (`findEmailColumn` in @verimark/contract/email-column), the same the popup's preflight uses.
 */
import { isBlank } from './rows';

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
