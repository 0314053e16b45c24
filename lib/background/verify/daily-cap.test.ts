import { PATHS } from '@verimark/contract';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fromMessageError } from '@/lib/api/errors';
import { fail } from '@/lib/api/testing/scripted-server';
import type { SenderInfo } from '@/lib/background/core/authorize';
import { dispatch } from '@/lib/background/core/router';
import { countRequests, useFakeService } from '@/lib/background/testing/setup';
import { updateSettings } from '@/lib/storage/settings';
import { addFound, resetFound } from './content-found';
import { EXPLICIT_ALLOWANCE, resetSpends } from './content-verify';
import { dayOf, spentToday, takeDailyCredit } from './daily-cap';
import { allowPageVerify } from './page-allowance';
import { singlePollTiming } from './verify';

const ID = 'test-extension-id';
const popup: SenderInfo = { id: ID, url: `chrome-extension://${ID}/popup.html` };
const page = (tabId: number): SenderInfo => ({
  id: ID,
  url: 'https://crm.example.com/',
  tab: { id: tabId },
  frameId: 0,
});

const env = useFakeService(() => ({ pendingPolls: 0 }));
beforeAll(() => {
  singlePollTiming.initialDelayMs = 5;
});
beforeEach(async () => {
  await resetSpends();
  await resetFound();
});

const spends = () => countRequests(env.server.requests, PATHS.single);
async function ask(tabId: number, email: string, clicked?: boolean) {
  await addFound([email], page(tabId));
  return dispatch('verifyEmail', { email, ...(clicked ? { clicked } : {}) }, page(tabId)).catch(
    (err: unknown) => fromMessageError(err),
  );
}

describe('the daily cap on credits spent without a click', () => {
  it('defaults to 200', async () => {
    expect((await dispatch('getSettings', undefined, popup)).dailyAutoCap).toBe(200);
  });

  it('bounds all tabs together; past it a request is refused as rate_limited and nothing is paid', async () => {
    await updateSettings({ dailyAutoCap: 3 });
    for (let tab = 1; tab <= 3; tab++)
      expect(await ask(tab, `t${tab}@example.com`)).toMatchObject({ status: 'deliverable' });
    expect(spends()).toBe(3);
    const refused = await ask(4, 't4@example.com');
    expect(refused).toMatchObject({ kind: 'rate_limited' });
    expect(spends()).toBe(3);
    expect(await spentToday()).toBe(3);
    // A cached verdict costs no credit: still told (within the tab's own window).
    expect(await ask(5, 't1@example.com')).toMatchObject({ cached: true });
  });

  it('does not count what the user asked for: a click, "Verify all", the popup', async () => {
    await updateSettings({ dailyAutoCap: 1 });
    await ask(1, 'a@example.com');
    expect(await ask(1, 'b@example.com')).toMatchObject({ kind: 'rate_limited' });
    expect(await ask(1, 'b@example.com', true)).toMatchObject({ status: 'deliverable' });
    await addFound(['c@example.com'], page(2));
    await allowPageVerify({ tabId: 2, emails: ['c@example.com'] });
    expect(await ask(2, 'c@example.com')).toMatchObject({ status: 'deliverable' });
    expect(await dispatch('verifyEmail', { email: 'd@example.com' }, popup)).toMatchObject({
      status: 'deliverable',
    });
    expect(spends()).toBe(4);
    expect(await spentToday()).toBe(1);
  });

  it('starts again the next day; 0 turns verification on sight off', async () => {
    await updateSettings({ dailyAutoCap: 1 });
    const today = new Date(2026, 10, 27, 23, 59).getTime();
    await takeDailyCredit(1, today);
    await expect(takeDailyCredit(1, today)).rejects.toMatchObject({
      kind: 'rate_limited',
      retryAfterSeconds: 60,
    });
    const tomorrow = new Date(2026, 10, 28, 0, 1).getTime();
    expect(dayOf(tomorrow)).toBe('2026-11-28');
    await expect(takeDailyCredit(1, tomorrow)).resolves.toBeUndefined();
    await updateSettings({ dailyAutoCap: 0 });
    expect(await ask(1, 'zero@example.com')).toMatchObject({ kind: 'rate_limited' });
    expect(spends()).toBe(0);
  });

  it('a page over its own limit cannot spend the cap: a refusal by the tab limit takes no unit', async () => {
    // The tab's window allows autoVerifyBudget + EXPLICIT_ALLOWANCE checks; ask for far more.
    await updateSettings({ dailyAutoCap: 200, autoVerifyBudget: 5 });
    const limit = 5 + EXPLICIT_ALLOWANCE;
    let refused = 0;
    for (let i = 0; i < limit + 40; i++) {
      const answer = await ask(1, `flood${i}@example.com`);
      if ((answer as { kind?: string }).kind === 'rate_limited') refused += 1;
    }
    expect(refused).toBe(40);
    expect(spends()).toBe(limit);
    // Only the checks really sent count against the day.
    expect(await spentToday()).toBe(limit);
    // Another tab still gets verified: the cap is not used up.
    expect(await ask(2, 'other@example.com')).toMatchObject({ status: 'deliverable' });
  });

  it('gives the unit back when the check is not sent (the service refuses or cannot be reached)', async () => {
    await updateSettings({ dailyAutoCap: 2 });
    env.service.state.override[PATHS.single] = fail(402, 'Insufficient credits');
    for (let i = 0; i < 5; i++)
      expect(await ask(1, `short${i}@example.com`)).toMatchObject({ kind: 'payment_required' });
    expect(await spentToday()).toBe(0);
    delete env.service.state.override[PATHS.single];
    expect(await ask(2, 'paid@example.com')).toMatchObject({ status: 'deliverable' });
    expect(await spentToday()).toBe(1);
  });

  it('a refusal by the daily cap costs the tab nothing', async () => {
    await updateSettings({ dailyAutoCap: 0, autoVerifyBudget: 0 });
    for (let i = 0; i < EXPLICIT_ALLOWANCE + 5; i++)
      expect(await ask(1, `capped${i}@example.com`)).toMatchObject({ kind: 'rate_limited' });
    // The tab's window is untouched: what the person asks for is still verified.
    expect(await ask(1, 'clicked@example.com', true)).toMatchObject({ status: 'deliverable' });
  });
});
