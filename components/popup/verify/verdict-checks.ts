/**
 * The checks as the card shows them, honestly: a check the service did not make is "not tested",
 * never a yes or no. When the domain does not exist, no mail server was asked, so server checks
 * are "not tested" whatever the service sent; a list flag that is true is said together with the
 * missing domain ("on the list, but the domain does not exist").
 */

import { t } from '@/lib/shared/i18n';
import type { VerdictView } from '@/lib/shared/views';
import { checkName, reasonText, statusText } from './verdict-text';

interface ShownCheck {
  name: string;
  label: string;
  value: string;
  tone: 'yes' | 'no' | 'na';
  /** True when the value is a sentence (shown full width). */
  note: boolean;
}

/** Checks that need a conversation with the domain's mail server. */
const SERVER_CHECKS = new Set(['smtp_connected', 'catch_all']);
/** Checks read from lists of domains: true is a fact even when the domain is gone. */
const LIST_CHECKS = new Set(['disposable', 'free_provider']);

function domainMissing(verdict: VerdictView): boolean {
  return (
    verdict.checks.mx_found === false || verdict.reason === 'invalid_domain' || verdict.reason === 'no_mx'
  );
}

export function shownChecks(verdict: VerdictView): ShownCheck[] {
  const missing = domainMissing(verdict);
  return Object.entries(verdict.checks).map(([name, raw]) => {
    const value = missing && SERVER_CHECKS.has(name) ? null : raw;
    const label = checkName(name);
    if (value === null) return { name, label, value: t('popup_check_untested'), tone: 'na', note: false };
    if (value && missing && LIST_CHECKS.has(name)) {
      return { name, label, value: t('popup_check_listed_domain_missing'), tone: 'yes', note: true };
    }
    return {
      name,
      label,
      value: value ? t('popup_yes') : t('popup_no'),
      tone: value ? 'yes' : 'no',
      note: false,
    };
  });
}

/** One line for the clipboard: address, verdict, reason and suggestion. */
export function summaryText(verdict: VerdictView): string {
  const reason = verdict.error ?? reasonText(verdict.reason);
  const parts = [`${verdict.email}: ${statusText(verdict.status)}`, reason];
  if (verdict.suggestion)
    parts.push(`${t('popup_did_you_mean_before')} ${verdict.suggestion}${t('popup_did_you_mean_after')}`);
  return parts.join(' — ');
}
