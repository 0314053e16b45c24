/**
 * Firefox smoke test of the popup against the real service: the page renders its controls,
 * verifies an address, preflights a CSV in its worker, uploads it, and lists the finished file.
 */
import path from 'node:path';
import Papa from 'papaparse';
import type { Page } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { button, click, control, fill } from './testing/dom';
import { listDownloads, waitForNextDownload } from './testing/downloads';
import { useExtension } from './testing/extension-suite';
import {
  chooseCsv,
  FIXTURES,
  openPopup,
  selectTab,
  waitForCompletedJob,
  waitForSelectorText,
} from './testing/popup-page';
import { waitFor } from './testing/process-guard';
import { launchFirefox } from './testing/session';

const e2e = useExtension({ launch: launchFirefox });
let page: Page;

beforeAll(async () => {
  page = await openPopup(e2e.session);
});

describe('popup (Firefox smoke)', () => {
  it('shows the labelled controls of docs/design.md §5', async () => {
    await control(page, 'Email address');
    await button(page, 'Verify');
    await selectTab(page, 'CSV upload');
    await control(page, 'CSV file');
    await selectTab(page, 'Files');
    await control(page, 'Search files');
    await selectTab(page, 'One address');
  });

  it('verifies an address', async () => {
    await fill(page, 'Email address', 'alice@deliverable.test');
    await click(page, 'Verify');
    const status = await waitFor(
      () => page.evaluate(() => document.querySelector('[data-testid=verdict]')?.getAttribute('data-status')),
      45_000,
      'a verdict',
    );
    expect(status).toBe('deliverable');
  });

  it('preflights, uploads and lists a CSV', async () => {
    await selectTab(page, 'CSV upload');
    await chooseCsv(page, path.join(FIXTURES, 'bom.csv'));
    await waitForSelectorText(page, '[data-testid=credits]', /takes: 2 \(addresses: 2, rows: 3\)/);
    await click(page, 'Upload');
    await waitForCompletedJob(page);
    await selectTab(page, 'Files');
    const row = await waitForSelectorText(page, '[data-testid=file-row][data-state=completed]', /bom\.csv/);
    expect(row).toContain('2 deliverable (100%)0 risky (0%)0 undeliverable (0%)0 unknown (0%)');
    await button(page, 'Download');
  });

  it('saves a result subset made in the extension (Firefox: a blob URL from the background page)', async () => {
    await click(page, 'More download options for bom.csv');
    const before = listDownloads(e2e.session);
    await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('[role=menuitem]')]
        .find((item) => item.textContent === 'Deliverable only')
        ?.click(),
    );
    const subset = await waitForNextDownload(e2e.session, before);
    expect(subset.name).toBe('bom-deliverable.csv');
    const rows = Papa.parse<Record<string, string>>(subset.text, { header: true, skipEmptyLines: true }).data;
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.verification_status === 'deliverable')).toBe(true);
  });
});
