/**
 * The "done when" at full size: a 50,000-row CSV is preflighted in the popup's worker
 * (50,000 credits shown), uploaded with the popup closed on the way, completes on the real
 * service, and its downloaded results hold every row.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { click } from './testing/dom';
import { useExtension } from './testing/extension-suite';
import {
  chooseCsv,
  openPopup,
  screenshotBothThemes,
  selectTab,
  waitForSelectorText,
} from './testing/popup-page';
import { waitFor } from './testing/process-guard';
import { launchChromium } from './testing/session';

const ROWS = 50_000;
const e2e = useExtension({ launch: launchChromium });
let temp: string;

beforeAll(() => {
  temp = mkdtempSync(path.join(tmpdir(), 'verimark-popup-large-'));
});

afterAll(() => {
  rmSync(temp, { recursive: true, force: true });
});

describe('popup with a 50,000-row CSV (Chromium, real service)', () => {
  it('preflights, uploads with the popup closed, completes and downloads every row', {
    timeout: 600_000,
  }, async () => {
    // Domains without mail are decided from DNS alone, so the service finishes quickly.
    const lines = ['id,name,email'];
    for (let i = 0; i < ROWS; i++)
      lines.push(`${i},Person ${i},person${i}@${i % 2 ? 'no-mail.test' : 'null-mx.test'}`);
    const file = path.join(temp, 'crm-export.csv');
    writeFileSync(file, `${lines.join('\n')}\n`);

    const up = await openPopup(e2e.session);
    await selectTab(up, 'CSV upload');
    await chooseCsv(up, file);
    await waitForSelectorText(
      up,
      '[data-testid=credits]',
      /takes: 50,000 \(addresses: 50,000, rows: 50,000\)/,
      60_000,
    );
    await click(up, 'Upload');
    await waitForSelectorText(up, '[data-testid=live-status]', /You can close this popup/, 30_000);
    await up.close();

    const page = await openPopup(e2e.session);
    await selectTab(page, 'Files');
    // The service works through 50,000 rows (about 80 s on a loaded 2-core machine); the row
    // shows the percent from its counts meanwhile.
    await waitForSelectorText(page, '[data-testid=file-row]', /crm-export\.csv/, 60_000);
    await screenshotBothThemes(page, 'files-large-processing');
    const row = await waitForSelectorText(
      page,
      '[data-testid=file-row][data-state=completed]',
      /crm-export\.csv/,
      480_000,
    );
    expect(row).toContain('0 deliverable (0%)0 risky (0%)50,000 undeliverable (100%)0 unknown (0%)');
    await click(page, 'Download results of crm-export.csv');
    const saved = await waitFor(
      () =>
        readdirSync(e2e.session.downloadDir).find((f) => f.startsWith('crm-export-') && f.endsWith('.csv')),
      60_000,
      'the results in the download folder',
    );
    const parsed = await waitFor(
      () => {
        const result = Papa.parse<Record<string, string>>(
          readFileSync(path.join(e2e.session.downloadDir, saved), 'utf8'),
          {
            header: true,
            skipEmptyLines: true,
          },
        );
        return result.data.length === ROWS ? result : undefined;
      },
      30_000,
      'the whole download',
    );
    expect(parsed.data[12_345]).toMatchObject({
      id: '12345',
      email: 'person12345@no-mail.test',
      verification_status: 'undeliverable',
    });
    await page.close();
  });
});
