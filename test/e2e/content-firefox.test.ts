/**
 * The content script in Firefox: a CRM table and its form (the scenario Chromium runs), runtime
 * registration, marks, shadow roots, frames, hostile text, the budget.
 */
import { describe, expect, it } from 'vitest';
import { useContentEnv } from './testing/content-env';
import { finalStatuses } from './testing/content-pages';
import { budgetScenario, crmScenario } from './testing/content-scenarios';
import { launchFirefox } from './testing/session';

// A longer SMTP timeout than the fake network's: 20 addresses at once on a loaded machine must not
// time out into `unknown` (which the cache then keeps for the pages after).
const env = useContentEnv(launchFirefox, undefined, { SMTP_TIMEOUT_MS: '5000' });

describe('content script in Firefox', () => {
  it('marks a CRM table of 300 rows, one service call per distinct address; the table keeps its layout, no badge covers text; the field’s popover opens', async () => {
    await env.page.bringToFront();
    await crmScenario(env);
    // The next tests start in a fresh tab: the background caps what one tab may spend.
    await env.page.close();
    env.page = await env.session.browser.newPage();
  });

  it('marks links, fields, shadow-root content, a same-origin frame and compose chips', async () => {
    await env.page.bringToFront();
    await env.page.goto(`${env.fixtures.origin}/mixed.html`, { waitUntil: 'load' });
    expect(
      await finalStatuses(env.page, [
        'multi',
        'encoded',
        'bad-syntax',
        'hostile-input',
        'shadow-link',
        'late-link',
      ]),
    ).toEqual({
      multi: 'undeliverable',
      encoded: 'deliverable',
      'bad-syntax': 'invalid',
      'hostile-input': 'invalid',
      'shadow-link': 'deliverable',
      'late-link': 'undeliverable',
    });
    expect(
      await env.page.evaluate(() => (window as unknown as { pwned?: unknown }).pwned ?? null),
    ).toBeNull();
    const frame = env.page.frames().find((f) => f.url().endsWith('/frame.html'));
    if (!frame) throw new Error('no frame');
    expect(await finalStatuses(frame, ['billing', 'frame-link'])).toEqual({
      billing: 'risky',
      'frame-link': 'deliverable',
    });

    await env.page.goto(`${env.fixtures.origin}/compose.html`, { waitUntil: 'load' });
    expect(await finalStatuses(env.page, ['chip-bob', 'chip-nobody', 'chip-later'])).toEqual({
      'chip-bob': 'deliverable',
      'chip-nobody': 'undeliverable',
      'chip-later': 'deliverable',
    });
  });

  it('auto-verifies within the per-page budget; the rest waits for the badge’s Verify', () =>
    budgetScenario(env));
});
