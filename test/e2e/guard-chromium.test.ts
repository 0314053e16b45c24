/**
 * The send guard (docs/design.md §5) in real Chromium, with the real service on the fake network:
 * Gmail-like and Outlook-like compose pages whose own send handler records every send
 * (`window.sent`, with the event's isTrusted). Presses are real input (puppeteer's mouse and keyboard).
 */
import { describe, expect, it } from 'vitest';
import { useContentEnv } from './testing/content-env';
import {
  addRecipient,
  noDialog,
  openCompose,
  screenshot,
  sentLog,
  waitForDialog,
  waitForSends,
} from './testing/guard-pages';
import { waitFor } from './testing/process-guard';
import { launchChromium } from './testing/session';

// slow.test answers RCPT after 2 s: within this SMTP timeout, so a check of it is still under way
// well after the press (and ends deliverable for its known mailboxes, unknown for others).
const env = useContentEnv(launchChromium, 100, { SMTP_TIMEOUT_MS: '6000' });
const GOOD = 'bob@deliverable.test';
const GOOD2 = 'alice@deliverable.test';
const BAD = 'nobody@rejecting.test';
const BOUNCES = /The mail server says this mailbox does not exist\./;

/** "Send anyway": the dialog starts on "Edit recipients"; Tab moves to "Send anyway". */
async function sendAnyway(): Promise<void> {
  await env.page.keyboard.press('Tab');
  await env.page.keyboard.press('Enter');
}

describe('send guard in Chromium: Gmail-like compose', () => {
  it('stops a send to an undeliverable recipient until “Send anyway”, then sends exactly once', async () => {
    await openCompose(
      env.page,
      env.fixtures.origin,
      'gmail',
      { to: [GOOD], cc: [BAD] },
      {
        [GOOD]: 'deliverable',
        [BAD]: 'undeliverable',
      },
    );
    await env.page.click('#send');
    const text = await waitForDialog(env.page, new RegExp(BAD));
    expect(text).toMatch(/Some recipients may not get this message/);
    expect(text).toMatch(/Undeliverable/);
    expect(text).toMatch(BOUNCES);
    expect(text).not.toContain(GOOD);
    expect(text).toMatch(/Send anyway/);
    expect(text).toMatch(/Edit recipients/);
    expect(await sentLog(env.page)).toEqual([]);
    await sendAnyway();
    const sent = await waitForSends(env.page, 1);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.to).toEqual([GOOD, BAD]);
    expect(await noDialog(env.page)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await sentLog(env.page)).toHaveLength(1);
  });

  it('sends to deliverable recipients at once and untouched: the user’s own event, exactly once', async () => {
    await openCompose(env.page, env.fixtures.origin, 'gmail', { to: [GOOD], cc: [GOOD2] });
    await env.page.click('#send');
    // Read in the same turn as the click: nothing was waited for.
    const sent = await sentLog(env.page);
    expect(sent).toEqual([{ via: 'mouseup', trusted: true, to: [GOOD, GOOD2], at: expect.any(Number) }]);
    expect(await noDialog(env.page)).toBe(true);
  });

  it('Ctrl+Enter is guarded like a click; Escape means “Edit recipients” and focus returns to the compose', async () => {
    await openCompose(env.page, env.fixtures.origin, 'gmail', { to: [BAD] });
    await env.page.click('#body');
    await env.page.keyboard.down('Control');
    await env.page.keyboard.press('Enter');
    await env.page.keyboard.up('Control');
    await waitForDialog(env.page, new RegExp(BAD));
    await env.page.keyboard.press('Escape');
    await waitFor(() => noDialog(env.page), 5000, 'the dialog to close');
    expect(await sentLog(env.page)).toEqual([]);
    expect(
      await env.page.evaluate(() =>
        document.querySelector('[role=dialog]')?.contains(document.activeElement),
      ),
    ).toBe(true);

    await openCompose(env.page, env.fixtures.origin, 'gmail', { to: [GOOD] });
    await env.page.click('#body');
    await env.page.keyboard.down('Control');
    await env.page.keyboard.press('Enter');
    await env.page.keyboard.up('Control');
    expect(await sentLog(env.page)).toMatchObject([{ via: 'keydown', trusted: true, to: [GOOD] }]);
  });

  it('waits for a recipient still being checked (“Checking recipients…”), then sends once', async () => {
    await openCompose(env.page, env.fixtures.origin, 'gmail', { to: [GOOD] });
    // Added by autocomplete just before the press: no verdict yet (slow.test answers after 2 s).
    await addRecipient(env.page, 'gmail', 'to', 'info@slow.test');
    await env.page.click('#send');
    // The dialog comes with the on-demand script (lib/content/overlay/load.ts): a moment after the press.
    await waitForDialog(env.page, /Checking recipients…/);
    expect(await sentLog(env.page)).toEqual([]);
    const sent = await waitForSends(env.page, 1, 10_000);
    // Nothing to warn about (slow.test accepts every address; risky is not warned for by default):
    // the send goes, re-triggered once the verdict came.
    expect(sent).toMatchObject([{ trusted: false, to: [GOOD, 'info@slow.test'] }]);
    expect(await noDialog(env.page)).toBe(true);
  });

  it('fails open: the background stopped in the middle of the check, the send still goes', async () => {
    await openCompose(env.page, env.fixtures.origin, 'gmail', { to: [GOOD] });
    await addRecipient(env.page, 'gmail', 'to', 'stopped@slow.test');
    await env.page.click('#send');
    await env.session.stopServiceWorker?.();
    const sent = await waitForSends(env.page, 1, 10_000);
    expect(sent).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await sentLog(env.page)).toHaveLength(1);
  });

  it('checks an address typed but not chipped yet, and stops the send when it bounces', async () => {
    await openCompose(env.page, env.fixtures.origin, 'gmail', { to: [GOOD] });
    await env.page.click('#to-input');
    await env.page.keyboard.type('typed@rejecting.test');
    await env.page.click('#send');
    expect(await waitForDialog(env.page, /typed@rejecting\.test/)).toMatch(BOUNCES);
    expect(await sentLog(env.page)).toEqual([]);
    await env.page.keyboard.press('Escape');
    await waitFor(() => noDialog(env.page), 5000, 'the dialog to close');
    expect(await sentLog(env.page)).toEqual([]);
  });

  it('offers the suggestion with a one-click Replace, and the corrected send goes through', async () => {
    await openCompose(env.page, env.fixtures.origin, 'gmail', { to: ['alice@gmial.com'] });
    await env.page.click('#send');
    await waitForDialog(env.page, /Did you mean alice@gmail\.com\?/);
    // The Replace button comes first in the dialog: Shift+Tab from "Edit recipients" wraps to it.
    await env.page.keyboard.down('Shift');
    await env.page.keyboard.press('Tab');
    await env.page.keyboard.up('Shift');
    await env.page.keyboard.press('Enter');
    await waitFor(() => noDialog(env.page), 5000, 'the dialog to close after Replace');
    await waitFor(
      () => env.page.$('[data-hovercard-id="alice@gmail.com"]'),
      5000,
      'the corrected chip typed into To',
    );
    expect(await env.page.$('[data-hovercard-id="alice@gmial.com"]')).toBeNull();
    expect(await sentLog(env.page)).toEqual([]);
    await env.page.click('#send');
    const sent = await waitForSends(env.page, 1, 10_000);
    expect(sent[0]?.to).toEqual(['alice@gmail.com']);
  });

  it('draws the dialog in light and dark', async () => {
    for (const theme of ['light', 'dark'] as const) {
      await env.page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: theme }]);
      await openCompose(env.page, env.fixtures.origin, 'gmail', {
        to: [GOOD, 'alice@gmial.com'],
        cc: [BAD],
      });
      await env.page.click('#send');
      await waitForDialog(env.page, /Did you mean/);
      await screenshot(env.page, `send-guard-${theme}`);
      await env.page.keyboard.press('Escape');
    }
    await env.page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
  });
});

