/**
 * When each tab spent credits within the content-script spend window, by tab id (see
 * lib/background/verify/content-verify.ts). In session storage, not memory: an MV3 worker stops
 * after 30 s idle, and a page waiting that long must not get a fresh allowance. Session storage
 * is cleared when the browser quits and is not readable by content scripts.
 */
import { storage } from 'wxt/utils/storage';
import { serialEditor } from './serial-edit';

export const spentItem = storage.defineItem<Record<string, number[]>>('session:contentSpends', {
  fallback: {},
});

/**
 * Credits content scripts spent without a click today, across all tabs (the daily cap,
 * lib/background/verify/daily-cap.ts). In local storage: a browser restart does not reset the day.
 */
export interface DailySpend {
  /** The local calendar day, `YYYY-MM-DD`. */
  day: string;
  spent: number;
}

export const dailySpendItem = storage.defineItem<DailySpend>('local:dailyContentSpend', {
  fallback: { day: '', spent: 0 },
});

/** Every change of today's spend, one at a time (serial-edit.ts). */
export const dailySpendEditor = serialEditor(dailySpendItem);
/** Every change of the spends, one at a time (serial-edit.ts). */
export const spentEditor = serialEditor(spentItem);
