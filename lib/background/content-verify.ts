/**
 * `verifyEmail` as a content script may ask it. A page controls what its content script sees,
 * so a page must not be able to make the extension spend credits without bound: content scripts
 * get the default mode, always the cache first (no `force`), and at most a limited number of
 * credit-spending calls per tab in a rolling window; past it they get `rate_limited`.
 */
import { ApiError } from '../api/errors';
import type { VerdictView } from '../messages';
import { getSettings } from '../storage/settings';
import type { SenderInfo } from './authorize';
import { verifyEmail } from './verify';

export const SPEND_WINDOW_MS = 10 * 60_000;
/** Spends per tab and window on top of the automatic budget (addresses the user asks for). */
export const EXPLICIT_ALLOWANCE = 25;

/** When each tab spent credits, within the current window. */
const spent = new Map<number, number[]>();

/** Records one spend for `tabId`, or throws `rate_limited` when the tab is over `limit`. */
export function takeSpend(tabId: number, limit: number, now = Date.now()): void {
  const recent = (spent.get(tabId) ?? []).filter((time) => now - time < SPEND_WINDOW_MS);
  if (recent.length >= limit) {
    spent.set(tabId, recent);
    const retry = Math.ceil((SPEND_WINDOW_MS - (now - (recent[0] ?? now))) / 1000);
    throw new ApiError('rate_limited', 'Too many verifications from this page; try again later', null, retry);
  }
  recent.push(now);
  spent.set(tabId, recent);
}

/** Forgets all spends (tests). */
export function resetSpends(): void {
  spent.clear();
}

export async function verifyForContentScript(
  data: { email: unknown },
  sender: SenderInfo,
): Promise<VerdictView> {
  if (typeof data?.email !== 'string') throw new ApiError('bad_request', 'email must be a string');
  const limit = (await getSettings()).autoVerifyBudget + EXPLICIT_ALLOWANCE;
  const tabId = sender.tab?.id ?? -1;
  return verifyEmail({ email: data.email }, () => takeSpend(tabId, limit));
}
