/**
 * "Verify all on this page" is the user's confirmed act in the popup, not the page driving the
 * extension: the popup (an extension page; content scripts may not send `allowPageVerify`) grants
 * the tab a one-shot allowance of exactly the addresses it listed that the tab's top frame also
 * registered as found (content-found.ts). Each address of the grant lets one verification of it
 * by that tab's content script pass the per-tab cap (content-verify.ts), once, within
 * ALLOWANCE_TTL_MS and only at the origin where it was found. A content script alone still
 * cannot exceed its cap.
 */

import { checkEmail } from '@verimark/contract/address';
import { ApiError } from '@/lib/api/errors';
import type { SenderInfo } from '@/lib/background/core/authorize';
import { foundEditor } from '@/lib/storage/content-found';
import { allowanceEditor } from '@/lib/storage/page-allowances';
import { FOUND_FRAME_MAX } from './content-found';

/** How long a grant waits for the content script's requests. */
const ALLOWANCE_TTL_MS = 5 * 60_000;

function originOf(url: string | undefined): string {
  try {
    return new URL(url ?? '').origin;
  } catch {
    return 'null';
  }
}

/** Grants `tabId` one verification of each listed address its top frame found; returns how many. */
export async function allowPageVerify(
  data: { tabId: unknown; emails: unknown },
  now = Date.now(),
): Promise<{ allowed: number }> {
  const { tabId, emails } = data ?? {};
  if (typeof tabId !== 'number' || !Number.isInteger(tabId) || tabId < 0)
    throw new ApiError('bad_request', 'tabId must be a tab id');
  if (
    !Array.isArray(emails) ||
    emails.length > FOUND_FRAME_MAX ||
    !emails.every((e) => typeof e === 'string' && e.length <= 320)
  )
    throw new ApiError('bad_request', `emails must be a list of at most ${FOUND_FRAME_MAX} addresses`);
  const top = (await foundEditor.read())[`${tabId}:0`];
  const found = new Set(top?.emails ?? []);
  const listed = [
    ...new Set(
      (emails as string[])
        .map((raw) => checkEmail(raw))
        .filter((c) => c.valid)
        .map((c) => c.email),
    ),
  ];
  const granted = listed.filter((email) => found.has(email));
  await allowanceEditor.edit((all) => {
    if (granted.length === 0 || !top) delete all[tabId];
    else all[tabId] = { origin: top.origin, emails: granted, expiresAt: now + ALLOWANCE_TTL_MS };
  });
  return { allowed: granted.length };
}

/** Uses up the sender tab's grant for `email`: true once per granted address, false otherwise. */
export function useAllowance(email: string, sender: SenderInfo, now = Date.now()): Promise<boolean> {
  const tabId = sender.tab?.id;
  if (tabId === undefined || (sender.frameId ?? 0) !== 0) return Promise.resolve(false);
  return allowanceEditor.edit((all) => {
    const grant = all[tabId];
    if (!grant) return false;
    if (grant.expiresAt <= now) {
      delete all[tabId];
      return false;
    }
    const index = grant.emails.indexOf(email);
    if (grant.origin !== originOf(sender.url) || index < 0) return false;
    grant.emails.splice(index, 1);
    if (grant.emails.length === 0) delete all[tabId];
    return true;
  });
}

/** Forgets a closed tab's grant. */
export async function forgetAllowance(tabId: number): Promise<void> {
  await allowanceEditor.edit((all) => {
    delete all[tabId];
  });
}
