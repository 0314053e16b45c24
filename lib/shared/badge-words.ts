/**
 * The badges' words, read by the background and sent with the content script's configuration
 * (ContentConfig.badgeWords): the marking script then draws a thousand labelled badges without
 * calling `i18n.getMessage` itself. Its first call in a page took 4.6–12.7 ms of self time in CPU
 * profiles of a bench load (README, Benchmarks), the page's main thread waiting on it.
 */
import { type MessageKey, t } from './i18n';
import type { BadgeWords } from './messages';
import type { PageStatus } from './page-messages';

/** Each status's word: the popup's, and the content script's own for `unverified`. */
const STATUS_KEYS: Record<PageStatus, MessageKey> = {
  unverified: 'content_status_unverified',
  pending: 'popup_status_pending',
  deliverable: 'popup_status_deliverable',
  undeliverable: 'popup_status_undeliverable',
  risky: 'popup_status_risky',
  unknown: 'popup_status_unknown',
  invalid: 'popup_status_invalid',
  error: 'popup_status_error',
};

export function badgeWords(): BadgeWords {
  const statuses: BadgeWords['statuses'] = {};
  for (const [status, key] of Object.entries(STATUS_KEYS)) statuses[status as PageStatus] = t(key);
  return { label: t('content_badge_label', '\u0001', '\u0002'), statuses };
}
