/**
 * The popup in German, French and Spanish, in real Chromium started in each language (Debian's
 * chromium-l10n, `--lang` and `LANGUAGE`), against the real service: counts read right for 0, 1
 * and many in that language (the balance, a file's verdict counts: "0 inconnue", "3 délivrables"),
 * the results download is saved under a name in that language (`contacts-geprüft.csv`), and
 * nothing overflows the popup. Screenshots in light and dark for each language
 * (test-results/screenshots/popup-<lang>-*.png).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { useContentEnv } from './testing/content-env';
import { click, fill } from './testing/dom';
import { listDownloads, waitForNextDownload } from './testing/downloads';
import { ROOT } from './testing/paths';
import {
  chooseCsv,
  FIXTURES,
  openPopup,
  overflow,
  POPUP_SIZE,
  screenshotBothThemes,
  selectTab,
  textOf,
  waitForCompletedJob,
  waitForSelectorText,
} from './testing/popup-page';
import { waitFor } from './testing/process-guard';
import { launchChromium } from './testing/session';

type Lang = 'de' | 'fr' | 'es';
type Catalog = Record<string, { message: string }>;
const catalog = (lang: Lang): Catalog =>
  JSON.parse(readFileSync(path.join(ROOT, 'public/_locales', lang, 'messages.json'), 'utf8')) as Catalog;

/** What contacts.csv comes to (3 deliverable, 2 risky, 2 undeliverable, 0 unknown), per language. */
const EXPECTED: Record<Lang, { counts: string[]; results: string; balanceWord: string }> = {
  de: {
    counts: ['3 zustellbar', '2 riskant', '2 unzustellbar', '0 unbekannt'],
    results: 'contacts-geprüft.csv',
    balanceWord: 'Credits',
  },
  fr: {
    counts: ['3 délivrables', '2 risquées', '2 non délivrables', '0 inconnue '],
    results: 'contacts-vérifié.csv',
    balanceWord: 'crédits',
  },
  es: {
    counts: ['3 entregables', '2 riesgosas', '2 no entregables', '0 desconocidas'],
    results: 'contacts-verificado.csv',
    balanceWord: 'créditos',
  },
};

const fits = async (page: Page) => expect(await overflow(page)).toEqual(POPUP_SIZE);

for (const lang of ['de', 'fr', 'es'] as const) {
  describe(`the popup in ${lang}`, () => {
    const env = useContentEnv(() => launchChromium({ lang }));
    const words = catalog(lang);
    const say = (key: string) => words[key]?.message ?? key;

    it('counts, a verdict and a results file in its language; nothing overflows', async () => {
      const page = await openPopup(env.session);
      try {
        expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang);
        const balance = await waitForSelectorText(page, '[data-testid=balance]', /\d/);
        expect(balance).toMatch(new RegExp(`^[\\d.\\s\u202f\u00a0]+ ${EXPECTED[lang].balanceWord}$`));

        await fill(page, say('popup_email_label'), 'lead1@rejecting.test');
        await click(page, say('popup_verify_button'));
        const card = await waitFor(
          () =>
            page.evaluate(() => {
              const el = document.querySelector<HTMLElement>('[data-testid="verdict"]');
              return el?.dataset.status ? (el.textContent ?? '') : undefined;
            }),
          30_000,
          'a verdict card',
        );
        expect(card).toContain(say('popup_status_undeliverable'));
        await fits(page);
        await screenshotBothThemes(page, `${lang}-verdict`);

        await selectTab(page, say('popup_tab_upload'));
        await chooseCsv(page, path.join(FIXTURES, 'contacts.csv'));
        await waitForSelectorText(page, '[data-testid=credits]', /7/);
        await fits(page);
        await screenshotBothThemes(page, `${lang}-upload`);
        await click(page, say('popup_upload_button'));
        await waitForCompletedJob(page);

        await selectTab(page, say('popup_tab_files'));
        const row = await waitForSelectorText(
          page,
          '[data-testid=file-row][data-state=completed]',
          /contacts/,
        );
        for (const count of EXPECTED[lang].counts) expect(row).toContain(count);
        await fits(page);
        await screenshotBothThemes(page, `${lang}-files`);

        const before = listDownloads(env.session);
        await click(page, say('popup_download_named').replace('$P1$', 'contacts.csv'));
        const { name } = await waitForNextDownload(env.session, before);
        expect(name).toBe(EXPECTED[lang].results);
        expect(await textOf(page, '[data-testid=balance]')).toMatch(/\d/);
      } finally {
        await page.close();
      }
    });
  });
}
