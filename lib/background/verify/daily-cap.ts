/**
 * The daily cap on credits spent without a click (docs/design.md §5): every tab together may
 * spend at most `dailyAutoCap` credits a calendar day on addresses nobody clicked. Past it a
 * request is refused as `rate_limited`, which leaves the page's mark `unverified` (the user can
 * still click it). Addresses the user asked for — a click, or "Verify all on this page" — are
 * not counted. A unit is taken only once the tab's own limit allowed the check, and given back
 * when the check is not sent after all (content-verify.ts): only a check really sent counts.
 */

import { ApiError } from '@/lib/api/errors';
import { t } from '@/lib/shared/i18n';
import { dailySpendEditor, dailySpendItem } from '@/lib/storage/content-spends';

/** The local calendar day of `now`, `YYYY-MM-DD`. */
export function dayOf(now: number): string {
  const date = new Date(now);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Takes one credit of today's cap, or rejects with `rate_limited` (retry after midnight) when it is used up. */
export function takeDailyCredit(cap: number, now = Date.now()): Promise<void> {
  // One edit at a time (serial-edit.ts), so parallel requests from many tabs cannot overspend.
  return dailySpendEditor.edit((stored) => {
    const day = dayOf(now);
    const spent = stored.day === day ? stored.spent : 0;
    if (spent >= cap) {
      const midnight = new Date(now);
      midnight.setHours(24, 0, 0, 0);
      const retry = Math.max(1, Math.ceil((midnight.getTime() - now) / 1000));
      throw new ApiError('rate_limited', t('bg_daily_cap_reached'), null, retry);
    }
    stored.day = day;
    stored.spent = spent + 1;
  });
}

/** Gives back the unit taken at `takenAt` (its check was not sent), if that day is still today's record. */
export function giveBackDailyCredit(takenAt: number): Promise<void> {
  return dailySpendEditor.edit((stored) => {
    if (stored.day === dayOf(takenAt) && stored.spent > 0) stored.spent -= 1;
  });
}

/** Credits spent without a click today (for tests and the popup). */
export async function spentToday(now = Date.now()): Promise<number> {
  const stored = await dailySpendItem.getValue();
  return stored.day === dayOf(now) ? stored.spent : 0;
}
