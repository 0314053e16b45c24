import { PATHS } from '@verimark/contract';
import { checkEmail } from '@verimark/contract/address';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fromMessageError } from '@/lib/api/errors';
import type { SenderInfo } from '@/lib/background/core/authorize';
import { dispatch } from '@/lib/background/core/router';
import { countRequests, useFakeService } from '@/lib/background/testing/setup';
import { getSettings, updateSettings } from '@/lib/storage/settings';
import { getCached } from '@/lib/storage/verdict-cache';
import { addFound, resetFound } from './content-found';
import { EXPLICIT_ALLOWANCE, resetSpends, SPEND_WINDOW_MS, takeSpend } from './content-verify';
import { singlePollTiming } from './verify';

// The real modules, with their reads counted.
vi.mock('@verimark/contract/address', async (original) => {
  const actual = await original<typeof import('@verimark/contract/address')>();
  return { ...actual, checkEmail: vi.fn(actual.checkEmail) };
});
vi.mock('@/lib/storage/settings', async (original) => {
  const actual = await original<typeof import('@/lib/storage/settings')>();
  return { ...actual, getSettings: vi.fn(actual.getSettings) };
});
vi.mock('@/lib/storage/verdict-cache', async (original) => {
  const actual = await original<typeof import('@/lib/storage/verdict-cache')>();
  return { ...actual, getCached: vi.fn(actual.getCached) };
});

const ID = 'test-extension-id';
const popup: SenderInfo = { id: ID, url: `chrome-extension://${ID}/popup.html` };
const page = (tabId: number, url = 'https://crm.example.com/', frameId = 0): SenderInfo => ({
  id: ID,
  url,
  tab: { id: tabId },
  frameId,
});
/** What a content script's scan registers (lookupCached with `found`), without the lookup. */
const show = (sender: SenderInfo, emails: string[]) => addFound(emails, sender);

const env = useFakeService(() => ({ pendingPolls: 0 }));
beforeAll(() => {
  singlePollTiming.initialDelayMs = 5;
});
beforeEach(async () => {
  await resetSpends();
  await resetFound();
});

const spends = () => countRequests(env.server.requests, PATHS.single);

describe('verifyEmail from a content script', () => {
  it('normalises the address once and reads the settings and the cache once', async () => {
    await show(page(1), ['count@example.com']);
    for (const counted of [checkEmail, getSettings, getCached]) vi.mocked(counted).mockClear();
    const paid = await dispatch('verifyEmail', { email: ' count@EXAMPLE.com ' }, page(1));
    expect(paid).toMatchObject({ email: 'count@example.com', status: 'deliverable', cached: false });
    expect(spends()).toBe(1);
    expect(vi.mocked(checkEmail)).toHaveBeenCalledTimes(1);
    expect(vi.mocked(getSettings)).toHaveBeenCalledTimes(1);
    expect(vi.mocked(getCached)).toHaveBeenCalledTimes(1);
  });

  it('cannot bypass the cache with force, nor pay again in another mode', async () => {
    await dispatch('verifyEmail', { email: 'ann@example.com' }, popup);
    await show(page(1), ['ann@example.com']);
    const view = await dispatch(
      'verifyEmail',
      { email: 'ann@example.com', force: true, mode: 'non_catch_all' },
      page(1),
    );
    expect(view).toMatchObject({ status: 'deliverable', cached: true });
    expect(spends()).toBe(1);
    // The popup (the user's own request) may still force a fresh verification.
    await dispatch('verifyEmail', { email: 'ann@example.com', force: true }, popup);
    expect(spends()).toBe(2);
  });

  it('spends at most the budget plus an allowance per tab, then is rate limited', async () => {
    await updateSettings({ autoVerifyBudget: 0 });
    const ask = async (tabId: number, n: number) => {
      await show(page(tabId), [`u${n}@example.com`]);
      return dispatch('verifyEmail', { email: `u${n}@example.com` }, page(tabId));
    };
    await Promise.all(Array.from({ length: EXPLICIT_ALLOWANCE }, (_, n) => ask(1, n)));
    expect(spends()).toBe(EXPLICIT_ALLOWANCE);
    const refused = fromMessageError(await ask(1, 999).catch((err: unknown) => err));
    expect(refused.kind).toBe('rate_limited');
    expect(refused.retryAfterSeconds).toBeGreaterThan(0);
    expect(spends()).toBe(EXPLICIT_ALLOWANCE);
    // A cached verdict counts too; other tabs and the popup are not affected.
    expect(fromMessageError(await ask(1, 0).catch((err: unknown) => err)).kind).toBe('rate_limited');
    expect((await ask(2, 0)).cached).toBe(true);
    expect((await ask(2, 1000)).status).toBe('deliverable');
    expect((await dispatch('verifyEmail', { email: 'p@example.com' }, popup)).status).toBe('deliverable');
    expect(spends()).toBe(EXPLICIT_ALLOWANCE + 2);
  });

  it('refuses an address its page did not show (attack: asking for any address)', async () => {
    const err = fromMessageError(
      await dispatch('verifyEmail', { email: 'elsewhere@example.com' }, page(1)).catch((e: unknown) => e),
    );
    expect(err.kind).toBe('bad_request');
    expect(spends()).toBe(0);
  });

  it('refuses an email that is not a string', async () => {
    const err = fromMessageError(
      await dispatch('verifyEmail', { email: 42 as unknown as string }, page(1)).catch((e: unknown) => e),
    );
    expect(err.kind).toBe('bad_request');
  });
});

