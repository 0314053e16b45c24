/** Recent lookups from the background's cache: choosing one shows its verdict without a call. */

import { t } from '@/lib/shared/i18n';
import type { VerdictView } from '@/lib/shared/messages';
import { formatAge } from '../format';
import { statusText } from './verdict-text';

export function RecentLookups({
  lookups,
  onSelect,
}: {
  lookups: VerdictView[];
  onSelect: (verdict: VerdictView) => void;
}) {
  return (
    <section class="recent" aria-labelledby="recent-heading">
      <h2 id="recent-heading">{t('popup_recent_heading')}</h2>
      {lookups.length === 0 ? (
        <p class="muted">{t('popup_recent_empty')}</p>
      ) : (
        <ul class="recent-list" data-testid="recent-lookups">
          {lookups.map((item) => (
            <li key={item.email}>
              <button type="button" class="recent-item" onClick={() => onSelect(item)}>
                <span class={`dot status-${item.status}`} aria-hidden="true" />
                <span class="recent-email">{item.email}</span>
                <span class="recent-meta">
                  {statusText(item.status)} · {formatAge(item.verifiedAt)}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
