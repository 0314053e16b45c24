/** The content script's words: the popup's sentences for verdicts and reasons, through the one i18n. */

import { statusKey } from '@/lib/shared/badge-words';
import { message, t } from '@/lib/shared/i18n';
import type { BadgeWords } from '@/lib/shared/views';
import type { PageStatus } from './status';

export { reasonSentence } from '@/lib/shared/reason-words';
export { t };

const words = new Map<PageStatus, string>();

/** The status in words (looked up once per status: a page may draw thousands of badges). */
export function statusWord(status: PageStatus): string {
  let word = words.get(status);
  if (word === undefined) {
    word = message(statusKey(status));
    words.set(status, word);
  }
  return word;
}

let labelTemplate: string | null = null;

/**
 * Takes the badges' words the background sent with the configuration (lib/shared/badge-words.ts),
 * so drawing badges never calls `i18n.getMessage` in the page; words it lacks are looked up.
 */
export function useBadgeWords(given: BadgeWords | undefined): void {
  if (!given) return;
  labelTemplate = given.label;
  for (const [status, word] of Object.entries(given.statuses)) words.set(status as PageStatus, word);
}

/** The badge's label for screen readers: "Verimark: <status>, <addresses>. Press for details." */
export function badgeLabel(status: PageStatus, emails: string): string {
  labelTemplate ??= message('content_badge_label', '\u0001', '\u0002');
  return labelTemplate.replace('\u0001', () => statusWord(status)).replace('\u0002', () => emails);
}
