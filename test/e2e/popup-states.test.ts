/**
 * Every state of the popup and the options page a new user meets, in Chromium against the real
 * service: each is screenshotted in light and dark (test-results/screenshots) and checked with
 * axe-core, which must find no serious or critical violation. Along the way: the setup card,
 * a refused key, the key fingerprint, the column sanity check, result subsets downloaded with
 * only their verdicts, the results preview, the upload list's actions, Files on a refused key.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import Papa from 'papaparse';
import type { Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { lastLine } from '../../server/testing/service';
import { statusText } from './testing/configure';
import { click, fill } from './testing/dom';
import { listDownloads, waitForNextDownload } from './testing/downloads';
import { useExtension } from './testing/extension-suite';
import {
  chooseCsv,
  screenshotBothThemes as look,
  openPopup,
  selectTab,
  textOf,
  waitForCompletedJob,
  waitForSelectorText,
} from './testing/popup-page';
import { waitFor } from './testing/process-guard';
import { type ExtensionSession, launchChromium } from './testing/session';

const e2e = useExtension({ launch: launchChromium, configure: false });

const present = (page: Page, selector: string) =>
  page.evaluate((s) => document.querySelector(s) !== null, selector);

describe('popup and options states (Chromium, real service, axe)', () => {
  it('unconfigured: a setup card with "Open settings" instead of the forms', async () => {
    const page = await openPopupBare(e2e.session);
    await waitForSelectorText(page, '[data-testid=setup]', /Connect Verimark/);
    expect(await present(page, '#verify-email')).toBe(false);
    await look(page, 'setup');
    const opened = e2e.session.browser.waitForTarget((t) => t.url().endsWith('/options.html'), {
      timeout: 15_000,
    });
    await click(page, 'Open settings');
    const options = await (await opened).page();
    if (!options) throw new Error('no options page');
    await options.setViewport({ width: 800, height: 900 });
    await look(options, 'options-empty');
    await options.close();
    await page.close();
  });

  it('options: a refused key is not saved unless confirmed; a good one shows as a fingerprint', async () => {
    const page = await e2e.session.openExtensionPage('options.html');
    await page.setViewport({ width: 800, height: 900 });
    await fill(page, 'Service URL', e2e.service.baseUrl);
    await fill(page, 'API key', 'vm_this_key_does_not_exist');
    await click(page, 'Save');
    expect(await statusText(page)).toMatch(
      /^Not saved: the service refused this API key \(Invalid API key\)/,
    );
    await look(page, 'options-key-refused');
    expect(await present(page, '[data-testid=key-fingerprint]')).toBe(false);

    await fill(page, 'API key', e2e.service.apiKey);
    await click(page, 'Save');
    await waitFor(async () => /^Saved\./.test(await statusText(page)) || undefined, 20_000, 'Saved.');
    const fingerprint = await textOf(page, '[data-testid=key-fingerprint]');
    expect(fingerprint).toBe(
      `Key stored: ${e2e.service.apiKey.slice(0, 3)}…${e2e.service.apiKey.slice(-3)}. Leave empty to keep it.`,
    );
    expect(await page.evaluate(() => document.body.textContent)).not.toContain(e2e.service.apiKey);
    await click(page, 'Test connection');
    const ok = await waitFor(
      async () => {
        const text = await statusText(page);
        return /^Connection OK/.test(text) ? text : undefined;
      },
      20_000,
      'OK',
    );
    expect(ok).toMatch(/Balance: [\d,]+ credits\./);
    await look(page, 'options-saved');
    await page.close();
  });

  it('verify: the verdict card says what was not tested, offers copy, again, and "Did you mean …?"', async () => {
    const page = await openPopup(e2e.session);
    await waitForSelectorText(page, '[data-testid=balance]', /^[\d,]+ credits$/);
    await look(page, 'verify-empty');
    await fill(page, 'Email address', 'someone@gmial.com');
    await click(page, 'Verify');
    const card = await waitForSelectorText(page, '[data-testid=verdict]', /Undeliverable/, 45_000);
    expect(card).toContain('Did you mean someone@gmail.com?');
    expect(card).not.toMatch(/Disposable\s*yes/);
    expect(card).not.toMatch(/Free provider\s*yes/);
    await look(page, 'verify-undeliverable');

    await fill(page, 'Email address', 'someone@greylist.test');
    await click(page, 'Verify');
    const unknown = await waitForSelectorText(page, '[data-testid=verdict]', /Unknown/, 60_000);
    expect(unknown).toMatch(/The credit was refunded\. .*try again/);
    await look(page, 'verify-unknown');
    await page.close();
  });

  it('upload: a column without addresses needs a confirmation; results come in subsets', async () => {
    const page = await openPopup(e2e.session);
    await selectTab(page, 'CSV upload');
    const file = path.join(e2e.service.dataDir, 'people.csv');
    const rows = [
      ['Alice', 'alice@deliverable.test', '+1 555 0101'],
      ['Bob', 'bob@deliverable.test', '+1 555 0102'],
      ['Nobody', 'nobody@rejecting.test', '+1 555 0103'],
      ['Dan', 'dan@nonexistent.test', '+1 555 0104'],
      ['Cat', 'anyone@catch-all.test', '+1 555 0105'],
    ];
    writeFileSync(file, Papa.unparse([['Name', 'Email', 'Phone'], ...rows]));
    await chooseCsv(page, file);
    await waitForSelectorText(page, '[data-testid=credits]', /takes/);
    await page.select('#email-column', '2');
    expect(await textOf(page, '[data-testid=column-doubt] p')).toBe(
      '0 of 5 values look like email addresses. Is this the right column?',
    );
    expect(await page.$eval('button[type=submit].wide', (b) => (b as HTMLButtonElement).disabled)).toBe(true);
    await page.$eval('[data-testid=column-doubt]', (el) => el.scrollIntoView({ block: 'center' }));
    await look(page, 'upload-column-doubt');
    await page.select('#email-column', '1');
    await click(page, 'Upload');
    await waitForCompletedJob(page);
    await waitForSelectorText(page, '[data-testid=jobs] [data-testid=counts]', /2 deliverable/);
    await look(page, 'upload-completed');

    // "More download options" → "Deliverable only": only the deliverable rows, as <name>-deliverable.csv.
    await click(page, 'More download options for people.csv');
    await waitFor(() => present(page, '[role=menu]').then((p) => p || undefined), 5000, 'the menu');
    await look(page, 'upload-download-menu');
    const before = listDownloads(e2e.session);
    await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('[role=menuitem]')]
        .find((i) => i.textContent === 'Deliverable only')
        ?.click(),
    );
    const subset = await waitForNextDownload(e2e.session, before);
    expect(subset.name).toBe('people-deliverable.csv');
    const parsed = Papa.parse<Record<string, string>>(subset.text, {
      header: true,
      skipEmptyLines: true,
    }).data;
    expect(parsed.map((r) => r.Email)).toEqual(['alice@deliverable.test', 'bob@deliverable.test']);
    expect(parsed.every((r) => r.verification_status === 'deliverable')).toBe(true);
    await page.close();
  });

  it('files: breakdown with legend and percentages, a preview with verdict chips', async () => {
    const page = await openPopup(e2e.session);
    await selectTab(page, 'Files');
    await waitForSelectorText(page, '[data-testid=files] [data-testid=counts]', /deliverable \(\d+%\)/);
    await click(page, 'Show first rows');
    await waitFor(
      () => present(page, '[data-testid=results-preview] .chip').then((p) => p || undefined),
      20_000,
      'chips',
    );
    const chips = await page.$$eval('[data-testid=results-preview] .chip', (els) =>
      els.map((e) => e.textContent),
    );
    expect(chips).toContain('Deliverable');
    await look(page, 'files-preview');
    await page.close();
  });

  it('a refused key: every tab says so with "Retry" instead of hanging', async () => {
    const broke = lastLine(await e2e.service.admin(['revoke-key', e2e.service.apiKey])).trim();
    expect(broke).not.toBe('');
    const page = await openPopup(e2e.session);
    await waitFor(
      () => present(page, '[role=alert][data-error-kind=invalid_key]').then((p) => p || undefined),
      20_000,
      'the invalid key banner',
    );
    await selectTab(page, 'Files');
    await waitForSelectorText(
      page,
      '[data-testid=files-error]',
      /could not be loaded\. The service refused the API key\./,
    );
    await look(page, 'files-invalid-key');
    await page.close();
  });
});

/** The popup page as it opens before any configuration (no tabs to wait for). */
async function openPopupBare(s: ExtensionSession): Promise<Page> {
  const page = await s.openExtensionPage('popup.html');
  await page.setViewport({ width: 380, height: 600 });
  return page;
}
