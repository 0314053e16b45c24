/**
 * Single checks asked in the popup that the background could not send (the service was
 * unreachable), kept until the service answers again (lib/background/verify/pending-checks.ts).
 * In the jobs database (IndexedDB), one read-modify-write transaction per change; one entry per
 * mode and address, so the same check asked twice while offline is kept (and paid) once.
 */
import { get, update } from 'idb-keyval';
import type { Mode } from '../api/contract';
import { idbStore } from './idb';

export interface PendingCheck {
  email: string;
  mode: Mode;
  /** The user asked to bypass the cache ("Verify again"). */
  force: boolean;
  queuedAt: number;
}

const KEY = 'pendingChecks';
const same = (a: { email: string; mode: Mode }, b: { email: string; mode: Mode }) =>
  a.email === b.email && a.mode === b.mode;

export async function getPendingChecks(): Promise<PendingCheck[]> {
  return (await get<PendingCheck[]>(KEY, idbStore('jobs'))) ?? [];
}

/** Keeps `check` (an existing entry for its mode and address is kept, forced if either is). */
export async function addPendingCheck(check: PendingCheck): Promise<void> {
  await update<PendingCheck[]>(
    KEY,
    (checks = []) => {
      const existing = checks.find((item) => same(item, check));
      if (!existing) return [...checks, check];
      return checks.map((item) => (item === existing ? { ...item, force: item.force || check.force } : item));
    },
    idbStore('jobs'),
  );
}

export async function removePendingCheck(check: { email: string; mode: Mode }): Promise<void> {
  await update<PendingCheck[]>(
    KEY,
    (checks = []) => checks.filter((item) => !same(item, check)),
    idbStore('jobs'),
  );
}
