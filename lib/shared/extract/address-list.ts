/**
 * Pulls addresses out of free text as people write recipients: `a@x.com, "Doe, Jo" <jo@y.org>; b@z.net`.
 * Only the address tokens are kept; names, quotes and angle brackets are dropped.
 */

// Something@something with no whitespace, brackets, quotes or separators: a candidate, not a verdict.
// The syntax check (lib/api/address.ts) decides whether a candidate is valid.
const CANDIDATE = /[^\s<>()[\]",;:]+@[^\s<>()[\]"',;:]+/g;
const MAX_TEXT = 10_000;
const MAX_ADDRESSES = 50;

/** Candidate addresses in a recipients string, in order, without duplicates. */
export function addressesInText(text: string): string[] {
  const out: string[] = [];
  const slice = text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text;
  for (const match of slice.matchAll(CANDIDATE)) {
    const candidate = trimPunctuation(match[0]);
    if (candidate.includes('@') && !out.includes(candidate)) out.push(candidate);
    if (out.length >= MAX_ADDRESSES) break;
  }
  return out;
}

/** A trailing full stop or similar belongs to the sentence, not to the address. */
function trimPunctuation(candidate: string): string {
  return candidate.replace(/^[.!?]+/, '').replace(/[.!?]+$/, '');
}
