/**
 * The send guard in Firefox, as in Chromium (guard-chromium): held back with an undeliverable
 * recipient, by click and by Ctrl+Enter; Escape means "Edit recipients"; a recipient still being
 * checked is waited for; untouched otherwise. The dialog lives in a closed shadow root, so it is
 * seen by its host element and answered with the keyboard.
 */
import { describe, expect, it } from 'vitest';
import { useContentEnv } from './testing/content-env';
import { addRecipient, noDialog, openCompose, sentLog, waitForSends } from './testing/guard-pages';
import { waitFor } from './testing/process-guard';
import { launchFirefox } from './testing/session';

// slow.test answers RCPT after 2 s: within this SMTP timeout, so its check is still under way after the press.
const env = useContentEnv(launchFirefox, 100, { SMTP_TIMEOUT_MS: '6000' });
const GOOD = 'bob@deliverable.test';
const BAD = 'nobody@rejecting.test';

describe('send guard in Firefox', () => {
  it('stops a send to an undeliverable recipient until “Send anyway”; good recipients go at once', async () => {
    await env.page.bringToFront();
    await openCompose(
      env.page,
      env.fixtures.origin,
      'gmail',
      { to: [GOOD, BAD] },
      {
        [GOOD]: 'deliverable',
        [BAD]: 'undeliverable',
      },
    );
    await env.page.click('#send');
    await waitFor(async () => !(await noDialog(env.page)), 10_000, 'the send guard dialog');
    expect(await sentLog(env.page)).toEqual([]);
    // The dialog has focus on "Edit recipients"; Tab, Enter = "Send anyway".
    await env.page.keyboard.press('Tab');
    await env.page.keyboard.press('Enter');
    expect(await waitForSends(env.page, 1)).toMatchObject([{ trusted: false, to: [GOOD, BAD] }]);
    expect(await noDialog(env.page)).toBe(true);

    await openCompose(env.page, env.fixtures.origin, 'outlook', { to: [GOOD] }, { [GOOD]: 'deliverable' });
    await env.page.click('#send');
    expect(await sentLog(env.page)).toMatchObject([{ via: 'click', trusted: true, to: [GOOD] }]);
  });

  it('Ctrl+Enter is guarded like a click; Escape means “Edit recipients”; a good send by Ctrl+Enter goes at once', async () => {
    const ctrlEnter = async () => {
      await env.page.click('#body');
      await env.page.keyboard.down('Control');
      await env.page.keyboard.press('Enter');
      await env.page.keyboard.up('Control');
    };
    await openCompose(env.page, env.fixtures.origin, 'gmail', { to: [BAD] }, { [BAD]: 'undeliverable' });
    await ctrlEnter();
    await waitFor(async () => !(await noDialog(env.page)), 10_000, 'the send guard dialog');
    await env.page.keyboard.press('Escape');
    await waitFor(() => noDialog(env.page), 5_000, 'the dialog to close');
    expect(await sentLog(env.page)).toEqual([]);

    await openCompose(env.page, env.fixtures.origin, 'gmail', { to: [GOOD] }, { [GOOD]: 'deliverable' });
    await ctrlEnter();
    expect(await sentLog(env.page)).toMatchObject([{ via: 'keydown', trusted: true, to: [GOOD] }]);
  });

  it('waits for a recipient still being checked, then sends once', async () => {
    await openCompose(env.page, env.fixtures.origin, 'gmail', { to: [GOOD] }, { [GOOD]: 'deliverable' });
    // Added by autocomplete just before the press: no verdict yet (slow.test answers after 2 s).
    await addRecipient(env.page, 'gmail', 'to', 'info@slow.test');
    await env.page.click('#send');
    expect(await sentLog(env.page)).toEqual([]);
    const sent = await waitForSends(env.page, 1, 10_000);
    expect(sent).toMatchObject([{ trusted: false, to: [GOOD, 'info@slow.test'] }]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await sentLog(env.page)).toHaveLength(1);
    expect(await noDialog(env.page)).toBe(true);
  });
});
