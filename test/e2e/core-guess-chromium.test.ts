/**
 * Issue 27's "nothing left to guess", background side, in real Chromium against scripted services
 * on loopback: a 25 MB results file downloaded as a subset (streamed, blob URL from the offscreen
 * document), a changed service origin never receiving the old key, GET /account asked once when
 * it answers 404, the verdict card with string flags, the options' "Forget API key" and "Clear
 * cached verdicts", and the keyboard commands the browser registered.
 */

import { PATHS } from '@verimark/contract';
import Papa from 'papaparse';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer } from '../../lib/api/testing/scripted-server';
import { BIG_ROWS, bigResults, serviceScript } from './testing/big-results';
import { statusText } from './testing/configure';
import { click, fill } from './testing/dom';
import { listDownloads, waitForNextDownload } from './testing/downloads';
import { useExtension } from './testing/extension-suite';
import { openPopup, screenshotBothThemes, selectTab, waitForSelectorText } from './testing/popup-page';
import { waitFor } from './testing/process-guard';
import { launchChromium } from './testing/session';

interface Command {
  name?: string;
  shortcut?: string;
}
type Server = Awaited<ReturnType<typeof startScriptedServer>>;

const KEY = 'vm_e2e_origin_key_123';
const e2e = useExtension({ launch: launchChromium, service: false });
let a: Server;
let b: Server;
let big: string;

beforeAll(async () => {
  big = bigResults();
  a = await startScriptedServer(serviceScript(big));
  b = await startScriptedServer(serviceScript(big));
  await e2e.session.configure(a.url, KEY);
});

afterAll(async () => {
  await a?.close();
  await b?.close();
});

const withKey = (server: Server, key = KEY) => server.requests.filter((r) => r.headers['x-api-key'] === key);

/** The rows of the verdict card (label, value). */
function cardRows(page: Page): Promise<string[][]> {
  return page.$$eval('[data-testid=verdict] .check', (rows) =>
    rows.map((row) => [
      row.querySelector('dt')?.textContent ?? '',
      row.querySelector('dd')?.textContent ?? '',
    ]),
  );
}

