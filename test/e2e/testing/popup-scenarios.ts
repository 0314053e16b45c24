/** Popup scenarios both browsers run the same way (popup-flow in Chromium, popup-firefox). */
import path from 'node:path';
import { RESULT_COLUMNS } from '@verimark/contract';
import Papa from 'papaparse';
import type { Page } from 'puppeteer-core';
import { expect } from 'vitest';
import { click } from './dom';
import { listDownloads, waitForNextDownload } from './downloads';
import {
  chooseCsv,
  FIXTURES,
  openPopup,
  selectTab,
  waitForCompletedJob,
  waitForSelectorText,
} from './popup-page';
import type { ExtensionSession } from './session';

/**
 * Uploads contacts.csv and closes the popup the moment it says it may; a popup opened again
 * shows the upload finish, lists the file with its counts, and "Download" saves the results CSV
 * under the name the background asks for. `shoot(page, state)` takes screenshots on the way
 * (Chromium). Resolves with the popup left open on the Files tab.
 */
export async function uploadWithPopupClosedScenario(
  session: ExtensionSession,
  shoot: (page: Page, state: string) => Promise<void> = async () => undefined,
): Promise<Page> {
  const up = await openPopup(session);
  await selectTab(up, 'CSV upload');
  await chooseCsv(up, path.join(FIXTURES, 'contacts.csv'));
  await waitForSelectorText(up, '[data-testid=credits]', /takes: 7 /);
  await click(up, 'Upload');
  // The moment the background has the file, the popup says it may close, and it does.
  await waitForSelectorText(up, '[data-testid=live-status]', /You can close this popup/, 10_000);
  await up.close();

  const page = await openPopup(session);
  await selectTab(page, 'CSV upload');
  await waitForSelectorText(page, '[data-testid=jobs]', /contacts\.csv/);
  await shoot(page, 'upload-progress');
  await waitForCompletedJob(page);
  await shoot(page, 'upload-completed');

  await selectTab(page, 'Files');
  const row = await waitForSelectorText(
    page,
    '[data-testid=file-row][data-state=completed]',
    /contacts\.csv/,
  );
  expect(row).toContain('3 deliverable (43%)2 risky (29%)2 undeliverable (29%)0 unknown (0%)');
  expect(row).toContain('Credits: 7 used, 0 refunded');
  await shoot(page, 'files-completed');

  const before = listDownloads(session);
  await click(page, 'Download results of contacts.csv');
  // Saved under the name the background asks for, not the service's Content-Disposition name
  // (`contacts-results.csv`).
  const { name, text: csv } = await waitForNextDownload(session, before);
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
  return page;
}

/**
 * "More download options" → `item` on the file row of `file` saves a subset made in the
 * extension: a new download named `expectedName` whose rows all have a status in `statuses`,
 * `rows` of them, with the original columns first. Observed as the user sees it: a file on disk.
 */
export async function subsetDownloadScenario(
  session: ExtensionSession,
  page: Page,
  opts: { file: string; item: string; expectedName: string; statuses: string[]; rows: number },
): Promise<Record<string, string>[]> {
  await click(page, `More download options for ${opts.file}`);
  const before = listDownloads(session);
  await page.evaluate(
    (want) =>
      [...document.querySelectorAll<HTMLElement>('[role=menuitem]')]
        .find((item) => item.textContent === want)
        ?.click(),
    opts.item,
  );
  const subset = await waitForNextDownload(session, before);
  expect(subset.name).toBe(opts.expectedName);
  const parsed = Papa.parse<Record<string, string>>(subset.text.replace(/^\uFEFF/, ''), {
    header: true,
    skipEmptyLines: true,
  });
  expect(parsed.data).toHaveLength(opts.rows);
  expect(parsed.data.every((r) => opts.statuses.includes(r.verification_status ?? ''))).toBe(true);
  expect(parsed.meta.fields?.slice(-RESULT_COLUMNS.length)).toEqual([...RESULT_COLUMNS]);
  return parsed.data;
}
