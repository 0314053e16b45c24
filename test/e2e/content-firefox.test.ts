/** The content script in Firefox: runtime registration, marks, shadow roots, frames, hostile text, the budget. */
import { describe, expect, it } from 'vitest';
import { useContentEnv } from './testing/content-env';
import { finalStatuses } from './testing/content-pages';
import { budgetScenario } from './testing/content-scenarios';
import { launchFirefox } from './testing/session';

const env = useContentEnv(launchFirefox);

describe('content script in Firefox', () => {
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