describe('send guard in Chromium: Outlook-like compose', () => {
  it('stops a click on Send with an undeliverable recipient; “Send anyway” sends once', async () => {
    await openCompose(
      env.page,
      env.fixtures.origin,
      'outlook',
      { to: [GOOD, BAD] },
      {
        [GOOD]: 'deliverable',
        [BAD]: 'undeliverable',
      },
    );
    await env.page.click('#send');
    expect(await waitForDialog(env.page, new RegExp(BAD))).toMatch(BOUNCES);
    expect(await sentLog(env.page)).toEqual([]);
    await sendAnyway();
    const sent = await waitForSends(env.page, 1);
    expect(sent).toMatchObject([{ via: 'click', trusted: false, to: [GOOD, BAD] }]);
  });

  it('sends to deliverable recipients at once, by click and by Ctrl+Enter, untouched', async () => {
    await openCompose(env.page, env.fixtures.origin, 'outlook', { to: [GOOD, GOOD2] });
    await env.page.click('#send');
    expect(await sentLog(env.page)).toMatchObject([{ via: 'click', trusted: true }]);
    await env.page.click('#body');
    await env.page.keyboard.down('Control');
    await env.page.keyboard.press('Enter');
    await env.page.keyboard.up('Control');
    expect(await sentLog(env.page)).toMatchObject([{ via: 'click' }, { via: 'keydown', trusted: true }]);
  });

  it('Ctrl+Enter with an undeliverable recipient is stopped; “Send anyway” sends once', async () => {
    await openCompose(env.page, env.fixtures.origin, 'outlook', { to: [BAD] });
    await env.page.click('#body');
    await env.page.keyboard.down('Control');
    await env.page.keyboard.press('Enter');
    await env.page.keyboard.up('Control');
    await waitForDialog(env.page, new RegExp(BAD));
    expect(await sentLog(env.page)).toEqual([]);
    await sendAnyway();
    expect(await waitForSends(env.page, 1)).toHaveLength(1);
  });

  it('checks text typed into a well before Outlook resolves it', async () => {
    await openCompose(env.page, env.fixtures.origin, 'outlook', { to: [GOOD] });
    await env.page.click('#well-cc');
    await env.page.keyboard.type('typed2@rejecting.test');
    await env.page.click('#send');
    expect(await waitForDialog(env.page, /typed2@rejecting\.test/)).toMatch(BOUNCES);
    expect(await sentLog(env.page)).toEqual([]);
    await sendAnyway();
    expect(await waitForSends(env.page, 1)).toHaveLength(1);
  });
});
