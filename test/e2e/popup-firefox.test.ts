/**
 * The popup's main flows in Firefox against the real service, as in Chromium: the page renders
 * its controls, verifies an address, preflights a CSV in its worker, uploads it, lists the
 * finished file; an upload survives the popup's close (the scenario popup-flow runs in Chromium);
 * the results and subsets of them download as files.
 */
import path from 'node:path';
import type { Page } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { button, click, control, fill } from './testing/dom';
import { useExtension } from './testing/extension-suite';
import {
  chooseCsv,
  FIXTURES,
  openPopup,
  selectTab,
  waitForCompletedJob,
  waitForSelectorText,
} from './testing/popup-page';
import { subsetDownloadScenario, uploadWithPopupClosedScenario } from './testing/popup-scenarios';
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

  it('saves a result subset made in the extension (Deliverable only)', async () => {
    await subsetDownloadScenario(e2e.session, page, {
      file: 'bom.csv',
      item: 'Deliverable only',
      expectedName: 'bom-deliverable.csv',
      statuses: ['deliverable'],
      rows: 2,
    });
  });

  it('uploads a CSV with the popup closed right after "Upload", then downloads the results', async () => {
    await page.close();
    page = await uploadWithPopupClosedScenario(e2e.session);
  });

  it('saves the other subsets of that file: deliverable and risky, undeliverable only', async () => {
    const kept = await subsetDownloadScenario(e2e.session, page, {
      file: 'contacts.csv',
      item: 'Deliverable and risky',
      expectedName: 'contacts-deliverable-and-risky.csv',
      statuses: ['deliverable', 'risky'],
      rows: 5,
    });
    expect(kept.map((r) => r.Name)).toEqual(['Alice', 'Bob', 'Cat', 'Info', 'Tom']);
    const dropped = await subsetDownloadScenario(e2e.session, page, {
      file: 'contacts.csv',
      item: 'Undeliverable only',
      expectedName: 'contacts-undeliverable.csv',
      statuses: ['undeliverable'],
      rows: 2,
    });
    expect(dropped.map((r) => r.Name)).toEqual(['Nobody', 'Dan']);
  });
});
