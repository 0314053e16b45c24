/**
 * Recent lookups from the background's cache: choosing one shows its verdict without a call.
 * Checks the background keeps (waiting for the service, or refused when sent) come first.
 */

import { formatAge } from '@/components/popup/format';
import { t } from '@/lib/shared/i18n';
import type { PendingCheckView, VerdictView } from '@/lib/shared/views';
import { KeptChecks } from './kept-checks';
import { statusText } from './verdict-text';

const ignore = () => {};

export function RecentLookups({
  pending = [],
  lookups,
  onSelect,
  onRetryKept = ignore,
  onDismissKept = ignore,
}: {
  pending?: PendingCheckView[];
  lookups: VerdictView[];
  onSelect: (verdict: VerdictView) => void;
  onRetryKept?: (check: PendingCheckView) => void;
  onDismissKept?: (check: PendingCheckView) => void;
}) {
  return (
    <section class="recent" aria-labelledby="recent-heading">
      <h2 id="recent-heading">{t('popup_recent_heading')}</h2>
      <KeptChecks checks={pending} onRetry={onRetryKept} onDismiss={onDismissKept} />
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
