import { PATHS } from '@verimark/contract';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { browser } from 'wxt/browser';
import { fromMessageError } from '@/lib/api/errors';
import { fail } from '@/lib/api/testing/scripted-server';
import type { SenderInfo } from '@/lib/background/core/authorize';
import { ensurePollAlarm, POLL_ALARM } from '@/lib/background/core/poll-alarm';
import { dispatch } from '@/lib/background/core/router';
import { configure, countRequests, useFakeService } from '@/lib/background/testing/setup';
import { getPendingChecks } from '@/lib/storage/pending-checks';
import { addFound, resetFound } from './content-found';
import { resetSpends } from './content-verify';
import { resetPendingBackoff, sendPendingChecks } from './pending-checks';
import { singlePollTiming } from './verify';

const ID = 'test-extension-id';
const popup: SenderInfo = { id: ID, url: `chrome-extension://${ID}/popup.html` };
const page: SenderInfo = { id: ID, url: 'https://crm.example.com/', tab: { id: 1 }, frameId: 0 };
/** A port nothing listens on: the service cannot be reached. */
const OFFLINE = 'http://127.0.0.1:1';

const env = useFakeService(() => ({ pendingPolls: 0 }));
beforeAll(() => {
  singlePollTiming.initialDelayMs = 5;
});
beforeEach(async () => {
  resetPendingBackoff();
  await resetSpends();
  await resetFound();
});

const spends = () => countRequests(env.server.requests, PATHS.single);
const askFromPopup = (email: string, extra: { force?: boolean } = {}) =>
  dispatch('verifyEmail', { email, ...extra }, popup).catch((err: unknown) => fromMessageError(err));
const recent = () => dispatch('recentLookups', { limit: 5 }, popup);

