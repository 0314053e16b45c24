/** A service reason in words: the popup's sentence for it, for the marks' popovers, the guard and notifications. */
import { REASONS } from '@verimark/contract';
import { type MessageKey, message } from './i18n';

/** Built on first use: the marking script never needs it (so the bundler leaves REASONS out). */
let knownReasons: ReadonlySet<string> | null = null;

/** The popup's sentence for a service reason; an unknown reason is shown as the service sent it. */
export function reasonSentence(reason: string | null): string | null {
  if (reason === null) return null;
  knownReasons ??= new Set(REASONS);
  return knownReasons.has(reason)
    ? message(`popup_reason_${reason}` as MessageKey)
    : reason.replaceAll('_', ' ');
}
