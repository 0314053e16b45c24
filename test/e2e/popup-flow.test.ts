/**
 * The popup's whole flow in Chromium against the real service on loopback: verify (fresh,
 * cached, local syntax, did-you-mean), upload with the popup closed right after "Upload",
 * the file list (pages, search, files uploaded elsewhere), and the downloaded results CSV.
 */
import path from 'node:path';
import { RESULT_COLUMNS } from '@verimark/contract';
import Papa from 'papaparse';
import type { Page } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { choose, click, control, fill, waitForText } from './testing/dom';
import { listDownloads, waitForNextDownload } from './testing/downloads';
import { useExtension } from './testing/extension-suite';
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
import { creditsOf, uploadElsewhere } from './testing/service-helpers';
import { launchChromium } from './testing/session';

const e2e = useExtension({ launch: launchChromium });
let page: Page;

beforeAll(async () => {
  page = await openPopup(e2e.session);
});

function verdict(p: Page): Promise<{ status: string; text: string } | undefined> {
  return p.evaluate(() => {
    const card = document.querySelector('[data-testid=verdict]');
    return card
      ? { status: card.getAttribute('data-status') ?? '', text: card.textContent ?? '' }
      : undefined;
  });
}

async function verify(p: Page, email: string, status: string): Promise<string> {
  await fill(p, 'Email address', email);
  await click(p, 'Verify');
  const result = await waitFor(
    async () => {
      const v = await verdict(p);
      return v && v.status === status && v.text.includes(email) ? v : undefined;
    },
    45_000,
    `a ${status} verdict for ${email}`,
  );
  return result.text;
}

const rowCount = (p: Page) => p.evaluate(() => document.querySelectorAll('[data-testid=file-row]').length);

