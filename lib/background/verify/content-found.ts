/**
 * The addresses each content script found on its page, per tab and frame. The background cannot
 * see the page: the content script registers what its scan took up (`lookupCached` with `found`),
 * and only those get a verdict back (cached or paid). A verdict obtained elsewhere (another site,
 * the popup) is thus told to a page only for an address that page shows; and how many verdicts a
 * tab gets is capped with its spends (content-verify.ts). A frame that moves to another origin starts
 * with an empty set. Kept in session storage (lib/storage/content-found.ts); forgotten when the
 * tab closes or the browser quits.
 */

import { ApiError } from '@/lib/api/errors';
import type { SenderInfo } from '@/lib/background/core/authorize';
import { LOOKUP_MAX } from '@/lib/shared/messages';
import { foundEditor } from '@/lib/storage/content-found';

/** The most addresses remembered per frame (the oldest go first). */
export const FOUND_FRAME_MAX = 5_000;
const ADDRESS_MAX_CHARS = 320;

function frameKey(sender: SenderInfo): string {
  return `${sender.tab?.id ?? -1}:${sender.frameId ?? 0}`;
}

function originOf(sender: SenderInfo): string {
  try {
    return new URL(sender.url ?? '').origin;
  } catch {
    return 'null';
  }
}

/** A list of at most LOOKUP_MAX short strings, or a `bad_request`. */
export function checkAddressList(value: unknown): string[] {
  if (
    !Array.isArray(value) ||
    value.length > LOOKUP_MAX ||
    !value.every((e) => typeof e === 'string' && e.length <= ADDRESS_MAX_CHARS)
  ) {
    throw new ApiError(
      'bad_request',
      `emails must be a list of at most ${LOOKUP_MAX} strings of at most ${ADDRESS_MAX_CHARS} characters`,
    );
  }
  return value as string[];
}

/** Records addresses (normalized, valid: checked by the caller) the sender's frame found on its page. */
export function addFound(emails: readonly string[], sender: SenderInfo): Promise<void> {
  const key = frameKey(sender);
  const origin = originOf(sender);
  return foundEditor.edit((all) => {
    const current = all[key]?.origin === origin ? (all[key]?.emails ?? []) : [];
    const merged = [...new Set([...current, ...emails])];
    all[key] = { origin, emails: merged.slice(Math.max(0, merged.length - FOUND_FRAME_MAX)) };
  });
}

/** The normalized addresses of `emails` that the sender's frame registered, at its current origin. */
export async function foundOf(emails: readonly string[], sender: SenderInfo): Promise<Set<string>> {
  const entry = (await foundEditor.read())[frameKey(sender)];
  if (!entry || entry.origin !== originOf(sender)) return new Set();
  const known = new Set(entry.emails);
  return new Set(emails.filter((email) => known.has(email)));
}

/** Forgets a closed tab's frames. */
export async function forgetTab(tabId: number): Promise<void> {
  await foundEditor.edit((all) => {
    for (const key of Object.keys(all)) if (key.startsWith(`${tabId}:`)) delete all[key];
  });
}

/** Forgets everything (tests). */
export async function resetFound(): Promise<void> {
  await foundEditor.edit((all) => {
    for (const key of Object.keys(all)) delete all[key];
  });
}