describe('lookupCached from a content script (attack: learning what the user verified elsewhere)', () => {
  const secret = 'ceo@example.com';
  const lookup = (sender: SenderInfo, emails: string[]) => dispatch('lookupCached', { emails }, sender);

  it('gives no verdict for an address its page did not show, whatever the cache holds', async () => {
    await dispatch('verifyEmail', { email: secret }, popup); // verified by the user, in the popup
    const crm = page(1, 'https://crm.example.com/deals');
    expect((await lookup(crm, [secret]))[secret]).toBeNull();
    // Found by another tab, another frame of this tab, or this frame at another origin: still nothing.
    await show(page(2), [secret]);
    await show(page(1, 'https://crm.example.com/', 3), [secret]);
    await show(page(1, 'https://evil.example.net/'), [secret]);
    expect((await lookup(crm, [secret]))[secret]).toBeNull();
    // Once this page shows it, the cached verdict is told (no credit spent).
    await show(crm, [secret]);
    expect((await lookup(crm, [secret]))[secret]).toMatchObject({ status: 'deliverable', cached: true });
    // The frame moves to another site: what it found before no longer counts.
    expect((await lookup(page(1, 'https://evil.example.net/x'), [secret]))[secret]).toBeNull();
    expect(spends()).toBe(1);
  });

  it('registers and looks up in one message with found, for its own frame only', async () => {
    await dispatch('verifyEmail', { email: secret }, popup);
    const crm = page(1, 'https://crm.example.com/deals');
    const both = (sender: SenderInfo) => dispatch('lookupCached', { emails: [secret], found: true }, sender);
    expect((await both(crm))[secret]).toMatchObject({ status: 'deliverable', cached: true });
    // Registered as found: a plain lookup of this frame now answers too, other frames not.
    expect((await lookup(crm, [secret]))[secret]).toMatchObject({ status: 'deliverable' });
    expect((await lookup(page(1, 'https://crm.example.com/', 3), [secret]))[secret]).toBeNull();
    // The same size limit holds.
    const err = fromMessageError(
      await dispatch('lookupCached', { emails: Array(101).fill(secret), found: true }, crm).catch(
        (e: unknown) => e,
      ),
    );
    expect(err.kind).toBe('bad_request');
    expect(spends()).toBe(1);
  });

  it('counts cached verdicts in the tab’s allowance, and refuses oversized messages', async () => {
    await updateSettings({ autoVerifyBudget: 0 });
    const emails = Array.from({ length: EXPLICIT_ALLOWANCE + 5 }, (_, n) => `c${n}@example.com`);
    await Promise.all(emails.map((email) => dispatch('verifyEmail', { email }, popup)));
    await show(page(1), emails);
    const answer = await lookup(page(1), emails);
    expect(Object.values(answer).filter((v) => v !== null)).toHaveLength(EXPLICIT_ALLOWANCE);
    // Past the allowance: no verdict by lookup, and a Verify is refused without spending.
    expect(Object.values(await lookup(page(1), emails)).filter((v) => v !== null)).toHaveLength(0);
    const late = emails.at(-1) ?? '';
    expect(
      fromMessageError(await dispatch('verifyEmail', { email: late }, page(1)).catch((e: unknown) => e)).kind,
    ).toBe('rate_limited');
    for (const bad of [Array(101).fill('a@example.com'), ['x'.repeat(400)]]) {
      const err = fromMessageError(await lookup(page(1), bad).catch((e: unknown) => e));
      expect(err.kind).toBe('bad_request');
      const found = dispatch('lookupCached', { emails: bad, found: true }, page(1));
      expect(fromMessageError(await found.catch((e: unknown) => e)).kind).toBe('bad_request');
    }
    expect(spends()).toBe(emails.length);
  });
});

