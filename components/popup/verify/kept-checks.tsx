/**
 * The single checks the background keeps (lib/storage/pending-checks.ts): waiting ones will be
 * sent when the service is back; refused ones (the service said no when they were sent: no
 * credit spent) say why and what to do, with Retry and Dismiss.
 */

import { RetryDismiss } from '@/components/popup/retry-dismiss';
import { errorText } from '@/lib/shared/error-text';
import { type MessageKey, t } from '@/lib/shared/i18n';
import type { PendingCheckView } from '@/lib/shared/views';
import { statusText } from './verdict-text';

type Refusal = NonNullable<PendingCheckView['refused']>;

/** What to do about a refusal, by its kind. */
function nextStep(refused: Refusal): string {
  const key: MessageKey =
    refused.kind === 'payment_required'
      ? 'popup_kept_next_credits'
      : refused.kind === 'invalid_key' || refused.kind === 'not_configured'
        ? 'popup_kept_next_key'
        : 'popup_kept_next_other';
  return t(key);
}

const why = (refused: Refusal) => errorText(refused);

/** The sentence for a refused kept check, in the list. */
export function refusedText(refused: Refusal): string {
  return t('popup_kept_refused', why(refused), nextStep(refused));
}

/** The sentence for a refused kept check, naming it (where its verdict would have shown). */
export function refusedNamedText(email: string, refused: Refusal): string {
  return t('popup_kept_refused_named', email, why(refused), nextStep(refused));
}

export function KeptChecks({
  checks,
  onRetry,
  onDismiss,
}: {
  checks: PendingCheckView[];
  onRetry: (check: PendingCheckView) => void;
  onDismiss: (check: PendingCheckView) => void;
}) {
  if (checks.length === 0) return null;
  return (
    <ul class="recent-list" data-testid="pending-checks">
      {checks.map((check) => {
        const { refused } = check;
        if (!refused) {
          return (
            <li key={`${check.mode}:${check.email}`} class="recent-item pending-item" data-status="pending">
              <span class="dot status-pending" aria-hidden="true" />
              <span class="recent-email">{check.email}</span>
              <span class="recent-meta">
                {statusText('pending')} · {t('popup_pending_check')}
              </span>
            </li>
          );
        }
        return (
          <li key={`${check.mode}:${check.email}`} class="refused-item" data-status="refused">
            <div class="recent-item">
              <span class="dot status-error" aria-hidden="true" />
              <span class="recent-email">{check.email}</span>
              <span class="recent-meta">{t('popup_kept_not_verified')}</span>
            </div>
            <p class="form-error refused-text" data-error-kind={refused.kind}>
              {refusedText(refused)}
            </p>
            <RetryDismiss
              name={check.email}
              onRetry={() => onRetry(check)}
              onDismiss={() => onDismiss(check)}
            />
          </li>
        );
      })}
    </ul>
  );
}
