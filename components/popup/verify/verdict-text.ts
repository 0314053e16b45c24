/** Words for a verdict's status, reason and checks. Unknown reasons are shown as the service sent them. */
import type { MarkStatus } from '@/lib/messages';
import { t } from '../i18n';

const REASONS = new Set([
  'accepted_email',
  'rejected_email',
  'invalid_syntax',
  'invalid_domain',
  'no_mx',
  'catch_all',
  'disposable',
  'mailbox_full',
  'greylisted',
  'smtp_timeout',
  'smtp_unreachable',
  'smtp_error',
]);

export const CHECK_KEYS = [
  'syntax',
  'mx_found',
  'smtp_connected',
  'catch_all',
  'disposable',
  'role_account',
  'free_provider',
] as const;

export function statusText(status: MarkStatus): string {
  return t(`popup_status_${status}`);
}

export function reasonText(reason: string | null): string {
  if (reason === null) return t('popup_reason_none');
  return REASONS.has(reason) ? t(`popup_reason_${reason}`) : reason.replaceAll('_', ' ');
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
