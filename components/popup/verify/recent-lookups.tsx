/**
 * Recent lookups from the background's cache: choosing one shows its verdict without a call.
 * Checks the background keeps until the service is back come first, marked pending.
 */

import { t } from '@/lib/shared/i18n';
import type { PendingCheckView, VerdictView } from '@/lib/shared/messages';
import { formatAge } from '../format';
import { statusText } from './verdict-text';

export function RecentLookups({
  pending = [],
  lookups,
  onSelect,
}: {
  pending?: PendingCheckView[];
  lookups: VerdictView[];
  onSelect: (verdict: VerdictView) => void;
}) {
  return (
    <section class="recent" aria-labelledby="recent-heading">
      <h2 id="recent-heading">{t('popup_recent_heading')}</h2>
      {pending.length > 0 && (
        <ul class="recent-list" data-testid="pending-checks">
          {pending.map((check) => (
            <li key={`${check.mode}:${check.email}`} class="recent-item pending-item" data-status="pending">
              <span class="dot status-pending" aria-hidden="true" />
              <span class="recent-email">{check.email}</span>
              <span class="recent-meta">
                {statusText('pending')} · {t('popup_pending_check')}
              </span>
            </li>
          ))}
        </ul>
      )}
      {lookups.length === 0 && pending.length === 0 ? (
        <p class="muted">{t('popup_recent_empty')}</p>
      ) : lookups.length === 0 ? null : (
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
