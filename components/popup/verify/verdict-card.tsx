/**
 * The outcome of one verification: status, reason, what to do next, checks (untested ones said
 * so, never shown as facts), did-you-mean, where it came from, "Copy" and "Verify again".
 */
import { useState } from 'preact/hooks';
import { formatAge } from '@/components/popup/format';
import { t } from '@/lib/shared/i18n';
import type { VerdictView } from '@/lib/shared/views';
import { shownChecks, summaryText } from './verdict-checks';
import { adviceText, reasonText, statusText } from './verdict-text';

/** A raw field's value as text, whatever its type (strings as they are; null, numbers, objects as JSON). */
export function rawText(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function sourceText(verdict: VerdictView): string {
  if (verdict.status === 'invalid') return t('popup_checked_locally');
  return verdict.cached ? t('popup_cached_age', formatAge(verdict.verifiedAt)) : t('popup_verified_now');
}

export function VerdictCard({
  verdict,
  onSuggestion,
  onAgain,
}: {
  verdict: VerdictView;
  onSuggestion: (email: string) => void;
  onAgain?: () => void;
}) {
  const [copied, setCopied] = useState(false);
  const checks = shownChecks(verdict);
  const extra = Object.entries(verdict.extra);
  const advice = adviceText(verdict);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(summaryText(verdict));
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
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
      {advice && (
        <p class="verdict-advice" data-testid="verdict-advice">
          {advice}
        </p>
      )}
      {verdict.suggestion && (
        <p class="suggestion">
          {t('popup_did_you_mean_before')}{' '}
          <button
            type="button"
            class="link-button"
            data-testid="suggestion"
            onClick={() => verdict.suggestion && onSuggestion(verdict.suggestion)}
          >
            {verdict.suggestion}
          </button>
          {t('popup_did_you_mean_after')}
        </p>
      )}
      {(checks.length > 0 || verdict.mxHost || verdict.provider || extra.length > 0) && (
        <dl class="checks" data-testid="verdict-fields">
          {checks.map((check) => (
            <div key={check.name} class={`check check-${check.tone}${check.note ? ' check-wide' : ''}`}>
              <dt>{check.label}</dt>
              <dd>{check.value}</dd>
            </div>
          ))}
          {verdict.mxHost && (
            <div class="check check-wide">
              <dt>{t('popup_mx_host')}</dt>
              <dd>{verdict.mxHost}</dd>
            </div>
          )}
          {verdict.provider && (
            <div class="check check-wide">
              <dt>{t('popup_provider')}</dt>
              <dd>{verdict.provider}</dd>
            </div>
          )}
          {extra.map(([name, value]) => (
            <div key={name} class="check check-wide">
              <dt>{name}</dt>
              <dd>{rawText(value)}</dd>
            </div>
          ))}
        </dl>
      )}
      <p class="verdict-source" data-testid="verdict-source">
        {sourceText(verdict)}
      </p>
      <div class="verdict-actions">
        <button type="button" class="secondary" onClick={() => void copy()}>
          {copied ? t('popup_copied') : t('popup_copy')}
        </button>
        {onAgain && verdict.status !== 'invalid' && (
          <button type="button" class="secondary" onClick={onAgain} data-testid="verify-again">
            {t('popup_verify_again')}
          </button>
        )}
      </div>
    </article>
  );
}
