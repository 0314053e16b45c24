/** Words for a verdict's status, reason and checks. Unknown reasons are shown as the service sent them. */
import { CHECK_NAMES, REASONS, type Reason } from '@verimark/contract';
import { type MessageKey, t } from '@/lib/shared/i18n';
import type { MarkStatus, VerdictView } from '@/lib/shared/views';

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

/** When to try an unknown verdict again, by reason. */
const RETRY_ADVICE: Record<string, MessageKey> = {
  greylisted: 'popup_advice_greylisted',
  smtp_timeout: 'popup_advice_unreachable',
  smtp_unreachable: 'popup_advice_unreachable',
  smtp_error: 'popup_advice_unreachable',
  blocked: 'popup_advice_blocked',
  accept_all_provider: 'popup_advice_accept_all',
};

/** What an unknown verdict means for the credit and when to try again; null for other verdicts. */
export function adviceText(verdict: VerdictView): string | null {
  if (verdict.status !== 'unknown') return null;
  const when = t(RETRY_ADVICE[verdict.reason ?? ''] ?? 'popup_advice_later');
  return `${t('popup_unknown_refunded')} ${when}`;
}
