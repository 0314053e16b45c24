/**
 * Which column of a CSV holds the email addresses: `Email` exactly, then a case-insensitive
 * match, then the column whose sampled values look most like addresses. -1 when none does.
 */
import { DEFAULT_EMAIL_COLUMN } from '@verimark/contract';

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
  const exact = headers.indexOf(DEFAULT_EMAIL_COLUMN);
  if (exact >= 0) return exact;
  const wanted = DEFAULT_EMAIL_COLUMN.toLowerCase();
  const loose = headers.findIndex((h) => h.trim().toLowerCase() === wanted);
  if (loose >= 0) return loose;
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
