/** Words for a verdict's status, reason and checks. Unknown reasons are shown as the service sent them. */
import { CHECK_NAMES, REASONS, type Reason } from '@/lib/api/contract';
import { t } from '@/lib/shared/i18n';
import type { MarkStatus } from '@/lib/shared/messages';

const isReason = (reason: string): reason is Reason => (REASONS as readonly string[]).includes(reason);

/** Whether `check` is one the card has words for (the contract's). */
const isCheck = (check: string): check is (typeof CHECK_NAMES)[number] =>
  (CHECK_NAMES as readonly string[]).includes(check);

export function statusText(status: MarkStatus): string {
  return t(`popup_status_${status}`);
}

export function reasonText(reason: string | null): string {
  if (reason === null) return t('popup_reason_none');
  return isReason(reason) ? t(`popup_reason_${reason}`) : reason.replaceAll('_', ' ');
}

export function checkName(check: string): string {
  return isCheck(check) ? t(`popup_check_${check}`) : check.replaceAll('_', ' ');
}

export function checkValue(value: boolean | null): string {
  if (value === null) return t('popup_check_untested');
  return value ? t('popup_yes') : t('popup_no');
}
