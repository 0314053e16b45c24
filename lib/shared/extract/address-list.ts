/**
 * Pulls addresses out of free text as people write recipients: `a@x.com, "Doe, Jo" <jo@y.org>; b@z.net`.
 * Only the address tokens are kept; names, quotes and angle brackets are dropped.
 */

// Something@something with no whitespace, brackets, quotes or separators: a candidate, not a verdict.
// The syntax check (contract/src/address.ts) decides whether a candidate is valid.
const CANDIDATE = /[^\s<>()[\]",;:]+@[^\s<>()[\]"',;:]+/g;
const MAX_TEXT = 10_000;
const MAX_ADDRESSES = 50;
/** How much of a text with no readable address is kept to be shown as invalid. */
const MAX_WRITTEN = 320;

/**
 * Candidate addresses in running text (a selection, a label), in order, without duplicates;
 * punctuation of the sentence around an address (`Write to info@acme.test.`) is dropped.
 */
export function addressesInText(text: string): string[] {
  return candidates(text, trimPunctuation);
}

function candidates(text: string, clean: (candidate: string) => string): string[] {
  const out: string[] = [];
  const slice = text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text;
  for (const match of slice.matchAll(CANDIDATE)) {
    const candidate = clean(match[0]);
    if (candidate.includes('@') && !out.includes(candidate)) out.push(candidate);
    if (out.length >= MAX_ADDRESSES) break;
  }
  return out;
}

/**
 * The addresses of a recipients value (a field, a mailto: list, an address attribute) exactly as
 * written — `.dave@good.test` stays as typed, to be judged by the address rules — or the whole
 * (trimmed) value when something is written but no address can be read in it (`bob.good.test`,
 * `frank@`): kept to be judged invalid rather than left unmarked. Nothing for a blank value.
 */
export function addressesOrWritten(text: string): string[] {
  const written = text.trim();
  if (written === '') return [];
  const found = candidates(written, (candidate) => candidate);
  return found.length > 0 ? found : [written.slice(0, MAX_WRITTEN)];
}

/** A trailing full stop or similar belongs to the sentence, not to the address. */
function trimPunctuation(candidate: string): string {
  return candidate.replace(/^[.!?]+/, '').replace(/[.!?]+$/, '');
}
