/**
 * `verifyEmail` as a content script may ask it. A page controls what its content script sees,
 * so a page must not be able to make the extension spend credits without bound: content scripts
 * get the default mode, always the cache first (no `force`), and at most a limited number of
 * credit-spending calls per tab in a rolling window; past it they get `rate_limited`.
 */
import { ApiError } from '../../api/errors';
import type { VerdictView } from '../../shared/messages';
import { spentItem } from '../../storage/content-spends';
import { getSettings } from '../../storage/settings';
import type { SenderInfo } from '../core/authorize';
import { verifyEmail } from './verify';

export const SPEND_WINDOW_MS = 10 * 60_000;
/** Spends per tab and window on top of the automatic budget (addresses the user asks for). */
export const EXPLICIT_ALLOWANCE = 25;

/** Spends are read, checked and written one at a time, so parallel requests cannot overspend. */
let queue: Promise<unknown> = Promise.resolve();

/** Records one spend for `tabId`, or rejects with `rate_limited` when the tab is over `limit`. */
export function takeSpend(tabId: number, limit: number, now = Date.now()): Promise<void> {
  const run = queue.then(async () => {
    const spent: Record<string, number[]> = {};
    for (const [tab, times] of Object.entries(await spentItem.getValue())) {
      const kept = times.filter((time) => now - time < SPEND_WINDOW_MS);
      if (kept.length > 0) spent[tab] = kept;
    }
    const recent = spent[tabId] ?? [];
    if (recent.length >= limit) {
      await spentItem.setValue(spent);
      const retry = Math.ceil((SPEND_WINDOW_MS - (now - (recent[0] ?? now))) / 1000);
      throw new ApiError(
        'rate_limited',
        'Too many verifications from this page; try again later',
        null,
        retry,
      );
    }
    spent[tabId] = [...recent, now];
    await spentItem.setValue(spent);
  });
  queue = run.catch(() => undefined);
  return run;
}

/** Forgets all spends (tests). */
export async function resetSpends(): Promise<void> {
  await spentItem.removeValue();
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
