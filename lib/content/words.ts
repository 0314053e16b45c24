/** The content script's words: the popup's sentences for verdicts and reasons, through the one i18n. */
import { REASONS } from '../api/contract';
import { type MessageKey, t } from '../shared/i18n';
import type { PageStatus } from './status';

const KNOWN_REASONS: ReadonlySet<string> = new Set(REASONS);

export { t };

export function statusWord(status: PageStatus): string {
  return status === 'unverified' ? t('content_status_unverified') : t(`popup_status_${status}`);
}

/** The popup's sentence for a service reason; an unknown reason is shown as the service sent it. */
export function reasonSentence(reason: string | null): string | null {
  if (reason === null) return null;
  return KNOWN_REASONS.has(reason) ? t(`popup_reason_${reason}` as MessageKey) : reason.replaceAll('_', ' ');
}
