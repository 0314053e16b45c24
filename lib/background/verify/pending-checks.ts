/**
 * A single check asked in the popup that could not be sent because the service was unreachable
 * is kept (lib/storage/pending-checks.ts) and sent by the background when the service answers
 * again: on the polling alarm and, while the popup is open, on its heartbeat, with a backoff.
 * Sending goes through `verifyEmail`, so nothing is paid twice: a cached verdict, a check in
 * flight or a persisted task for the same address and mode answers it, and the entry is removed
 * as soon as the task the service accepted is persisted. Its result lands in recent lookups.
 * A check the service refuses when it is sent (a refused key, no credits, a 400: nothing is paid)
 * is kept, marked with why, so the popup can say it plainly, until the user retries or dismisses it.
 */

import type { Mode } from '@verimark/contract';
import { ApiError, fromMessageError } from '@/lib/api/errors';
import { isRetryable } from '@/lib/api/retry';
import { ensurePollAlarm } from '@/lib/background/core/poll-alarm';
import type { VerdictView } from '@/lib/shared/views';
import {
  getPendingChecks,
  getWaitingChecks,
  markPendingRefused,
  type PendingCheck,
  removePendingCheck,
  unmarkPendingRefused,
} from '@/lib/storage/pending-checks';
import { addRecent } from '@/lib/storage/verdict-cache';
import { verifyEmail } from './verify';

/** Backoff between sending rounds that found the service still unreachable (tests shorten it). */
const pendingTiming = { initialDelayMs: 2_000, maxDelayMs: 30_000 };

let running: Promise<void> | null = null;
let failures = 0;
let nextAt = 0;

/** The checks still waiting, for the popup. */
export async function listPendingChecks(): Promise<PendingCheck[]> {
  return getPendingChecks();
}

async function sendOne(check: PendingCheck): Promise<'sent' | 'offline'> {
  let view: VerdictView;
  try {
    view = await verifyEmail({ email: check.email, mode: check.mode, force: check.force });
  } catch (err) {
    // Still unreachable (or a transient 5xx/429): kept for the next round.
    if (isRetryable(err)) return 'offline';
    // Refused (key, credits, a 400, a broken answer): nothing was paid. Kept with the reason for
    // the popup, and not sent again until the user asks.
    const { kind, status, message } = fromMessageError(err);
    await markPendingRefused(check, { kind, status, message });
    return 'sent';
  }
  // A cached verdict (someone else asked meanwhile) is not in the recent list yet.
  if (view.cached) await addRecent(view);
  await removePendingCheck(check);
  return 'sent';
}

async function sendAll(): Promise<void> {
  for (const check of await getWaitingChecks()) {
    if ((await sendOne(check)) === 'offline') {
      failures += 1;
      const delay = Math.min(pendingTiming.maxDelayMs, pendingTiming.initialDelayMs * 2 ** (failures - 1));
      nextAt = Date.now() + delay;
      return;
    }
  }
  failures = 0;
  nextAt = 0;
}

/**
 * Sends the kept checks, one round at a time; `force` ignores the backoff (the alarm's round).
 * Resolves when the round is over (or at once when it is not due).
 */
export function sendPendingChecks(options: { force?: boolean } = {}): Promise<void> {
  if (running) return running;
  if (!options.force && Date.now() < nextAt) return Promise.resolve();
  running = sendAll()
    .catch((err) => {
      if (!(err instanceof ApiError)) console.warn('[verimark] sending kept checks failed', err);
    })
    .finally(() => {
      running = null;
    });
  return running;
}

/** "Retry" on a refused check: it waits again and a round starts now. */
export async function retryPendingCheck(check: { email: string; mode: Mode }): Promise<void> {
  if (!(await unmarkPendingRefused(check))) return;
  await ensurePollAlarm();
  void sendPendingChecks({ force: true });
}

/** "Dismiss" on a kept check: forgotten, never sent. */
export async function dismissPendingCheck(check: { email: string; mode: Mode }): Promise<void> {
  await removePendingCheck(check);
  await ensurePollAlarm();
}

/** Forgets the backoff (tests). */
export function resetPendingBackoff(): void {
  failures = 0;
  nextAt = 0;
}
