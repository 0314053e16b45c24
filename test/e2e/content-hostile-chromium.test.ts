/**
 * A hostile page on an enabled site, in real Chromium against the real service: from its own main
 * world (fixtures/content/hostile.html) it dispatches synthetic field events, presses whatever it
 * can reach inside the extension's shadow roots and forges navigation events. Nothing of it may
 * spend a credit (counted by the service and by the SMTP server) or give the page a fresh budget.
 * The attacks use only what any page can do, not the badge's internals.
 */
import { describe, expect, it } from 'vitest';
import { useContentEnv } from './testing/content-env';
import { creditsLeft, rcptCount, sendFromExtensionPage } from './testing/content-pages';
import { waitFor } from './testing/process-guard';
import { launchChromium } from './testing/session';

const env = useContentEnv(launchChromium, 0);
/** Time given to anything the attack might have started (a verification takes well under 1 s here). */
const SETTLE_MS = 4_000;

const credits = () => creditsLeft(env.service.admin);
const probes = (prefix: string) =>
  env.net.allCommands().filter((line) => /^RCPT TO:/i.test(line) && line.includes(`<${prefix}`)).length;

async function setBudget(autoVerifyBudget: number): Promise<void> {
  const options = await env.session.openExtensionPage('options.html');
  await sendFromExtensionPage(options, 'saveSettings', { autoVerifyBudget });
  await options.close();
}

/** Opens the hostile page in a fresh, visible tab (the background caps each tab), runs `attack`. */
async function runAttack(attack: string, prefix: string): Promise<void> {
  await env.page.close();
  env.page = await env.session.browser.newPage();
  await env.page.bringToFront();
  await env.page.goto(`${env.fixtures.origin}/hostile.html?attack=${attack}&prefix=${prefix}`, {
    waitUntil: 'load',
  });
  await waitFor(
    () => env.page.evaluate(() => document.body.dataset.attackDone === 'true'),
    30_000,
    `the ${attack} attack to finish`,
  ).catch(async (err: Error) => {
    const marks = await env.page.$$eval('[data-verimark-status]', (els) =>
      els.map((el) => `${el.id}=${el.getAttribute('data-verimark-status')}`),
    );
    throw new Error(`${err.message}; marks: ${marks.join(' ')}`);
  });
  // The attack ran to its end (an exception in the page would make the test prove nothing).
  expect(await env.page.evaluate(() => document.body.dataset.attackError ?? null)).toBeNull();
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
}

describe('a hostile page cannot drive the extension', () => {
  it('synthetic change/focusout/keydown and page-driven focus on fields spend nothing', async () => {
    await setBudget(0);
    const before = await credits();
    await runAttack('fields', 'hf');
    expect(before - (await credits())).toBe(0);
    expect(probes('hx-')).toBe(0);
  });

  it('the controls inside the badges cannot be pressed by the page', async () => {
    await setBudget(0);
    const before = await credits();
    await runAttack('badge', 'hb');
    expect(before - (await credits())).toBe(0);
    expect(probes('hb')).toBe(0);
  });

  it('forged popstate, wxt:locationchange and navigatesuccess do not reset the budget', async () => {
    await setBudget(1);
    const before = await credits();
    await runAttack('navigation', 'hn');
    // The budget of 1 is spent once, on one of the three links; the forged events add nothing.
    expect(before - (await credits())).toBe(1);
    expect(probes('hn')).toBe(1);
    const statuses = await env.page.$$eval('#links a', (links) =>
      links.map((a) => a.getAttribute('data-verimark-status')),
    );
    expect(statuses.filter((s) => s === 'risky')).toHaveLength(1);
    expect(rcptCount(env.net.allCommands(), 'hx-change@catch-all.test')).toBe(0);
  });

  it('pushState after pushState with fresh addresses neither renews the budget nor lowers the daily cap', async () => {
    await setBudget(2);
    const before = await credits();
    await runAttack('history', 'hh');
    // Eight URL changes within a minute, 32 fresh addresses shown: the page's budget of 2, once.
    expect(before - (await credits())).toBe(2);
    expect(probes('hh')).toBe(2);
    const options = await env.session.openExtensionPage('options.html');
    const daily = await options.evaluate(async () => {
      const api = (
        globalThis as unknown as {
          chrome: { storage: { local: { get(k: string): Promise<Record<string, { spent: number }>> } } };
        }
      ).chrome;
      return (await api.storage.local.get('dailyContentSpend')).dailyContentSpend?.spent ?? 0;
    });
    await options.close();
    // Only what was really sent counts: the day's cap (200) keeps all but what this test's pages spent.
    expect(daily).toBeLessThanOrEqual(3);
    expect(daily).toBeGreaterThanOrEqual(2);
  });
});