describe('takeSpend', () => {
  it('frees a tab again once its oldest spend leaves the window', async () => {
    await takeSpend(5, 2, 0);
    await takeSpend(5, 2, 1_000);
    await expect(takeSpend(5, 2, 2_000)).rejects.toThrow(/Too many/);
    await expect(takeSpend(5, 2, SPEND_WINDOW_MS)).resolves.toBeUndefined();
  });

  it('never lets parallel requests of one tab past the limit', async () => {
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, () => takeSpend(6, 3, 1_000)));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(3);
  });

  it('keeps counting after the worker restarts (a fresh module, the same session storage)', async () => {
    await takeSpend(7, 2, 1_000);
    await takeSpend(7, 2, 2_000);
    vi.resetModules();
    const restarted = await import('./content-verify');
    await expect(restarted.takeSpend(7, 2, 3_000)).rejects.toThrow(/Too many/);
    await expect(restarted.takeSpend(8, 2, 3_000)).resolves.toBeUndefined();
  });
});

describe('"Verify all on this page" from the popup (one-shot allowance)', () => {
  const overCap = async () => {
    await updateSettings({ autoVerifyBudget: 0 });
    const used = Array.from({ length: EXPLICIT_ALLOWANCE }, (_, n) => `used${n}@example.com`);
    await show(page(1), used);
    await Promise.all(used.map((email) => dispatch('verifyEmail', { email }, page(1))));
  };
  const verify = (email: string, sender = page(1)) =>
    dispatch('verifyEmail', { email }, sender).catch((err: unknown) => fromMessageError(err));

  it('lets the tab verify exactly the listed addresses its page showed, once each, past its cap', async () => {
    await overCap();
    await show(page(1), ['a@example.com', 'b@example.com', 'c@example.com']);
    const before = spends();
    // d@ was never on the page: listed, but not granted.
    const { allowed } = await dispatch(
      'allowPageVerify',
      { tabId: 1, emails: ['a@example.com', 'b@Example.COM', 'd@example.com'] },
      popup,
    );
    expect(allowed).toBe(2);
    expect(await verify('a@example.com')).toMatchObject({ status: 'deliverable' });
    expect(await verify('b@example.com')).toMatchObject({ status: 'deliverable' });
    expect(spends()).toBe(before + 2);
    // Not listed (c@), or listed but not found (d@): still capped.
    expect(await verify('c@example.com')).toMatchObject({ kind: 'rate_limited' });
    await show(page(1), ['d@example.com']);
    expect(await verify('d@example.com')).toMatchObject({ kind: 'rate_limited' });
    // One-shot: asking a@ again (now cached) is counted against the cap again.
    expect(await verify('a@example.com')).toMatchObject({ kind: 'rate_limited' });
    expect(spends()).toBe(before + 2);
  });

  it('is refused to a content script (a page cannot grant itself an allowance)', async () => {
    await overCap();
    await show(page(1), ['a@example.com']);
    const err = fromMessageError(
      await dispatch('allowPageVerify', { tabId: 1, emails: ['a@example.com'] }, page(1)).catch(
        (e: unknown) => e,
      ),
    );
    expect(err.kind).toBe('bad_request');
    expect(await verify('a@example.com')).toMatchObject({ kind: 'rate_limited' });
  });

  it('holds only for that tab, at the origin where the addresses were found', async () => {
    await overCap();
    await show(page(1), ['a@example.com']);
    await dispatch('allowPageVerify', { tabId: 1, emails: ['a@example.com'] }, popup);
    // The tab moved to another site that shows the same address: no allowance there.
    await show(page(1, 'https://evil.example.net/'), ['a@example.com']);
    expect(await verify('a@example.com', page(1, 'https://evil.example.net/'))).toMatchObject({
      kind: 'rate_limited',
    });
  });
});