describe('a single check the service could not be reached for', () => {
  it('is kept by the background, sent once when the service is back, and lands in recent lookups', async () => {
    await configure(OFFLINE);
    expect(await askFromPopup('ann@example.com')).toMatchObject({ kind: 'network' });
    // Asked again while offline: still one check kept.
    expect(await askFromPopup('ann@EXAMPLE.com')).toMatchObject({ kind: 'network' });
    expect(await dispatch('pendingChecks', {}, popup)).toEqual([
      { email: 'ann@example.com', mode: 'catch_all', queuedAt: expect.any(Number) },
    ]);
    // The polling alarm is armed for it, with no other work running.
    expect(await browser.alarms.get(POLL_ALARM)).toBeDefined();
    // Still offline: a round keeps it.
    await sendPendingChecks({ force: true });
    expect(await getPendingChecks()).toHaveLength(1);

    await configure(env.server.url);
    await sendPendingChecks({ force: true });
    expect(spends()).toBe(1);
    expect(await getPendingChecks()).toEqual([]);
    expect((await recent()).map((v) => [v.email, v.status])).toEqual([['ann@example.com', 'deliverable']]);
    // Nothing left to send: never paid twice.
    await sendPendingChecks({ force: true });
    expect(spends()).toBe(1);
  });

  it('is not paid twice when the popup asks again as the service comes back', async () => {
    await configure(OFFLINE);
    await askFromPopup('bob@example.com');
    await configure(env.server.url);
    const [view] = await Promise.all([askFromPopup('bob@example.com'), sendPendingChecks({ force: true })]);
    expect(view).toMatchObject({ status: 'deliverable' });
    await sendPendingChecks({ force: true });
    expect(spends()).toBe(1);
    expect(await getPendingChecks()).toEqual([]);
  });

  it('answered from the cache when the address was verified meanwhile: no credit, still in recent lookups', async () => {
    await configure(OFFLINE);
    await askFromPopup('cat@example.com');
    await configure(env.server.url);
    await askFromPopup('dan@example.com'); // something else, paid
    await askFromPopup('cat@example.com'); // paid, and the kept check is satisfied by it
    const before = spends();
    await sendPendingChecks({ force: true });
    expect(spends()).toBe(before);
    expect((await recent()).map((v) => v.email)).toContain('cat@example.com');
    expect(await getPendingChecks()).toEqual([]);
  });

  it("is kept only for the popup: a content script's check is not", async () => {
    await addFound(['eve@example.com'], page);
    await configure(OFFLINE);
    const err = await dispatch('verifyEmail', { email: 'eve@example.com' }, page).catch((e: unknown) =>
      fromMessageError(e),
    );
    expect(err).toMatchObject({ kind: 'network' });
    expect(await getPendingChecks()).toEqual([]);
  });

  it('refused when sent (no credits): kept with why, not sent again, until Retry gets its verdict', async () => {
    await configure(OFFLINE);
    await askFromPopup('fay@example.com');
    await configure(env.server.url);
    env.service.state.override[PATHS.single] = fail(402, 'Insufficient credits');
    await sendPendingChecks({ force: true });
    expect(spends()).toBe(1);
    // Kept, with the reason the popup puts in words, also for a popup opened later.
    expect(await dispatch('pendingChecks', {}, popup)).toEqual([
      {
        email: 'fay@example.com',
        mode: 'catch_all',
        queuedAt: expect.any(Number),
        refused: { kind: 'payment_required', status: 402, message: 'Insufficient credits' },
      },
    ]);
    // Not sent again by later rounds, and nothing keeps the alarm armed for it.
    await sendPendingChecks({ force: true });
    expect(spends()).toBe(1);
    // The polling round's end (main.ts) clears the alarm: a refused check does not keep it armed.
    expect(await ensurePollAlarm()).toBe(false);
    expect(await browser.alarms.get(POLL_ALARM)).toBeUndefined();
    expect((await recent()).map((v) => v.email)).not.toContain('fay@example.com');

    // Credits added; "Retry" sends it now.
    delete env.service.state.override[PATHS.single];
    await dispatch('retryPendingCheck', { email: 'fay@example.com', mode: 'catch_all' }, popup);
    await sendPendingChecks({ force: true });
    expect(spends()).toBe(2);
    expect(await getPendingChecks()).toEqual([]);
    expect((await recent()).map((v) => [v.email, v.status])).toEqual([['fay@example.com', 'deliverable']]);
  });

  it('refused for the key (401): kept with why; Dismiss forgets it without sending', async () => {
    await configure(OFFLINE);
    await askFromPopup('gus@example.com');
    await configure(env.server.url);
    env.service.state.override[PATHS.single] = fail(401, 'Invalid API key');
    await sendPendingChecks({ force: true });
    const [kept] = await dispatch('pendingChecks', {}, popup);
    expect(kept?.refused).toMatchObject({ kind: 'invalid_key', status: 401 });
    await dispatch('dismissPendingCheck', { email: 'gus@example.com', mode: 'catch_all' }, popup);
    expect(await getPendingChecks()).toEqual([]);
    delete env.service.state.override[PATHS.single];
    await sendPendingChecks({ force: true });
    expect(spends()).toBe(1);
  });

  it('refused, then asked again while still offline: waits to be sent again', async () => {
    await configure(OFFLINE);
    await askFromPopup('hal@example.com');
    await configure(env.server.url);
    env.service.state.override[PATHS.single] = fail(400, 'Bad request');
    await sendPendingChecks({ force: true });
    expect((await getPendingChecks())[0]?.refused).toMatchObject({ kind: 'bad_request', status: 400 });
    await configure(OFFLINE);
    await askFromPopup('hal@example.com');
    expect(await getPendingChecks()).toEqual([
      { email: 'hal@example.com', mode: 'catch_all', force: false, queuedAt: expect.any(Number) },
    ]);
    delete env.service.state.override[PATHS.single];
  });

  it('retry and dismiss refuse a message that does not name a kept check', async () => {
    // As a message from outside the types would carry it.
    const bogus: { email: string; mode: 'catch_all' } = JSON.parse(
      '{"email":"x@example.com","mode":"bogus"}',
    );
    for (const type of ['retryPendingCheck', 'dismissPendingCheck'] as const) {
      const err = await dispatch(type, bogus, popup).catch((e: unknown) => fromMessageError(e));
      expect(err).toMatchObject({ kind: 'bad_request' });
    }
  });
});
