/** The guard's words for a verdict: the popup's sentences, through the one i18n. */
import { REASONS } from '../../api/contract';
import { type MessageKey, t } from '../../shared/i18n';
import type { GuardStatus } from './decide';

const KNOWN_REASONS: ReadonlySet<string> = new Set(REASONS);

export function statusWord(status: GuardStatus): string {
  return status === 'unverified' ? t('content_status_unverified') : t(`popup_status_${status}`);
}

/** The popup's sentence for a service reason; an unknown reason is shown as the service sent it. */
export function reasonSentence(reason: string | null): string | null {
  if (reason === null) return null;
  return KNOWN_REASONS.has(reason) ? t(`popup_reason_${reason}` as MessageKey) : reason.replaceAll('_', ' ');
}
