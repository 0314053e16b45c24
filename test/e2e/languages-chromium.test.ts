/**
 * Verimark in other languages, in real Chromium started in German (Debian's chromium-l10n,
 * `--lang=de` and `LANGUAGE=de`): the popup, the options page, a popover and the send guard's
 * dialog speak German, each page's `lang` is "de", and the long German words fit (screenshots in
 * light and dark). And webmail in German, French and Spanish (fixtures/content/guard-*-{de,fr,es}.html,
 * Gmail-like and Outlook-like, no English on them) is recognised without reading English: the marks
 * appear, a send to an undeliverable recipient is stopped, a clean send goes through at once.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { useContentEnv } from './testing/content-env';
import { clickBadgeOf, finalStatuses } from './testing/content-pages';
import { click, fill } from './testing/dom';
import { openDialogBox } from './testing/geometry';
import {
  noDialog,
  openCompose,
  sentLog,
  type Webmail,
  waitForDialog,
  waitForSends,
} from './testing/guard-pages';
import { ROOT } from './testing/paths';
import { openPopup, overflow, POPUP_SIZE, screenshotBothThemes, selectTab } from './testing/popup-page';
import { waitFor } from './testing/process-guard';
import { launchChromium } from './testing/session';

const env = useContentEnv(() => launchChromium({ lang: 'de' }), 100);
const SHOTS = path.join(ROOT, 'test-results', 'screenshots');
const GOOD = 'bob@deliverable.test';
const GOOD2 = 'alice@deliverable.test';
const BAD = 'nobody@rejecting.test';

async function shot(page: Page, name: string, dark: boolean): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: dark ? 'dark' : 'light' }]);
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(null))));
  const file = path.join(SHOTS, `${name}-${dark ? 'dark' : 'light'}.png`) as `${string}.png`;
  await page.screenshot({ path: file, captureBeyondViewport: false });
}

const buttonsOf = (page: Page) =>
  page.$$eval('button, [role=tab]', (els) => els.map((el) => (el.textContent ?? '').trim()));

describe('Chromium in German', () => {
  it('the popup speaks German in <html lang="de">, and nothing overflows it', async () => {
    const page = await openPopup(env.session);
    try {
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
      const controls = await buttonsOf(page);
      expect(controls).toContain('Prüfen');
      expect(controls).toEqual(expect.arrayContaining(['Eine Adresse', 'CSV hochladen', 'Dateien']));
      expect(controls).not.toContain('Verify');
      await fill(page, 'E-Mail-Adresse', 'lead1@rejecting.test');
      await click(page, 'Prüfen');
      const card = await waitFor(
        () =>
          page.evaluate(() => {
            const el = document.querySelector<HTMLElement>('[data-testid="verdict"]');
            return el?.dataset.status ? (el.textContent ?? '').replace(/\s+/g, ' ') : undefined;
          }),
        30_000,
        'a verdict card',
      );
      expect(card).toContain('Unzustellbar');
      expect(card).toContain('Laut Mailserver gibt es dieses Postfach nicht.');
      expect(await overflow(page)).toEqual(POPUP_SIZE);
      await screenshotBothThemes(page, 'de-verdict');
      await selectTab(page, 'CSV hochladen');
      await waitFor(
        () => page.evaluate(() => document.body.textContent?.includes('CSV-Datei')),
        10_000,
        'the upload tab',
      );
      expect(await overflow(page)).toEqual(POPUP_SIZE);
      await screenshotBothThemes(page, 'de-upload');
    } finally {
      await page.close();
    }
  });

  it('the options page speaks German in <html lang="de">; long words fit a narrow window', async () => {
    const page = await env.session.openExtensionPage('options.html');
    try {
      await page.waitForSelector('::-p-text(Verbindung testen)', { timeout: 15_000 });
      expect(await page.evaluate(() => [document.documentElement.lang, document.title])).toEqual([
        'de',
        'Verimark-Einstellungen',
      ]);
      const labels = await page.$$eval('label', (els) => els.map((el) => (el.textContent ?? '').trim()));
      expect(labels).toEqual(expect.arrayContaining(['Dienst-URL', 'API-Schlüssel']));
      for (const width of [800, 420]) {
        await page.setViewport({ width, height: 900 });
        const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(scroll, `options page at ${width} px`).toBeLessThanOrEqual(width);
      }
      await page.setViewport({ width: 800, height: 900 });
      for (const dark of [false, true]) await shot(page, 'de-options', dark);
    } finally {
      await page.close();
    }
  });

  it('a popover speaks German (its host in lang="de") and stays in the viewport', async () => {
    for (const dark of [false, true]) {
      await env.page.setViewport({ width: 900, height: 640 });
      await env.page.goto(`${env.fixtures.origin}/marks.html${dark ? '?dark' : ''}`, { waitUntil: 'load' });
      await finalStatuses(env.page, ['typo']);
      await clickBadgeOf(env.page, '#typo');
      const { dialog, box } = await openDialogBox(env.page);
      const text = await dialog.evaluate((el) => el.textContent ?? '');
      expect(text).toContain('Unzustellbar');
      expect(text).toContain('Meinten Sie alice@gmail.com?');
      expect(text).toContain('Ersetzen');
      expect(
        await env.page.evaluate(() => document.querySelector('verimark-overlay')?.getAttribute('lang')),
      ).toBe('de');
      expect(box.x + box.width).toBeLessThanOrEqual(900);
      await shot(env.page, 'de-popover', dark);
      await env.page.keyboard.press('Escape');
    }
    await env.page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
  });
});

describe('compose windows in German, French and Spanish (no English on the page)', () => {
  for (const lang of ['de', 'fr', 'es'] as const) {
    for (const mail of ['gmail', 'outlook'] as const) {
      const site: Webmail = `${mail}-${lang}`;
      it(`${site}: marks appear, Send to an undeliverable recipient is stopped, a clean send goes at once`, async () => {
        await openCompose(
          env.page,
          env.fixtures.origin,
          site,
          { to: [GOOD], cc: [BAD] },
          { [GOOD]: 'deliverable', [BAD]: 'undeliverable' },
        );
        await env.page.click('#send');
        const text = await waitForDialog(env.page, new RegExp(BAD));
        expect(text).toMatch(/Einige Empfänger erhalten diese Nachricht vielleicht nicht/);
        expect(text).toMatch(/Trotzdem senden/);
        if (lang === 'de' && mail === 'gmail') await shot(env.page, 'de-send-guard', false);
        expect(await sentLog(env.page)).toEqual([]);
        await env.page.keyboard.press('Escape'); // "Empfänger bearbeiten"
        await waitFor(() => noDialog(env.page), 5_000, 'the dialog to close');
        expect(await sentLog(env.page)).toEqual([]);

        await openCompose(env.page, env.fixtures.origin, site, { to: [GOOD, GOOD2] });
        await env.page.click('#send');
        // Read in the same turn as the click: nothing was waited for.
        const sent = await sentLog(env.page);
        expect(sent).toEqual([
          { via: expect.any(String), trusted: true, to: [GOOD, GOOD2], at: expect.any(Number) },
        ]);
        expect(await noDialog(env.page)).toBe(true);
      });
    }
  }

  for (const site of ['gmail-de', 'outlook-fr'] as const) {
    it(`${site}: Replace puts the suggestion in place through the page's own controls`, async () => {
      await openCompose(env.page, env.fixtures.origin, site, { to: ['alice@gmial.com'] });
      await env.page.click('#send');
      await waitForDialog(env.page, /Meinten Sie alice@gmail\.com\?/);
      // "Ersetzen" comes first in the dialog: Shift+Tab from "Empfänger bearbeiten" wraps to it.
      await env.page.keyboard.down('Shift');
      await env.page.keyboard.press('Tab');
      await env.page.keyboard.up('Shift');
      await env.page.keyboard.press('Enter');
      await waitFor(() => noDialog(env.page), 5000, 'the dialog to close after Replace');
      const hook = site.startsWith('gmail') ? 'data-hovercard-id' : 'aria-label';
      await waitFor(() => env.page.$(`[${hook}="alice@gmail.com"]`), 5000, 'the corrected recipient');
      expect(await env.page.$(`[${hook}="alice@gmial.com"]`)).toBeNull();
      expect(await sentLog(env.page)).toEqual([]);
      await env.page.click('#send');
      const sent = await waitForSends(env.page, 1, 10_000);
      expect(sent[0]?.to).toEqual(['alice@gmail.com']);
    });
  }
});
