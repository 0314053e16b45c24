/**
 * The badges' words, read by the background and sent with the content script's configuration
 * (ContentConfig.badgeWords): the marking script then draws a thousand labelled badges without
 * calling `i18n.getMessage` itself, whose first call in a page was one of the script's larger
 * costs in CPU profiles of a bench load, the page's main thread waiting on it.
 */
import { type MessageKey, t } from './i18n';
import type { BadgeWords, PageStatus } from './views';

/** Each status's message: the popup's word, and the content script's own for `unverified`. */
export function statusKey(status: PageStatus): MessageKey {
  return status === 'unverified' ? 'content_status_unverified' : `popup_status_${status}`;
}

/** Every status of the page (a record, so that a status added to PageStatus must be listed). */
const STATUSES: Record<PageStatus, true> = {
  unverified: true,
  pending: true,
  deliverable: true,
  undeliverable: true,
  risky: true,
  unknown: true,
  invalid: true,
  error: true,
};

export function badgeWords(): BadgeWords {
  const statuses: BadgeWords['statuses'] = {};
  for (const status of Object.keys(STATUSES) as PageStatus[]) statuses[status] = t(statusKey(status));
  return { label: t('content_badge_label', '\u0001', '\u0002'), statuses };
}
