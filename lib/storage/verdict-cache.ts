/**
 * The verdict cache (extension-origin IndexedDB via idb-keyval) with a lifetime per verdict,
 * and the list of recent lookups shown by the popup.
 */

import type { Mode } from '@verimark/contract';
import { clear, del, get, getMany, keys, set, update } from 'idb-keyval';
import type { MarkStatus, VerdictView } from '@/lib/shared/views';
import { idbStore } from './idb';

interface Entry {
  view: VerdictView;
  mode: Mode;
  expiresAt: number;
}

const HOUR = 3_600_000;
/** `unknown` may change soon (greylisting, a server that was down): keep it at most an hour. */
export const UNKNOWN_TTL_MS = HOUR;
const RECENT_KEY = 'recent';
const RECENT_MAX = 50;

/** Lifetime of a verdict in ms; 0 = not cached. */
export function ttlFor(status: MarkStatus, cacheTtlHours: number): number {
  const full = Math.max(0, cacheTtlHours) * HOUR;
  if (status === 'deliverable' || status === 'undeliverable' || status === 'risky') return full;
  if (status === 'unknown') return Math.min(full, UNKNOWN_TTL_MS);
  return 0;
}

const entryKey = (email: string) => `v:${email}`;

/** The cached verdict of a normalized address, if still fresh (and of `mode`, when given). */
export async function getCached(email: string, mode?: Mode, now = Date.now()): Promise<VerdictView | null> {
  const entry = await get<Entry>(entryKey(email), idbStore('verdicts'));
  if (!entry) return null;
  if (entry.expiresAt <= now) {
    await del(entryKey(email), idbStore('verdicts'));
    return null;
  }
  if (mode && entry.mode !== mode) return null;
  return { ...entry.view, cached: true };
}

/** Fresh cached verdicts of many normalized addresses in one transaction (any mode). */
export async function getCachedMany(emails: string[], now = Date.now()): Promise<Map<string, VerdictView>> {
  const unique = [...new Set(emails)];
  const entries = await getMany<Entry | undefined>(unique.map(entryKey), idbStore('verdicts'));
  const found = new Map<string, VerdictView>();
  unique.forEach((email, index) => {
    const entry = entries[index];
    if (entry && entry.expiresAt > now) found.set(email, { ...entry.view, cached: true });
  });
  return found;
}

export async function putCached(view: VerdictView, mode: Mode, cacheTtlHours: number, now = Date.now()) {
  const ttl = ttlFor(view.status, cacheTtlHours);
  if (ttl <= 0) return;
  const entry: Entry = { view: { ...view, cached: false }, mode, expiresAt: now + ttl };
  await set(entryKey(view.email), entry, idbStore('verdicts'));
}

export async function addRecent(view: VerdictView): Promise<void> {
  await update<VerdictView[]>(
    RECENT_KEY,
    (list = []) => [view, ...list.filter((item) => item.email !== view.email)].slice(0, RECENT_MAX),
    idbStore('verdicts'),
  );
}

export async function getRecent(limit: number): Promise<VerdictView[]> {
  const list = (await get<VerdictView[]>(RECENT_KEY, idbStore('verdicts'))) ?? [];
  return list.slice(0, Math.max(0, limit));
}

/** Forgets every cached verdict and the recent lookups; returns how many verdicts were cached. */
export async function clearVerdicts(): Promise<number> {
  const stored = await keys(idbStore('verdicts'));
  await clear(idbStore('verdicts'));
  return stored.filter((key) => typeof key === 'string' && key.startsWith('v:')).length;
}