describe('popup (Chromium, real service)', () => {
  it('verifies an address: status, reason in words, the checks', async () => {
    await screenshotBothThemes(page, 'verify-empty');
    const text = await verify(page, 'alice@deliverable.test', 'deliverable');
    expect(text).toContain('Deliverable');
    expect(text).toContain('The mail server accepts this address.');
    expect(text).toMatch(/Mail server found\s*yes/);
    expect(await textOf(page, '[data-testid=verdict-source]')).toBe('Verified just now.');
    expect(await overflow(page)).toEqual(POPUP_SIZE);
    // Every string came through i18n: no message name shows instead of its text.
    expect(await page.evaluate(() => document.body.textContent)).not.toMatch(/popup_[a-z_]+/);
    await screenshotBothThemes(page, 'verify-deliverable');
  });

  it('shows a cached verdict with its age without spending a credit', async () => {
    const before = await creditsOf(e2e.service, 'test');
    await verify(page, 'alice@deliverable.test', 'deliverable');
    await waitForSelectorText(page, '[data-testid=verdict-source]', /From the cache, verified just now/);
    expect(await creditsOf(e2e.service, 'test')).toBe(before);
    expect(await textOf(page, '[data-testid=recent-lookups]')).toContain('alice@deliverable.test');
    await screenshotBothThemes(page, 'verify-cached');
  });

  it('decides bad syntax locally: invalid, no call, no credit', async () => {
    const before = await creditsOf(e2e.service, 'test');
    const text = await verify(page, 'alice@@deliverable', 'invalid');
    expect(text).toContain('Invalid');
    expect(await textOf(page, '[data-testid=verdict-source]')).toMatch(/Checked on this device/);
    expect(await creditsOf(e2e.service, 'test')).toBe(before);
    await screenshotBothThemes(page, 'verify-invalid');
  });

  it('offers a did-you-mean suggestion that re-verifies in one click', async () => {
    await verify(page, 'bob@gmial.com', 'undeliverable');
    expect(await textOf(page, '[data-testid=suggestion]')).toBe('bob@gmail.com');
    await screenshotBothThemes(page, 'verify-suggestion');
    await page.click('[data-testid=suggestion]');
    await waitFor(
      async () => {
        const v = await verdict(page);
        return v?.status === 'deliverable' && v.text.includes('bob@gmail.com');
      },
      45_000,
      'the suggestion verified',
    );
    const input = await page.$eval('#verify-email', (el) => (el as HTMLInputElement).value);
    expect(input).toBe('bob@gmail.com');
  });

  it('is usable by keyboard alone, with visible focus', async () => {
    const kb = await openPopup(e2e.session);
    try {
      // Tab past the header's controls to the tab list: one stop, on the selected tab.
      const stops: string[] = [];
      for (let i = 0; i < 8 && !stops.includes('tab'); i++) {
        await kb.keyboard.press('Tab');
        stops.push(
          await kb.evaluate(
            () => document.activeElement?.getAttribute('role') ?? document.activeElement?.tagName ?? '',
          ),
        );
      }
      expect(stops).toContain('tab');
      expect(await textOf(kb, ':focus')).toBe('One address');
      await kb.keyboard.press('ArrowRight');
      expect(await textOf(kb, '[role=tab][aria-selected=true]')).toBe('CSV upload');
      await kb.keyboard.press('ArrowLeft');
      await kb.keyboard.press('Tab'); // the panel
      await kb.keyboard.press('Tab'); // the "Email address" field
      const focus = await kb.evaluate(() => {
        const el = document.activeElement as HTMLElement;
        return { id: el.id, outline: getComputedStyle(el).outlineStyle };
      });
      expect(focus).toEqual({ id: 'verify-email', outline: 'solid' });
      await kb.keyboard.type('support@deliverable.test');
      await kb.keyboard.press('Enter');
      await waitFor(
        async () => (await verdict(kb))?.status === 'deliverable',
        45_000,
        'a verdict by keyboard',
      );
    } finally {
      await kb.close();
    }
  });

  it('uploads a CSV with the popup closed right after "Upload", then downloads the results', async () => {
    const up = await openPopup(e2e.session);
    await selectTab(up, 'CSV upload');
    await chooseCsv(up, path.join(FIXTURES, 'contacts.csv'));
    await waitForSelectorText(up, '[data-testid=credits]', /takes: 7 /);
    await click(up, 'Upload');
    // The moment the background has the file, the popup says it may close, and it does.
    await waitForSelectorText(up, '[data-testid=live-status]', /You can close this popup/, 10_000);
    await up.close();

    page = await openPopup(e2e.session);
    await selectTab(page, 'CSV upload');
    await waitForSelectorText(page, '[data-testid=jobs]', /contacts\.csv/);
    await screenshotBothThemes(page, 'upload-progress');
    await waitForCompletedJob(page);
    await screenshotBothThemes(page, 'upload-completed');

    await selectTab(page, 'Files');
    const row = await waitForSelectorText(
      page,
      '[data-testid=file-row][data-state=completed]',
      /contacts\.csv/,
    );
    expect(row).toContain('3 deliverable (43%)2 risky (29%)2 undeliverable (29%)0 unknown (0%)');
    expect(row).toContain('Credits: 7 used, 0 refunded');
    await screenshotBothThemes(page, 'files-completed');

    const before = listDownloads(e2e.session);
    await click(page, 'Download results of contacts.csv');
    // Saved under the name the background asks for, not the service's Content-Disposition name
    // (`contacts-results.csv`).
    const { name, text: csv } = await waitForNextDownload(e2e.session, before);
    expect(name).toBe('contacts-verified.csv');
    const parsed = Papa.parse<Record<string, string>>(csv.replace(/^\uFEFF/, ''), {
      header: true,
      skipEmptyLines: true,
    });
    expect(parsed.meta.fields).toEqual(['Name', 'Work address', 'Company', ...RESULT_COLUMNS]);
    const byName = Object.fromEntries(parsed.data.map((r) => [r.Name, r]));
    expect(byName.Alice?.verification_status).toBe('deliverable');
    expect(byName.Nobody?.verification_status).toBe('undeliverable');
    expect(byName.Tom?.verification_status).toBe('risky');
    expect(byName.Empty?.['Work address']).toBe('');
  });

  it('lists files from elsewhere, a page at a time, and searches them', async () => {
    for (let i = 1; i <= 6; i++) {
      await uploadElsewhere(e2e.service, `elsewhere-${i}.csv`, `Email\nalice@deliverable.test\n`);
    }
    await selectTab(page, 'Files');
    await waitForSelectorText(page, '[data-testid=page-range]', /^1–5 of 7$/);
    expect(await rowCount(page)).toBe(5);
    expect(await textOf(page, '[data-testid=files]')).toContain('elsewhere-6.csv');
    await screenshotBothThemes(page, 'files-page-1');

    await click(page, 'Next');
    await waitForSelectorText(page, '[data-testid=page-range]', /^6–7 of 7$/);
    expect(await rowCount(page)).toBe(2);
    expect(await textOf(page, '[data-testid=files]')).toContain('contacts.csv');

    await fill(page, 'Search files', 'ELSEWHERE-4');
    await waitForSelectorText(page, '[data-testid=page-range]', /^1–1 of 1$/);
    expect(await textOf(page, '[data-testid=files]')).toMatch(/^elsewhere-4\.csv/);
    await screenshotBothThemes(page, 'files-search');

    await fill(page, 'Search files', 'no such file');
    await waitForSelectorText(page, '[data-testid=files-empty]', /No files match/);
    expect(await overflow(page)).toEqual(POPUP_SIZE);
  });

  it('preselects the default mode from the settings', async () => {
    const options = await e2e.session.openExtensionPage('options.html');
    await choose(options, 'Default mode', 'non_catch_all');
    await click(options, 'Save');
    await waitForText(options, /Saved/);
    await options.close();
    const popup = await openPopup(e2e.session);
    await selectTab(popup, 'CSV upload');
    await chooseCsv(popup, path.join(FIXTURES, 'bom.csv'));
    await waitForSelectorText(popup, '[data-testid=credits]', /takes: 2 /);
    expect(await (await control(popup, 'Mode')).evaluate((el) => el.value)).toBe('non_catch_all');
    await popup.close();
  });
});
