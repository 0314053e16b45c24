import 'fake-indexeddb/auto';
import { clear } from 'idb-keyval';
import { beforeEach, describe, expect, it } from 'vitest';
import type { VerdictView } from '@/lib/shared/views';
import { verdictView } from '@/lib/testing/verdict-view';
import { idbStore } from './idb';
import {
  addRecent,
  getCached,
  getCachedMany,
  getRecent,
  putCached,
  ttlFor,
  UNKNOWN_TTL_MS,
} from './verdict-cache';

const HOUR = 3_600_000;
const NOW = 1_000_000_000;
const view = (email: string, status: VerdictView['status']) =>
  verdictView(email, status, { verifiedAt: NOW });

beforeEach(() => clear(idbStore('verdicts')));

describe('lifetime per verdict', () => {
  it('keeps definitive verdicts for the configured hours, unknown at most an hour, errors not at all', () => {
    expect(ttlFor('deliverable', 24)).toBe(24 * HOUR);
    expect(ttlFor('undeliverable', 24)).toBe(24 * HOUR);
    expect(ttlFor('unknown', 24)).toBe(UNKNOWN_TTL_MS);
    expect(ttlFor('unknown', 0.5)).toBe(0.5 * HOUR);
    expect(ttlFor('error', 24)).toBe(0);
    expect(ttlFor('pending', 24)).toBe(0);
  });
});

describe('the verdict cache', () => {
  it('serves a verdict as cached until its lifetime ends', async () => {
    await putCached(view('a@example.com', 'deliverable'), 'catch_all', 2, NOW);
    expect(await getCached('a@example.com', 'catch_all', NOW + 2 * HOUR - 1)).toMatchObject({ cached: true });
    expect(await getCached('a@example.com', 'catch_all', NOW + 2 * HOUR)).toBeNull();
    // Expired entries are gone for good.
    expect(await getCached('a@example.com', 'catch_all', NOW)).toBeNull();
  });

  it('expires unknown verdicts after an hour even with a long setting', async () => {
    await putCached(view('u@example.com', 'unknown'), 'catch_all', 24 * 7, NOW);
    expect(await getCached('u@example.com', undefined, NOW + HOUR - 1)).not.toBeNull();
    expect(await getCached('u@example.com', undefined, NOW + HOUR)).toBeNull();
  });

  it('does not store errors and does not serve a verdict of another mode', async () => {
    await putCached(view('e@example.com', 'error'), 'catch_all', 24, NOW);
    expect(await getCached('e@example.com', undefined, NOW)).toBeNull();
    await putCached(view('m@example.com', 'risky'), 'catch_all', 24, NOW);
    expect(await getCached('m@example.com', 'non_catch_all', NOW)).toBeNull();
    expect(await getCached('m@example.com', undefined, NOW)).not.toBeNull();
  });
});

describe('recent lookups', () => {
  it('lists newest first without duplicates, up to the limit', async () => {
    await addRecent(view('a@example.com', 'deliverable'));
    await addRecent(view('b@example.com', 'risky'));
    await addRecent(view('a@example.com', 'undeliverable'));
    const recent = await getRecent(5);
    expect(recent.map((item) => [item.email, item.status])).toEqual([
      ['a@example.com', 'undeliverable'],
      ['b@example.com', 'risky'],
    ]);
    expect(await getRecent(1)).toHaveLength(1);
  });
});

describe('getCachedMany', () => {
  it('returns the fresh verdicts of many addresses at once', async () => {
    await putCached(view('a@example.com', 'deliverable'), 'catch_all', 1, NOW);
    await putCached(view('b@example.com', 'unknown'), 'catch_all', 1, NOW - HOUR);
    const found = await getCachedMany(
      ['a@example.com', 'b@example.com', 'c@example.com', 'a@example.com'],
      NOW,
    );
    expect([...found.keys()]).toEqual(['a@example.com']);
    expect(found.get('a@example.com')?.cached).toBe(true);
  });
});
