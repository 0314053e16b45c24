/**
 * One pass over a claimed batch: verifies the rows still to decide, defers those answered
 * "not now" (./deferral.ts), and once every row is decided renders their result lines in row order.
 */
import { normalizeEmail } from '@verimark/contract/address';
import { csvLine } from '@verimark/contract/csv-cell';
import { emailCell } from '../csv/email-column';
import { resultCells } from '../csv/result-cells';
import { fitRow } from '../csv/rows';
import { TimeSlice } from '../csv/time-slice';
import type { DomainScope, Engine, VerificationResult } from '../engine/types';
import type { ClaimedBatch, VerdictCounts } from '../store/store';
import { type DeferralPolicy, isDeferred, nextState, type PartialRow, parsePartial } from './deferral';
import { engineFailure } from './single-runner';

/** A batch's pass: every row decided (output and counts to commit), or some rows deferred. */
export type BatchPass =
  | { kind: 'done'; output: string; counts: VerdictCounts }
  | { kind: 'deferred'; partial: string; delayMs: number };

export interface BatchPassOptions {
  onEngineError: (err: unknown) => void;
  onRowDone?: () => void;
  /** Stops every verification of the batch at once (its file was deleted, or its lease lost). */
  signal?: AbortSignal;
  /** Tries rows again later (./deferral.ts); without one every answer is final. */
  policy?: DeferralPolicy;
  /** Verdicts already found for some of these addresses (./revisits.ts). */
  recall?: (emails: string[]) => Promise<Map<string, VerificationResult>>;
}

/**
 * Verifies the rows of a batch still to decide (all at once: the engine's limits bound the real
 * concurrency) — every row on its first pass; on a deferred batch's later passes only the rows
 * that are due. Rows whose answer was "not now" are deferred (./deferral.ts) while they have tries
 * left; once none is, the result lines are rendered in row order. Rows with an empty email cell
 * get empty results and cost nothing.
 */
export async function verifyBatch(
  engine: Engine,
  scope: DomainScope,
  batch: ClaimedBatch,
  { onEngineError, onRowDone = () => {}, signal, policy, recall }: BatchPassOptions,
): Promise<BatchPass> {
  const before = parsePartial(batch.partial);
  const now = Date.now();
  const wanted = (i: number) => !before || (isDeferred(before[i]) && (before[i]?.due ?? 0) <= now);
  const known = recall
    ? await recall(
        batch.rows.flatMap((row, i) => (wanted(i) ? [normalizeEmail(emailCell(row, batch.emailIndex))] : [])),
      ).catch(() => new Map<string, VerificationResult>())
    : new Map<string, VerificationResult>();
  const rows = await Promise.all(
    batch.rows.map(async (row, i): Promise<PartialRow | null> => {
      const prior = before?.[i] ?? null;
      try {
        if (before && (!isDeferred(prior) || prior.due > now)) return prior;
        const email = emailCell(row, batch.emailIndex);
        if (email === '') return null;
        const found = known.get(normalizeEmail(email));
        if (found) return { result: found, tries: prior?.tries ?? 0 };
        let result: VerificationResult;
        try {
          result = await engine.verify(email, batch.mode, scope, { signal, alone: prior?.alone });
        } catch (err) {
          onEngineError(err);
          result = engineFailure(email);
        }
        return policy ? nextState(result, prior?.tries ?? 0, policy) : { result, tries: 0 };
      } finally {
        onRowDone();
      }
    }),
  );
  const due = rows.filter(isDeferred).map((row) => row.due);
  if (due.length > 0) {
    return {
      kind: 'deferred',
      partial: JSON.stringify(rows),
      delayMs: Math.max(0, Math.min(...due) - Date.now()),
    };
  }
  const results = rows.map((row) => row?.result ?? null);
  const counts: VerdictCounts = { deliverable: 0, undeliverable: 0, unknown: 0, risky: 0 };
  for (const r of results) if (r) counts[r.status]++;
  // A line at a time, giving the event loop a turn every few ms: wide rows are costly.
  const slice = new TimeSlice();
  let output = '';
  for (const [i, row] of batch.rows.entries()) {
    output += csvLine([...fitRow(row, batch.headerLength), ...resultCells(results[i] ?? null)]);
    await slice.pause();
  }
  return { kind: 'done', output, counts };
}
