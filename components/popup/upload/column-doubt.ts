/** Whether the chosen column looks like it holds addresses at all, from the preflight's sample. */
import { type PreflightSummary, SAMPLE_ROWS } from '@/lib/csv/preflight';

interface ColumnDoubt {
  /** Sampled values that look like addresses. */
  emailLike: number;
  /** Non-empty values sampled. */
  sampled: number;
}

/** A doubt when fewer than half of the column's sampled values look like addresses; else null. */
export function columnDoubt(summary: PreflightSummary, column: number): ColumnDoubt | null {
  if (column < 0) return null;
  const nonEmpty = summary.nonEmpty[column] ?? 0;
  const sampled = summary.sampledNonEmpty?.[column] ?? Math.min(nonEmpty, SAMPLE_ROWS);
  const emailLike = summary.emailLike[column] ?? 0;
  if (sampled === 0 || emailLike * 2 >= sampled) return null;
  return { emailLike, sampled };
}
