/** A file's counts as a small stacked bar, with the same numbers in words for screen readers. */
import type { FileRecord } from '@/lib/api/contract';
import { t } from '@/lib/shared/i18n';
import { formatNumber } from '../format';

const PARTS = ['deliverable', 'undeliverable', 'risky', 'unknown'] as const;

export function CountsBar({ counts }: { counts: FileRecord['meta_data'] }) {
  const total = PARTS.reduce((sum, part) => sum + counts[part], 0);
  const words = PARTS.map((part) => t(`popup_count_${part}`, formatNumber(counts[part]))).join(', ');
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
      <p class="counts-text" data-testid="counts">
        {words}
      </p>
    </div>
  );
}
