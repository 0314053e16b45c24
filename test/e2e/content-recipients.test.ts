/**
 * The popover's "Replace" on compose recipients, in real Chromium against the real service: on a
 * Gmail-like compose the flagged chip is removed with its own remove control and the suggestion
 * typed into the field with a comma (the page makes the new chip); on an Outlook-like compose the
 * pill goes and the suggestion is typed into the well with ";" (the page resolves it into a pill).
 * The mark follows the new chip, "Undo" brings the old address back in one click, and the marks
 * of the CRM table never move the table in a narrow window, where most badges are fitted compact
 * (content-chromium.test.ts checks the same table at the default size). Light and dark screenshots
 * of each view.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useContentEnv } from './testing/content-env';
import { clickBadgeOf, finalStatuses } from './testing/content-pages';
import { badgeOverlaps, changedCells } from './testing/geometry';
import { openCompose, type Webmail } from './testing/guard-pages';
import { ROOT } from './testing/paths';
import { popoverSaying, pressPopoverButton } from './testing/popover';
import { waitFor } from './testing/process-guard';
import { launchChromium } from './testing/session';

const env = useContentEnv(launchChromium, 100);
const SHOTS = path.join(ROOT, 'test-results', 'screenshots');
const GOOD = 'info@deliverable.test';
const TYPO = 'alice@gmial.com';
const FIXED = 'alice@gmail.com';
const THEMES = ['light', 'dark'] as const;

const idOf = (site: Webmail, address: string) =>
  `${site === 'gmail' ? 'chip' : 'pill'}-${address.replace(/[^a-z0-9]/gi, '-')}`;

/** What each badge on the page is about (its label). */
function badgeLabels(): Promise<string[]> {
  return env.page.$$eval('verimark-badge', (els) => els.map((el) => el.getAttribute('aria-label') ?? ''));
}

/** The recipients as the page itself holds them, in order. */
function recipients(site: Webmail): Promise<string[]> {
  const selector = site === 'gmail' ? '[data-hovercard-id]' : '._EType_RECIPIENT_ENTITY';
  const attr = site === 'gmail' ? 'data-hovercard-id' : 'aria-label';
  return env.page.$$eval(selector, (els, a) => els.map((el) => el.getAttribute(a) ?? ''), attr);
}

/** The recipients as the Gmail-like page's own model holds them (what it would send to). */
function gmailModel(): Promise<string[]> {
  return env.page.evaluate(() =>
    (window as unknown as { model: { address: string }[] }).model.map((r) => r.address),
  );
}

async function shoot(name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await env.page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

/** The open popover's box lies next to the badge of `id` (it followed the new chip). */
async function popoverNextTo(id: string, box: { x: number; y: number; height: number }) {
  const badge = await env.page.$eval(`#${id}`, (el) => {
    const b = el.parentElement?.querySelector('verimark-badge') ?? el.nextElementSibling;
    const r = b?.getBoundingClientRect();
    return r ? { x: r.x, top: r.top, bottom: r.bottom } : null;
  });
  expect(badge, `a badge for ${id}`).not.toBeNull();
  const below = Math.abs(box.y - (badge?.bottom ?? 0));
  const above = Math.abs(box.y + box.height - (badge?.top ?? 0));
  expect(Math.min(below, above), 'the popover sits against the new badge').toBeLessThan(12);
}

async function replaceAndUndo(site: Webmail, theme: (typeof THEMES)[number]) {
  await env.page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: theme }]);
  await openCompose(env.page, env.fixtures.origin, site, { to: [GOOD, TYPO] });
  expect(await finalStatuses(env.page, [idOf(site, TYPO)])).toEqual({ [idOf(site, TYPO)]: 'undeliverable' });
  await clickBadgeOf(env.page, `#${idOf(site, TYPO)}`);
  await popoverSaying(env.page, /Did you mean alice@gmail\.com\?.*Replace/);
  if (site === 'gmail') await shoot(`compose-suggestion-${theme}`);

  await pressPopoverButton(env.page, 'Replace');
  // The page made the new chip itself; the old one is gone.
  await waitFor(async () => (await recipients(site)).join() === `${GOOD},${FIXED}`, 10_000, 'the new chip');
  if (site === 'gmail') expect(await gmailModel()).toEqual([GOOD, FIXED]);
  const fixed = await finalStatuses(env.page, [idOf(site, FIXED)]);
  expect(['deliverable', 'risky', 'unknown']).toContain(fixed[idOf(site, FIXED)]);
  const replaced = await popoverSaying(env.page, /Replaced with alice@gmail\.com\..*Undo/);
  await popoverNextTo(idOf(site, FIXED), replaced.box);
  // One badge per recipient: the old chip's mark went with it.
  expect(await badgeLabels()).toEqual([expect.stringContaining(GOOD), expect.stringContaining(FIXED)]);
  expect(await badgeOverlaps(env.page)).toEqual([]);
  if (site === 'gmail') await shoot(`compose-replaced-${theme}`);

  await pressPopoverButton(env.page, 'Undo');
  await waitFor(
    async () => (await recipients(site)).join() === `${GOOD},${TYPO}`,
    10_000,
    'the old chip back',
  );
  expect(await finalStatuses(env.page, [idOf(site, TYPO)])).toEqual({ [idOf(site, TYPO)]: 'undeliverable' });
  const undone = await popoverSaying(env.page, /Did you mean alice@gmail\.com\?.*Replace/);
  await popoverNextTo(idOf(site, TYPO), undone.box);
  expect(await badgeLabels()).toEqual([expect.stringContaining(GOOD), expect.stringContaining(TYPO)]);
  await env.page.keyboard.press('Escape');
}

