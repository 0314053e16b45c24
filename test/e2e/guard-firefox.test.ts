/** The send guard in Firefox (smoke): held back with an undeliverable recipient, untouched otherwise. */
import { describe, expect, it } from 'vitest';
import { useContentEnv } from './testing/content-env';
import { noDialog, openCompose, sentLog, waitForSends } from './testing/guard-pages';
import { waitFor } from './testing/process-guard';
import { launchFirefox } from './testing/session';

const env = useContentEnv(launchFirefox, 100);
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
});
