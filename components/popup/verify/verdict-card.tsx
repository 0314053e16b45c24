/** The outcome of one verification: status, reason, checks, did-you-mean, and where it came from. */

import { t } from '@/lib/shared/i18n';
import type { VerdictView } from '@/lib/shared/messages';
import { formatAge } from '../format';
import { checkName, checkValue, reasonText, statusText } from './verdict-text';

export function VerdictCard({
  verdict,
  onSuggestion,
}: {
  verdict: VerdictView;
  onSuggestion: (email: string) => void;
}) {
  const checks = Object.entries(verdict.checks);
  const extra = Object.entries(verdict.extra);
  return (
    <article
      class={`card verdict status-${verdict.status}`}
      data-testid="verdict"
      data-status={verdict.status}
    >
      <header class="verdict-head">
        <span class="badge">{statusText(verdict.status)}</span>
        <span class="verdict-email">{verdict.email}</span>
      </header>
      <p class="verdict-reason">{verdict.error ?? reasonText(verdict.reason)}</p>
      {verdict.suggestion && (
        <p class="suggestion">
          {t('popup_did_you_mean')}{' '}
          <button
            type="button"
            class="link-button"
            data-testid="suggestion"
            onClick={() => verdict.suggestion && onSuggestion(verdict.suggestion)}
          >
            {verdict.suggestion}
          </button>
        </p>
      )}
      {checks.length > 0 && (
        <dl class="checks">
          {checks.map(([name, value]) => (
            <div key={name} class={`check check-${value === null ? 'na' : value ? 'yes' : 'no'}`}>
              <dt>{checkName(name)}</dt>
              <dd>{checkValue(value)}</dd>
            </div>
          ))}
          {verdict.mxHost && (
            <div class="check check-wide">
              <dt>{t('popup_mx_host')}</dt>
              <dd>{verdict.mxHost}</dd>
            </div>
          )}
          {extra.map(([name, value]) => (
            <div key={name} class="check check-wide">
              <dt>{name}</dt>
              <dd>{typeof value === 'string' ? value : JSON.stringify(value)}</dd>
            </div>
          ))}
        </dl>
      )}
      <p class="verdict-source" data-testid="verdict-source">
        {verdict.status === 'invalid'
          ? t('popup_checked_locally')
          : verdict.cached
            ? t('popup_cached_age', formatAge(verdict.verifiedAt))
            : t('popup_verified_now')}
      </p>
    </article>
  );
}
