/**
 * The cells a results CSV adds to each row (RESULT_COLUMNS), from a verification result.
 */
import { RESULT_COLUMNS } from '@verimark/contract';
import type { VerificationResult } from '../engine/types';

function bool(value: boolean | null): string {
  return value === null ? '' : String(value);
}

/** The cells appended to a row, in RESULT_COLUMNS order; empty cells for a row without an address. */
export function resultCells(result: VerificationResult | null): string[] {
  if (!result) return RESULT_COLUMNS.map(() => '');
  return [
    result.status,
    result.reason,
    bool(result.checks.catch_all),
    bool(result.checks.disposable),
    bool(result.checks.role_account),
    bool(result.checks.free_provider),
    result.mx_host ?? '',
    result.suggestion ?? '',
  ];
}
