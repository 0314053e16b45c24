/** Time left for a file being processed, from the rate seen since the popup first saw it. */
import { t } from '@/lib/shared/i18n';

export interface Sample {
  done: number;
  at: number;
}

/** Below this many rows or this much time since the first sample, no estimate is given. */
const MIN_ROWS = 1;
const MIN_MS = 3000;

export function estimateLeft(first: Sample, now: Sample, total: number): number | null {
  const rows = now.done - first.done;
  const elapsed = now.at - first.at;
  if (rows < MIN_ROWS || elapsed < MIN_MS || now.done >= total) return null;
  return ((total - now.done) * elapsed) / rows;
}

/** "less than a minute", "about 3 min", "about 2 h". */
export function formatDuration(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return t('popup_eta_under_minute');
  if (minutes < 90) return t('popup_eta_minutes', minutes);
  return t('popup_eta_hours', Math.round(minutes / 60));
}