describe('Chromium, scripted services on loopback', () => {
  it('registers both keyboard commands with their default shortcuts', async () => {
    const page = await e2e.session.openExtensionPage('options.html');
    const commands = await page.evaluate(async () => {
      const api = (globalThis as unknown as { chrome: { commands: { getAll(): Promise<Command[]> } } })
        .chrome;
      return (await api.commands.getAll()).map((c) => [c.name, c.shortcut]);
    });
    await page.close();
    expect(commands).toEqual(
      expect.arrayContaining([
        ['_execute_action', 'Alt+Shift+V'],
        ['verify-selection', 'Alt+Shift+E'],
      ]),
    );
  });

  it('downloads a subset of a 25 MB results file with the right rows', { timeout: 300_000 }, async () => {
    expect(big.length).toBeGreaterThan(24_000_000);
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
    // Saved from a blob URL (the offscreen document's), not a data: URL of the whole subset.
    const urls = await page.evaluate(async () => {
      const api = (
        globalThis as unknown as {
          chrome: { downloads: { search(q: object): Promise<{ url: string; filename: string }[]> } };
        }
      ).chrome;
      const items = await api.downloads.search({ filenameRegex: 'big-deliverable-and-risky' });
      return items.map((item) => item.url.slice(0, 40));
    });
    expect(urls).toHaveLength(1);
    expect(urls[0]).toMatch(/^blob:chrome-extension:\/\//);
    // Its download over, the offscreen document is closed (its blob URL with it).
    await waitFor(
      () =>
        page.evaluate(async () => {
          const api = (
            globalThis as unknown as {
              chrome: { runtime: { getContexts(f: object): Promise<unknown[]> } };
            }
          ).chrome;
          return (
            (await api.runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT'] })).length === 0 ||
            undefined
          );
        }),
      20_000,
      'the offscreen document to close',
    );
    const parsed = Papa.parse<Record<string, string>>(subset.text, {
      header: true,
      skipEmptyLines: 'greedy',
    });
    expect(parsed.errors).toEqual([]);
    expect(parsed.data).toHaveLength((BIG_ROWS / 3) * 2);
    expect(new Set(parsed.data.map((row) => row.verification_status))).toEqual(
      new Set(['deliverable', 'risky']),
    );
    expect(parsed.data[0]).toMatchObject({
      id: '0',
      company: 'Company 0, Inc.',
      notes: 'Met at fair, "booth 0"\nfollow up',
    });
    expect(parsed.data.at(-1)?.email).toBe(`person${BIG_ROWS - 1}@company${(BIG_ROWS - 1) % 97}.test`);
    await page.close();
  });

  it('asks GET /account once (404), and shows every field of a result with string flags', async () => {
    const accountAsks = () => a.requests.filter((r) => r.path === PATHS.account).length;
    for (let i = 0; i < 3; i++) {
      const page = await openPopup(e2e.session);
      await new Promise((resolve) => setTimeout(resolve, 500));
      await page.close();
    }
    expect(accountAsks()).toBe(1);
    const page = await openPopup(e2e.session);
    await fill(page, 'Email address', 'gina@good.test');
    await click(page, 'Verify');
    await waitForSelectorText(page, '[data-testid=verdict]', /gina@good\.test/, 30_000);
    expect(await cardRows(page)).toEqual([
      ['Catch-all', 'yes'],
      ['Disposable', 'no'],
      ['Mail server', 'mx1.good.test'],
      ['Mail provider', 'Private'],
      ['score', '42'],
      ['last_checked', 'null'],
    ]);
    await screenshotBothThemes(page, 'verdict-string-flags');
    await page.close();
    expect(accountAsks()).toBe(1);
  });

  it('never sends the saved key to a new origin saved with an empty key field; sends it once confirmed', async () => {
    expect(withKey(a).length).toBeGreaterThan(0);
    const options = await e2e.session.openExtensionPage('options.html');
    await fill(options, 'Service URL', b.url);
    await click(options, 'Save');
    expect(await statusText(options)).toMatch(/^Saved/);
    await waitForSelectorText(options, '[data-testid=key-elsewhere]', /was saved for http:\/\/127\.0\.0\.1/);
    await screenshotBothThemes(options, 'options-key-elsewhere');
    // What would have sent it: the popup (it now asks for the set-up instead) and the polling.
    const popup = await e2e.session.openExtensionPage('popup.html');
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await popup.close();
    expect(withKey(b)).toHaveLength(0);

    await click(options, `Use the stored key at ${b.url}`);
    await waitForSelectorText(options, '[data-testid=options-status]', /now used at/);
    const again = await openPopup(e2e.session);
    await selectTab(again, 'Files');
    await waitFor(() => withKey(b).length > 0 || undefined, 20_000, 'the confirmed origin to get the key');
    await again.close();
    await options.close();
  });

  it('options: Forget API key and Clear cached verdicts say what they did', async () => {
    const options = await e2e.session.openExtensionPage('options.html');
    await click(options, 'Clear cached verdicts');
    await waitForSelectorText(
      options,
      '[data-testid=data-status]',
      /Cached verdicts cleared \(\d+ removed\)/,
    );
    await click(options, 'Forget API key');
    await waitForSelectorText(
      options,
      '[data-testid=data-status]',
      /The API key was removed from this browser\./,
    );
    expect(await options.$('[data-testid=key-fingerprint]')).toBeNull();
    await options.$eval('[data-testid=data-status]', (el) => el.scrollIntoView({ block: 'center' }));
    await screenshotBothThemes(options, 'options-stored-data');
    // Keyboard: the buttons are reached with Tab and pressed with Enter.
    await options.focus('[data-testid=clear-cache]');
    await options.keyboard.press('Enter');
    await waitForSelectorText(options, '[data-testid=data-status]', /\(0 removed\)/);
    await options.close();
  });
});
