/** Words for a verdict's status, reason and checks. Unknown reasons are shown as the service sent them. */
import { CHECK_NAMES, REASONS } from '@/lib/api/contract';
import type { MarkStatus } from '@/lib/shared/messages';
import { t } from '../i18n';

const KNOWN_REASONS: ReadonlySet<string> = new Set(REASONS);

/** The checks the card lists, in order (the contract's). */
export const CHECK_KEYS = CHECK_NAMES;

export function statusText(status: MarkStatus): string {
  return t(`popup_status_${status}`);
}

export function reasonText(reason: string | null): string {
  if (reason === null) return t('popup_reason_none');
  return KNOWN_REASONS.has(reason) ? t(`popup_reason_${reason}`) : reason.replaceAll('_', ' ');
}

export function checkName(check: string): string {
  return (CHECK_KEYS as readonly string[]).includes(check)
    ? t(`popup_check_${check}`)
    : check.replaceAll('_', ' ');
}

export function checkValue(value: boolean | null): string {
  if (value === null) return t('popup_check_untested');
  return value ? t('popup_yes') : t('popup_no');
}
