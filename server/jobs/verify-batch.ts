/**
 * Verifies the rows of one claimed batch and renders their result lines, in row order.
 */
import { csvLine } from '@verimark/contract/csv-cell';
import { emailCell } from '../csv/email-column';
import { resultCells } from '../csv/result-cells';
import { fitRow } from '../csv/rows';
import { TimeSlice } from '../csv/time-slice';
import type { DomainScope, Engine, VerificationResult } from '../engine/types';
import type { ClaimedBatch, VerdictCounts } from '../store/store';
import { engineFailure } from './single-runner';

interface BatchResult {
  /** The batch's result lines: every original column, then the result columns. */
  output: string;
  counts: VerdictCounts;
}

/**
 * Verifies every row of a batch (all at once: the engine's limits bound the real concurrency)
 * and renders the result lines in row order. Rows with an empty email cell get empty results
 * and cost nothing.
 */
export async function verifyBatch(
  engine: Engine,
  scope: DomainScope,
  batch: ClaimedBatch,
  onEngineError: (err: unknown) => void,
  onRowDone: () => void = () => {},
): Promise<BatchResult> {
  const results = await Promise.all(
    batch.rows.map(async (row): Promise<VerificationResult | null> => {
      const email = emailCell(row, batch.emailIndex);
      try {
        if (email === '') return null;
        return await engine.verify(email, batch.mode, scope);
      } catch (err) {
        onEngineError(err);
        return engineFailure(email);
      } finally {
        onRowDone();
      }
    }),
  );
  const counts: VerdictCounts = { deliverable: 0, undeliverable: 0, unknown: 0, risky: 0 };
  for (const r of results) if (r) counts[r.status]++;
  // A line at a time, giving the event loop a turn every few ms: wide rows are costly.
  const slice = new TimeSlice();
  let output = '';
  for (const [i, row] of batch.rows.entries()) {
    output += csvLine([...fitRow(row, batch.headerLength), ...resultCells(results[i] ?? null)]);
    await slice.pause();
  }
  return { output, counts };
}
