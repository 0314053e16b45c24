/**
 * Issue 27: a subset of a 25 MB results file in Firefox (MV2: the background page streams the
 * file and saves the subset from a blob URL), against a scripted service on loopback.
 */
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer } from '../../lib/api/testing/scripted-server';
import { BIG_ROWS, bigResults, serviceScript } from './testing/big-results';
import { click } from './testing/dom';
import { listDownloads, waitForNextDownload } from './testing/downloads';
import { useExtension } from './testing/extension-suite';
import { openPopup, selectTab, waitForSelectorText } from './testing/popup-page';
import { waitFor } from './testing/process-guard';
import { launchFirefox } from './testing/session';

const e2e = useExtension({ launch: launchFirefox, service: false });
let server: Awaited<ReturnType<typeof startScriptedServer>>;

beforeAll(async () => {
  server = await startScriptedServer(serviceScript(bigResults()));
  await e2e.session.configure(server.url, 'vm_e2e_firefox_key_123');
});

afterAll(async () => {
  await server?.close();
});

describe('Firefox, a scripted service on loopback', () => {
  it('downloads a subset of a 25 MB results file with the right rows', { timeout: 300_000 }, async () => {
    const page = await openPopup(e2e.session);
    await selectTab(page, 'Files');
    await waitForSelectorText(page, '[data-testid=files]', /big\.csv/, 30_000);
    await click(page, 'More download options for big.csv');
    await waitFor(
      () => page.evaluate(() => document.querySelector('[role=menu]') !== null || undefined),
      5000,
      'the menu',
    );
    const before = listDownloads(e2e.session);
    await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('[role=menuitem]')]
        .find((i) => i.textContent === 'Deliverable and risky')
        ?.click(),
    );
    const subset = await waitForNextDownload(e2e.session, before, 180_000);
    expect(subset.name).toBe('big-deliverable-and-risky.csv');
    const parsed = Papa.parse<Record<string, string>>(subset.text, {
      header: true,
      skipEmptyLines: 'greedy',
    });
    expect(parsed.errors).toEqual([]);
    expect(parsed.data).toHaveLength((BIG_ROWS / 3) * 2);
    expect(new Set(parsed.data.map((row) => row.verification_status))).toEqual(
      new Set(['deliverable', 'risky']),
    );
    expect(parsed.data[1]).toMatchObject({ id: '2', email: 'person2@company2.test' });
    expect(parsed.data.at(-1)?.id).toBe(String(BIG_ROWS - 1));
    await page.close();
  });
});
