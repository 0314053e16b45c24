/**
 * Polling that survives the service worker: one alarm, armed while jobs are running or checks
 * kept offline wait, whose handler sends those checks, re-attaches single tasks and polls bulk files. While the popup is open its heartbeat
 * polls bulk files more often (the worker is alive then anyway).
 */
import { browser } from 'wxt/browser';
import { getJobs, isRunning } from '@/lib/storage/jobs';
import { getWaitingChecks } from '@/lib/storage/pending-checks';

export const POLL_ALARM = 'verimark-poll';
/** Chrome's shortest alarm period. */
const ALARM_PERIOD_MINUTES = 0.5;
/** Bulk status calls while the popup is open: at most one per this interval. */
const POPUP_POLL_INTERVAL_MS = 2_000;

/** Arms the alarm when jobs are running or checks wait to be sent, clears it when none do. */
export async function ensurePollAlarm(): Promise<boolean> {
  const running = (await getJobs()).some(isRunning) || (await getWaitingChecks()).length > 0;
  const existing = await browser.alarms.get(POLL_ALARM);
  if (running && !existing) {
    await browser.alarms.create(POLL_ALARM, {
      delayInMinutes: ALARM_PERIOD_MINUTES,
      periodInMinutes: ALARM_PERIOD_MINUTES,
    });
  } else if (!running && existing) {
    await browser.alarms.clear(POLL_ALARM);
  }
  return running;
}

let lastBulkPollAt = 0;

/**
 * Runs `poll` for a heartbeat of the open popup, at most once per POPUP_POLL_INTERVAL_MS.
 * Returns whether it ran.
 */
export function onPopupHeartbeat(poll: () => Promise<void>, now = Date.now()): boolean {
  if (now - lastBulkPollAt < POPUP_POLL_INTERVAL_MS) return false;
  lastBulkPollAt = now;
  poll().catch((err) => console.warn('[verimark] poll failed', err));
  return true;
}

export function markBulkPolled(now = Date.now()): void {
  lastBulkPollAt = now;
}
