/**
 * Privacy in webmail, in real Chromium against the real service: addresses in the body of a
 * received message (Gmail's `.a3s`, Outlook's `[role=document]` / `#UniqueMessageBody…`) are not
 * verified on sight — their marks stay `unverified` and their mail servers hear nothing — while
 * the recipients being written to are; a click on a body address's mark still verifies it.
 */
import { describe, expect, it } from 'vitest';
import { useContentEnv } from './testing/content-env';
import { finalStatuses, pressVerifyOf, rcptCount } from './testing/content-pages';
import { waitFor } from './testing/process-guard';
import { launchChromium } from './testing/session';

const env = useContentEnv(launchChromium, 100);
const VERDICT = expect.stringMatching(/^(deliverable|undeliverable)$/);

async function asked(address: string): Promise<number> {
  return rcptCount(env.net.allCommands(), address);
}

describe('received message bodies in webmail', () => {
  it('Gmail: body addresses wait for a click; the reply recipient and addresses outside bodies are verified', async () => {
    await env.page.goto(`${env.fixtures.origin}/gmail-message.html`, { waitUntil: 'load' });
    const statuses = await finalStatuses(env.page, ['chip-reply', 'outside-link', 'body-link']);
    // A verdict, whichever (the fake network accepts only a few local parts): the service was asked.
    expect(statuses).toEqual({
      'chip-reply': VERDICT,
      'outside-link': VERDICT,
      'body-link': 'unverified',
    });
    const text = await env.page.$eval('#body-text', (el) => el.getAttribute('data-verimark-status'));
    expect(text).toBe('unverified');
    expect(await asked('reply@deliverable.test')).toBe(1);
    for (const body of ['body1@deliverable.test', 'body2@deliverable.test'])
      expect(await asked(body), body).toBe(0);

    // A person asks: the body address is verified.
    await pressVerifyOf(env.page, '#body-link');
    await waitFor(
      async () =>
        /^(deliverable|undeliverable)$/.test(
          (await env.page.$eval('#body-link', (el) => el.getAttribute('data-verimark-status'))) ?? '',
        ),
      20_000,
      'the clicked body address to be verified',
    );
    expect(await asked('body2@deliverable.test')).toBe(1);
    expect(await asked('body1@deliverable.test')).toBe(0);
    await env.page.keyboard.press('Escape');
  });

  it('Outlook: body addresses (role=document, UniqueMessageBody) wait for a click; the pill being written is verified', async () => {
    await env.page.goto(`${env.fixtures.origin}/outlook-message.html`, { waitUntil: 'load' });
    const statuses = await finalStatuses(env.page, ['pill-owa-to', 'owa-link', 'owa-text']);
    expect(statuses).toEqual({
      'pill-owa-to': VERDICT,
      'owa-link': 'unverified',
      'owa-text': 'unverified',
    });
    expect(await asked('owa-to@deliverable.test')).toBe(1);
    for (const body of ['owa-body1@deliverable.test', 'owa-body2@deliverable.test'])
      expect(await asked(body), body).toBe(0);
  });
});
