import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { PATHS } from '../../api/contract';
import { fromMessageError } from '../../api/errors';
import { updateSettings } from '../../storage/settings';
import type { SenderInfo } from '../core/authorize';
import { dispatch } from '../core/router';
import { countRequests, useFakeService } from '../testing/setup';
import { EXPLICIT_ALLOWANCE, resetSpends, SPEND_WINDOW_MS, takeSpend } from './content-verify';
import { singlePollTiming } from './verify';

const ID = 'test-extension-id';
const popup: SenderInfo = { id: ID, url: `chrome-extension://${ID}/popup.html` };
const page = (tabId: number): SenderInfo => ({ id: ID, url: 'https://crm.example.com/', tab: { id: tabId } });

const env = useFakeService(() => ({ pendingPolls: 0 }));
beforeAll(() => {
  singlePollTiming.initialDelayMs = 5;
});
beforeEach(resetSpends);

const spends = () => countRequests(env.server.requests, PATHS.single);

describe('verifyEmail from a content script', () => {
  it('cannot bypass the cache with force, nor pay again in another mode', async () => {
    await dispatch('verifyEmail', { email: 'ann@example.com' }, popup);
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
    const ask = (tabId: number, n: number) =>
      dispatch('verifyEmail', { email: `u${n}@example.com` }, page(tabId));
    await Promise.all(Array.from({ length: EXPLICIT_ALLOWANCE }, (_, n) => ask(1, n)));
    expect(spends()).toBe(EXPLICIT_ALLOWANCE);
    const refused = fromMessageError(await ask(1, 999).catch((err: unknown) => err));
    expect(refused.kind).toBe('rate_limited');
    expect(refused.retryAfterSeconds).toBeGreaterThan(0);
    expect(spends()).toBe(EXPLICIT_ALLOWANCE);
    // Cached addresses still answer; other tabs and the popup are not affected.
    expect((await ask(1, 0)).cached).toBe(true);
    expect((await ask(2, 1000)).status).toBe('deliverable');
    expect((await dispatch('verifyEmail', { email: 'p@example.com' }, popup)).status).toBe('deliverable');
    expect(spends()).toBe(EXPLICIT_ALLOWANCE + 2);
  });

  it('refuses an email that is not a string', async () => {
    const err = fromMessageError(
      await dispatch('verifyEmail', { email: 42 as unknown as string }, page(1)).catch((e: unknown) => e),
    );
    expect(err.kind).toBe('bad_request');
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
