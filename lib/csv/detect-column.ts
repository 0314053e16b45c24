/**
 * Which column of a CSV the popup preselects as the email column: the column the service would
 * read when no `emailColumn` is sent (the shared rule, @verimark/contract/email-column: `Email`
 * exactly, then any case, names compared trimmed), else the column whose sampled values look most
 * like addresses. -1 when none does. The popup then sends the chosen column's name.
 */
import { findEmailColumn } from '@verimark/contract/email-column';

const EMAIL_LIKE = /^[^\s@<>",;]+@[^\s@<>",;]+\.[^\s@<>",;.]+$/;

/** A loose shape test for counting, not validation: the service decides what is deliverable. */
export function looksLikeEmail(value: string): boolean {
  return EMAIL_LIKE.test(value.trim());
}

/**
 * @param headers the header row
 * @param emailLike for each column, how many sampled values look like addresses
 */
export function detectEmailColumn(headers: readonly string[], emailLike: readonly number[]): number {
  const named = findEmailColumn(headers);
  if (named >= 0) return named;
  let best = -1;
  let bestCount = 0;
  emailLike.forEach((count, index) => {
    if (count > bestCount && index < headers.length) {
      best = index;
      bestCount = count;
    }
  });
  return best;
}