describe('Replace on compose recipients in Chromium', () => {
  for (const site of ['gmail', 'outlook'] as const) {
    it(`${site}-like compose: Replace swaps the chip, the mark follows, Undo restores it (light and dark)`, async () => {
      await env.page.setViewport({ width: 760, height: 420 });
      for (const theme of THEMES) await replaceAndUndo(site, theme);
      await env.page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
    });
  }

  it('Gmail in German: Replace removes the chip through its own control (found without English text), so Gmail sends to the fix; Undo in one click', async () => {
    await env.page.setViewport({ width: 760, height: 420 });
    await openCompose(env.page, env.fixtures.origin, 'gmail', { to: [GOOD, TYPO] }, undefined, {
      lang: 'de',
    });
    expect(await finalStatuses(env.page, [idOf('gmail', TYPO)])).toEqual({
      [idOf('gmail', TYPO)]: 'undeliverable',
    });
    await clickBadgeOf(env.page, `#${idOf('gmail', TYPO)}`);
    await pressPopoverButton(env.page, 'Replace');
    // The page's own list of recipients (what it sends to) follows, not only its DOM.
    await waitFor(
      async () => (await gmailModel()).join() === `${GOOD},${FIXED}`,
      10_000,
      'the page to hold the fix',
    );
    expect(await recipients('gmail')).toEqual([GOOD, FIXED]);
    await popoverSaying(env.page, /Replaced with alice@gmail\.com\..*Undo/);
    await pressPopoverButton(env.page, 'Undo');
    await waitFor(
      async () => (await gmailModel()).join() === `${GOOD},${TYPO}`,
      10_000,
      'the page to hold the old address',
    );
    expect(await recipients('gmail')).toEqual([GOOD, TYPO]);
    await env.page.keyboard.press('Escape');
  });

  it('a CRM table in a narrow window (640 px: compact fits) keeps its layout (light and dark screenshots)', async () => {
    await env.page.setViewport({ width: 640, height: 420 });
    for (const theme of THEMES) {
      await env.page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: theme }]);
      await env.page.goto(`${env.fixtures.origin}/crm.html`, { waitUntil: 'load' });
      await waitFor(
        () =>
          env.page.$$eval('a.row-email', (links) =>
            links.every((a) =>
              /^(deliverable|undeliverable)$/.test(a.getAttribute('data-verimark-status') ?? ''),
            ),
          ),
        60_000,
        'every CRM row marked',
      );
      expect((await changedCells(env.page)).slice(0, 5)).toEqual([]);
      expect(await badgeOverlaps(env.page)).toEqual([]);
      await shoot(`crm-marks-${theme}`);
    }
    await env.page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
  });
});
