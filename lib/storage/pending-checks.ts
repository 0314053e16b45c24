/**
 * Single checks asked in the popup that the background could not send (the service was
 * unreachable), kept until the service answers again (lib/background/verify/pending-checks.ts).
 * In the jobs database (IndexedDB), one read-modify-write transaction per change; one entry per
 * mode and address, so the same check asked twice while offline is kept (and paid) once.
 * A kept check the service then refused (401, 402, 400…) stays, marked `refused`, until the user
 * retries or dismisses it in the popup, so the popup can say why it was not verified — also after
 * it was closed and opened again.
 */

import type { Mode } from '@verimark/contract';
import { get, update } from 'idb-keyval';
import type { CheckRefusal } from '@/lib/shared/views';
import { idbStore } from './idb';

export interface PendingCheck {
  email: string;
  mode: Mode;
  /** The user asked to bypass the cache ("Verify again"). */
  force: boolean;
  queuedAt: number;
  /** Set when the service refused it: not sent again until the user retries. */
  refused?: CheckRefusal;
}

type CheckId = { email: string; mode: Mode };

const KEY = 'pendingChecks';
const same = (a: CheckId, b: CheckId) => a.email === b.email && a.mode === b.mode;
/** The check without its refusal: waiting to be sent again. */
const waiting = ({ refused: _refused, ...check }: PendingCheck): PendingCheck => check;

function change(fn: (checks: PendingCheck[]) => PendingCheck[]): Promise<void> {
  return update<PendingCheck[]>(KEY, (checks = []) => fn(checks), idbStore('jobs'));
}

/** Every kept check, refused ones included. */
export async function getPendingChecks(): Promise<PendingCheck[]> {
  return (await get<PendingCheck[]>(KEY, idbStore('jobs'))) ?? [];
}

/** The kept checks still to be sent (not refused). */
export async function getWaitingChecks(): Promise<PendingCheck[]> {
  return (await getPendingChecks()).filter((check) => !check.refused);
}

/**
 * Keeps `check` (an existing entry for its mode and address is kept, forced if either is; asked
 * again, a refused one waits to be sent again).
 */
export async function addPendingCheck(check: PendingCheck): Promise<void> {
  await change((checks) => {
    const existing = checks.find((item) => same(item, check));
    if (!existing) return [...checks, check];
    return checks.map((item) =>
      item === existing ? { ...waiting(item), force: item.force || check.force } : item,
    );
  });
}

/** Marks a kept check refused (a no-op when it is no longer kept). */
export async function markPendingRefused(check: CheckId, refused: CheckRefusal): Promise<void> {
  await change((checks) => checks.map((item) => (same(item, check) ? { ...item, refused } : item)));
}

/** Clears a refusal: the check waits to be sent again. Returns whether it was kept. */
export async function unmarkPendingRefused(check: CheckId): Promise<boolean> {
  let found = false;
  await change((checks) =>
    checks.map((item) => {
      if (!same(item, check)) return item;
      found = true;
      return waiting(item);
    }),
  );
  return found;
}

export async function removePendingCheck(check: CheckId): Promise<void> {
  await change((checks) => checks.filter((item) => !same(item, check)));
}
