/**
 * The upload preflight in a real browser, before anything is sent to the service: the worker reads the
 * file, refuses empty, binary, header-less, mis-encoded and too-large files with clear words,
 * and for a good file shows a preview, preselects the email column and counts the credits.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MAX_UPLOAD_BYTES } from '@verimark/contract';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { control } from './testing/dom';
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
  waitForSelectorText,
} from './testing/popup-page';
import { waitFor } from './testing/process-guard';
import { launchChromium } from './testing/session';

// Configured for a real service: an unconfigured popup shows only its setup card. The preflight
// itself never calls the service.
const e2e = useExtension({ launch: launchChromium });
let page: Page;
let temp: string;

beforeAll(async () => {
  temp = mkdtempSync(path.join(tmpdir(), 'verimark-popup-'));
  page = await openPopup(e2e.session);
  await selectTab(page, 'CSV upload');
});

afterAll(() => {
  rmSync(temp, { recursive: true, force: true });
});

async function refusal(file: string): Promise<{ kind: string; text: string }> {
  await chooseCsv(page, file);
  return waitFor(
    () =>
      page.evaluate(() => {
        const el = document.querySelector('[data-testid=preflight-error]');
        return el ? { kind: el.getAttribute('data-error') ?? '', text: el.textContent ?? '' } : undefined;
      }),
    20_000,
    'a preflight error',
  );
}

describe('popup upload preflight (Chromium)', () => {
  it.each([
    ['empty.csv', 'empty', /empty/i],
    ['spreadsheet.xlsx', 'binary', /not a text CSV/i],
    ['no-header.csv', 'no_header', /header row/i],
    ['latin1.csv', 'encoding', /not UTF-8/i],
  ])('refuses %s (%s) in words', async (name, kind, words) => {
    const result = await refusal(path.join(FIXTURES, name));
    expect(result.kind).toBe(kind);
    expect(result.text).toMatch(words);
    expect(await page.$('button[type=submit].primary.wide')).toBeNull();
    await screenshotBothThemes(page, `upload-error-${kind}`);
  });

  it('refuses a file over 25MB', async () => {
    const big = path.join(temp, 'big.csv');
    const line = 'someone@deliverable.test\n';
    writeFileSync(big, `Email\n${line.repeat(Math.ceil(MAX_UPLOAD_BYTES / line.length) + 10)}`);
    const result = await refusal(big);
    expect(result.kind).toBe('too_large');
    expect(result.text).toMatch(/25MB/);
    await screenshotBothThemes(page, 'upload-error-too-large');
  });

  it('reads a UTF-8 file with a BOM: Email preselected, credits = non-empty addresses', async () => {
    await chooseCsv(page, path.join(FIXTURES, 'bom.csv'));
    await waitForSelectorText(page, '[data-testid=credits]', /takes: 2 /);
    const column = await control(page, 'Email column');
    expect(await column.evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]?.text)).toBe('Email');
  });

  it('says why a column without a header name cannot be uploaded, and offers no Upload', async () => {
    const file = path.join(temp, 'unnamed.csv');
    writeFileSync(file, 'Name,\nAda,ada@deliverable.test\nBob,bob@deliverable.test\n');
    await chooseCsv(page, file);
    // The addresses are found in the unnamed second column, which the service cannot be asked for.
    const problem = await waitForSelectorText(page, '[data-testid=column-problem]', /Column 2 has no name/);
    expect(problem).toMatch(/Name it \(for example Email\)/);
    // Screen readers hear the same, not "ready to upload".
    expect(await textOf(page, '[data-testid=live-status]')).toMatch(/Column 2 has no name/);
    expect(
      await page.$eval('button[type=submit].primary.wide', (b) => (b as HTMLButtonElement).disabled),
    ).toBe(true);
    await screenshotBothThemes(page, 'upload-error-unnamed-column');
  });

  it('takes a file dropped onto the drop zone', async () => {
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.items.add(
        new File(['Contact,E-Mail\nAda,ada@deliverable.test\n'], 'dropped.csv', { type: 'text/csv' }),
      );
      const zone = document.querySelector('[data-testid=drop-zone]');
      zone?.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
      zone?.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    });
    await waitForSelectorText(page, '[data-testid=credits]', /takes: 1 \(addresses: 1, rows: 1\)/);
    const column = await control(page, 'Email column');
    expect(await column.evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]?.text)).toBe('E-Mail');
    const fileName = await control(page, 'File name');
    expect(await fileName.evaluate((el) => el.value)).toBe('dropped.csv');
  });

  it('previews a CSV, preselects the column that holds addresses, and fits 380×600', async () => {
    await chooseCsv(page, path.join(FIXTURES, 'contacts.csv'));
    const credits = await waitForSelectorText(page, '[data-testid=credits]', /takes/);
    expect(credits).toMatch(/takes: 7 \(addresses: 7, rows: 8\)/);
    const column = await control(page, 'Email column');
    expect(await column.evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]?.text)).toBe(
      'Work address',
    );
    expect(await textOf(page, '[data-testid=csv-preview]')).toContain('alice@deliverable.test');
    const fileName = await control(page, 'File name');
    expect(await fileName.evaluate((el) => el.value)).toBe('contacts.csv');
    const mode = await control(page, 'Mode');
    expect(await mode.evaluate((el) => el.value)).toBe('catch_all');
    expect(await overflow(page)).toEqual(POPUP_SIZE);
    await screenshotBothThemes(page, 'upload-preview');
  });
});
