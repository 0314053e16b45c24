/**
 * `verifyEmail` as a content script may ask it. A page controls what its content script sees,
 * so a page must not be able to make the extension spend credits without bound: content scripts
 * get the default mode, always the cache first (no `force`), answers only for addresses their
 * page showed (content-found.ts), and at most a limited number of credits spent or cached
 * verdicts told per tab in a rolling window; past it they get `rate_limited` (or no verdict),
 * except for addresses the user granted from the popup ("Verify all", page-allowance.ts).
 */

import { checkEmail } from '@verimark/contract/address';
import { ApiError } from '@/lib/api/errors';
import type { SenderInfo } from '@/lib/background/core/authorize';
import { t } from '@/lib/shared/i18n';
import { invalidVerdict } from '@/lib/shared/local-verdict';
import type { Settings, VerdictView } from '@/lib/shared/views';
import { spentEditor, spentItem } from '@/lib/storage/content-spends';
import { getSettings } from '@/lib/storage/settings';
import { getCached } from '@/lib/storage/verdict-cache';
import { addFound, checkAddressList, foundOf } from './content-found';
import { giveBackDailyCredit, takeDailyCredit } from './daily-cap';
import { useAllowance } from './page-allowance';
import { lookupCached, verifyChecked } from './verify';

export const SPEND_WINDOW_MS = 10 * 60_000;
/** Spends per tab and window on top of the automatic budget (addresses the user asks for). */
export const EXPLICIT_ALLOWANCE = 25;

/**
 * Takes up to `wanted` units of `tabId`'s allowance (`limit` per window) and returns how many it
 * got; each unit is a credit spent or a cached verdict told to the tab.
 */
function takeAllowance(tabId: number, limit: number, wanted: number, now = Date.now()): Promise<number> {
  // One edit at a time (serial-edit.ts), so parallel requests cannot overspend.
  return spentEditor.edit((spent) => {
    for (const [tab, times] of Object.entries(spent)) {
      const kept = times.filter((time) => now - time < SPEND_WINDOW_MS);
      if (kept.length > 0) spent[tab] = kept;
      else delete spent[tab];
    }
    const recent = spent[tabId] ?? [];
    const granted = Math.max(0, Math.min(wanted, limit - recent.length));
    spent[tabId] = [...recent, ...Array<number>(granted).fill(now)];
    if (spent[tabId]?.length === 0) delete spent[tabId];
    return granted;
  });
}

/** Gives back one spend of `tabId` recorded at `at` (a check it allowed that was not sent). */
export function giveBackSpend(tabId: number, at: number): Promise<void> {
  return spentEditor.edit((spent) => {
    const times = spent[tabId] ?? [];
    const index = times.lastIndexOf(at);
    if (index >= 0) times.splice(index, 1);
    if (times.length === 0) delete spent[tabId];
  });
}

/** Records one spend for `tabId`, or rejects with `rate_limited` when the tab is over `limit`. */
export async function takeSpend(tabId: number, limit: number, now = Date.now()): Promise<void> {
  if ((await takeAllowance(tabId, limit, 1, now)) === 1) return;
  const oldest = (await spentEditor.read())[tabId]?.[0] ?? now;
  const retry = Math.ceil((SPEND_WINDOW_MS - (now - oldest)) / 1000);
  throw new ApiError('rate_limited', t('bg_page_rate_limited'), null, retry);
}

/** Forgets all spends (tests). */
export async function resetSpends(): Promise<void> {
  await spentItem.removeValue();
}

const tabOf = (sender: SenderInfo) => sender.tab?.id ?? -1;
const tabLimit = (settings: Settings) => settings.autoVerifyBudget + EXPLICIT_ALLOWANCE;

/** The address is normalised once, the settings and its cache entry read once (verifyChecked). */
export async function verifyForContentScript(
  data: { email: unknown; clicked?: unknown },
  sender: SenderInfo,
): Promise<VerdictView> {
  if (typeof data?.email !== 'string') throw new ApiError('bad_request', 'email must be a string');
  const { email, valid } = checkEmail(data.email);
  if (!valid) return invalidVerdict(email); // decided locally: free, and tells nothing
  if (!(await foundOf([email], sender)).has(email)) throw new ApiError('bad_request', t('bg_not_on_page'));
  const settings = await getSettings();
  const limit = tabLimit(settings);
  const cached = await getCached(email, settings.defaultMode);
  const clicked = data.clicked === true;
  // Granted by the popup's "Verify all on this page" (page-allowance.ts): once, outside the caps.
  // Otherwise the tab's window first; a credit nobody clicked for then also takes a unit of the
  // daily cap across all tabs (daily-cap.ts). What a refusal or an unsent check took is given
  // back, so only a check really sent counts: a page cannot spend the day's cap on refusals.
  const taken = { at: 0, tab: false, day: 0 };
  const spend = (paid: boolean) => async () => {
    if (await useAllowance(email, sender)) return;
    taken.at = Date.now();
    await takeSpend(tabOf(sender), limit, taken.at);
    taken.tab = true;
    if (!paid || clicked) return;
    try {
      await takeDailyCredit(settings.dailyAutoCap, taken.at);
      taken.day = taken.at;
    } catch (err) {
      await unspent();
      throw err;
    }
  };
  const unspent = async () => {
    if (taken.tab) await giveBackSpend(tabOf(sender), taken.at);
    if (taken.day) await giveBackDailyCredit(taken.day);
    taken.tab = false;
    taken.day = 0;
  };
  // A cached verdict costs no credit, but tells the page something: it counts like a spend.
  if (cached) {
    await spend(false)();
    return cached;
  }
  return verifyChecked({ email, mode: settings.defaultMode, force: false }, settings, {
    guard: spend(true),
    unspent,
  });
}

/**
 * `lookupCached` as a content script may ask it: verdicts only for addresses its frame registered
 * as found on the page (others: null), each verdict counted in the tab's allowance (past it: null,
 * so the page shows them unverified and a Verify is refused the same way).
 */
export async function lookupForContentScript(
  data: { emails: unknown; found?: boolean },
  sender: SenderInfo,
): Promise<Record<string, VerdictView | null>> {
  const raws = checkAddressList(data?.emails);
  const checked = raws.map((raw) => ({ raw, ...checkEmail(raw) }));
  const valid = checked.filter((c) => c.valid).map((c) => c.email);
  // `found`: the scan's addresses, registered as found on the sender's page in the same message.
  let found: Set<string>;
  if (data?.found === true) {
    await addFound(valid, sender);
    found = new Set(valid);
  } else found = await foundOf(valid, sender);
  const answers = await lookupCached(raws.filter((_, i) => found.has(checked[i]?.email ?? '')));
  const hits = Object.values(answers).filter((view) => view !== null).length;
  let granted = hits > 0 ? await takeAllowance(tabOf(sender), tabLimit(await getSettings()), hits) : 0;
  // No prototype: an address a page wrote as `__proto__` is a key like any other.
  const result: Record<string, VerdictView | null> = Object.create(null);
  for (const { raw, email, valid } of checked) {
    if (!valid) {
      result[raw] = invalidVerdict(email);
      continue;
    }
    const view = Object.hasOwn(answers, raw) ? (answers[raw] ?? null) : null;
    result[raw] = view && granted > 0 ? view : null;
    if (view && granted > 0) granted -= 1;
  }
  return result;
}
