/**
 * Privacy in webmail, in real Chromium against the real service: received mail — the senders of
 * Gmail's thread list and of an opened message (`span[email]`), addresses in the body of a received
 * message (Gmail's `.a3s`, Outlook's `[role=document]` / `#UniqueMessageBody…`) — is not verified
 * on sight: the marks stay `unverified`, the service is asked nothing (its credits and the SMTP
 * server's RCPT lines are counted) while the recipients being written to are; a click on a mark
 * still verifies it. The option `sendersOnSight` verifies senders on sight again.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useContentEnv } from './testing/content-env';
import {
  creditsLeft,
  finalStatuses,
  pressVerifyOf,
  rcptCount,
  sendFromExtensionPage,
} from './testing/content-pages';
import { ROOT } from './testing/paths';
import { waitFor } from './testing/process-guard';
import { launchChromium } from './testing/session';

const env = useContentEnv(launchChromium, 100);
const VERDICT = expect.stringMatching(/^(deliverable|undeliverable)$/);

async function asked(address: string): Promise<number> {
  return rcptCount(env.net.allCommands(), address);
}

const SHOTS = path.join(ROOT, 'test-results', 'screenshots');

/** The page as it is, in light and dark (`<name>-light.png`, `<name>-dark.png`). */
async function shoot(name: string, clip: { x: number; y: number; width: number; height: number }) {
  mkdirSync(SHOTS, { recursive: true });
  for (const theme of ['light', 'dark'] as const) {
    await env.page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: theme }]);
    if (theme === 'dark')
      await env.page.evaluate(() => {
        document.documentElement.style.cssText = 'color-scheme: dark; background: #1f1f1f; color: #e3e3e3';
      });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await env.page.screenshot({ path: path.join(SHOTS, `${name}-${theme}.png`), clip });
  }
  await env.page.evaluate(() => document.documentElement.removeAttribute('style'));
  await env.page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
}

const credits = () => creditsLeft(env.service.admin);
/** Time given to anything that might still be sent (a verification takes well under 1 s here). */
const SETTLE_MS = 3_000;
const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
const senders = Array.from({ length: 31 }, (_, i) => `sender${i + 1}@deliverable.test`);

async function setSendersOnSight(sendersOnSight: boolean): Promise<void> {
  const options = await env.session.openExtensionPage('options.html');
  await sendFromExtensionPage(options, 'saveSettings', { sendersOnSight });
  await options.close();
}

describe('senders of received mail in webmail', () => {
  it('Gmail thread list: no sender and no snippet address is sent until clicked; a click verifies one', async () => {
    const before = await credits();
    await env.page.goto(`${env.fixtures.origin}/gmail-threads.html`, { waitUntil: 'load' });
    const ids = senders.map((_, i) => `sender-${i + 1}`);
    // The extension runs and verifies on sight outside received mail (the control).
    await waitFor(
      async () =>
        /^(deliverable|undeliverable)$/.test(
          (await env.page.$eval('#outside-link', (el) => el.getAttribute('data-verimark-status'))) ?? '',
        ),
      20_000,
      'the address outside the thread list to be verified',
    );
    const statuses = await finalStatuses(env.page, ids);
    for (const id of ids) expect(statuses[id], id).toBe('unverified');
    await shoot('gmail-threads-unverified', { x: 0, y: 0, width: 640, height: 260 });
    await settle();
    expect(before - (await credits())).toBe(1);
    for (const sender of senders) expect(await asked(sender), sender).toBe(0);
    for (const desk of [5, 10, 15, 20, 25, 30]) expect(await asked(`desk${desk}@deliverable.test`)).toBe(0);

    // A person asks about one sender: that one, and only that one, is verified.
    await pressVerifyOf(env.page, '#sender-7');
    await waitFor(
      async () =>
        /^(deliverable|undeliverable)$/.test(
          (await env.page.$eval('#sender-7', (el) => el.getAttribute('data-verimark-status'))) ?? '',
        ),
      20_000,
      'the clicked sender to be verified',
    );
    await env.page.keyboard.press('Escape');
    expect(await asked('sender7@deliverable.test')).toBe(1);
    expect(before - (await credits())).toBe(2);
    expect(
      senders.filter((s) => s !== 'sender7@deliverable.test').map((s) => rcptCount(env.net.allCommands(), s)),
    ).toEqual(Array(30).fill(0));
  });

  it('Gmail opened message: the sender (span.gD[email]) waits for a click too', async () => {
    const before = await credits();
    await env.page.goto(`${env.fixtures.origin}/gmail-message.html`, { waitUntil: 'load' });
    await finalStatuses(env.page, ['chip-reply', 'outside-link']);
    const sender = await env.page.$eval('span.gD', (el) => el.getAttribute('data-verimark-status'));
    expect(sender).toBe('unverified');
    await shoot('gmail-message-unverified', { x: 0, y: 0, width: 640, height: 220 });
    await settle();
    expect(await asked('sender@deliverable.test')).toBe(0);
    // Only the reply's recipient and the address outside the message were paid for.
    expect(before - (await credits())).toBeLessThanOrEqual(2);
  });

  it('with "Verify senders of received mail on sight" on, senders are verified on sight; bodies still wait', async () => {
    await setSendersOnSight(true);
    try {
      await env.page.goto(`${env.fixtures.origin}/gmail-message.html?on-sight`, { waitUntil: 'load' });
      await waitFor(
        async () =>
          /^(deliverable|undeliverable)$/.test(
            (await env.page.$eval('span.gD', (el) => el.getAttribute('data-verimark-status'))) ?? '',
          ),
        20_000,
        'the sender to be verified on sight',
      );
      expect(await asked('sender@deliverable.test')).toBe(1);
      expect(await env.page.$eval('#body-text', (el) => el.getAttribute('data-verimark-status'))).toBe(
        'unverified',
      );
    } finally {
      await setSendersOnSight(false);
    }
  });
});

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
