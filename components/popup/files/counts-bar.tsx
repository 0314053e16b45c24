/**
 * A file's breakdown: a stacked bar and its legend — a swatch, the count and the percentage of
 * each verdict — so the bar is never the only place the numbers are.
 */
import type { FileRecord } from '@verimark/contract';
import { tn } from '@/lib/shared/i18n';

const PARTS = ['deliverable', 'risky', 'undeliverable', 'unknown'] as const;

/** Whole percentages; a part above zero never shows as 0 %. */
function percentOf(count: number, total: number): number {
  if (total === 0 || count === 0) return 0;
  return Math.max(1, Math.round((count / total) * 100));
}

export function CountsBar({ counts }: { counts: FileRecord['meta_data'] }) {
  const total = PARTS.reduce((sum, part) => sum + counts[part], 0);
  return (
    <div class="counts">
      <div class="bar" aria-hidden="true">
        {total > 0 &&
          PARTS.map((part) =>
            counts[part] > 0 ? (
              <span
                key={part}
                class={`seg status-${part}`}
                style={{ width: `${(counts[part] / total) * 100}%` }}
              />
            ) : null,
          )}
      </div>
      <ul class="legend" data-testid="counts">
        {PARTS.map((part) => (
          <li key={part} class={`status-${part}`}>
            <span class="swatch" aria-hidden="true" />
            {tn(`popup_count_${part}`, counts[part])}
            {total > 0 && <span class="percent"> ({percentOf(counts[part], total)}%)</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}
