/**
 * Marks as a user meets them, in real Chromium: badges in the page's flow never cover its text or
 * controls; the popover (one overlay root, top layer) stays inside the viewport at every edge and
 * is what is on top at its centre; it speaks in words, replaces a typo in a field and undoes it;
 * plain-text addresses are marked, script and editable text never; light and dark screenshots.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useContentEnv } from './testing/content-env';
import { finalStatuses, sendFromExtensionPage } from './testing/content-pages';
import { badgeOverlaps, openDialogBox } from './testing/geometry';
import { ROOT } from './testing/paths';
import { pressPopoverButton } from './testing/popover';
import { waitFor } from './testing/process-guard';
import { launchChromium } from './testing/session';

const env = useContentEnv(launchChromium, 100);
const SHOTS = path.join(ROOT, 'test-results', 'screenshots');

const MARKED = ['plain', 'two', 'chip-a', 'chip-b', 'chip-c', 'typo', 'cell-1', 'cell-2'];
const CORNERS = ['corner-tl', 'corner-tr', 'corner-bl', 'corner-br'];

async function open(hash = '') {
  await env.page.setViewport({ width: 900, height: 640 });
  await env.page.goto(`${env.fixtures.origin}/marks.html${hash}`, { waitUntil: 'load' });
  return finalStatuses(env.page, [...MARKED, ...CORNERS]);
}

async function clickBadgeOf(id: string) {
  const badge = await env.page.evaluateHandle((wanted) => {
    const target = document.getElementById(wanted);
    const next = target?.nextElementSibling;
    return next?.localName === 'verimark-badge' ? next : target?.querySelector('verimark-badge');
  }, id);
  const el = badge.asElement();
  if (!el) throw new Error(`no badge for ${id}`);
  await (el as import('puppeteer-core').ElementHandle<Element>).click();
}

describe('marks in Chromium', () => {
  it('marks plain text, chips, fields and links; never script or editable text', async () => {
    const statuses = await open();
    expect(statuses).toMatchObject({
      plain: 'deliverable',
      two: 'undeliverable',
      'chip-a': 'deliverable',
      'chip-b': 'undeliverable',
      'cell-1': 'deliverable',
      'cell-2': 'undeliverable',
      typo: 'undeliverable',
    });
    const unmarked = await env.page.evaluate(() => ({
      editor: document.querySelectorAll('#editor [data-verimark-status], #editor[data-verimark-status]')
        .length,
      script: document.querySelectorAll('script[data-verimark-status], head [data-verimark-status]').length,
    }));
    expect(unmarked).toEqual({ editor: 0, script: 0 });
  });

  it('no badge covers text or controls of the page it does not belong to', async () => {
    await open();
    expect(await badgeOverlaps(env.page)).toEqual([]);
  });

  it('opens the popover inside the viewport with its anchor at each edge, on top of everything', async () => {
    await open();
    const viewport = { width: 900, height: 640 };
    for (const id of CORNERS) {
      await clickBadgeOf(id);
      const { box } = await openDialogBox(env.page);
      expect(box.x, id).toBeGreaterThanOrEqual(0);
      expect(box.y, id).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, id).toBeLessThanOrEqual(viewport.width);
      expect(box.y + box.height, id).toBeLessThanOrEqual(viewport.height);
      const hit = await env.page.evaluate(
        (x, y) => document.elementFromPoint(x, y)?.localName ?? null,
        box.x + box.width / 2,
        box.y + box.height / 2,
      );
      expect(hit, id).toBe('verimark-overlay');
      await env.page.keyboard.press('Escape');
      await waitFor(
        async () => !(await env.page.$('::-p-aria([role="dialog"])')),
        5_000,
        'the popover to close',
      );
      // Focus went back to the badge.
      expect(await env.page.evaluate(() => document.activeElement?.localName)).toBe('verimark-badge');
    }
  });

  it('says the verdict in words; Replace puts the suggestion in the field and Undo takes it back', async () => {
    await open();
    await clickBadgeOf('typo');
    const { dialog } = await openDialogBox(env.page);
    const text = await dialog.evaluate((el) => el.textContent ?? '');
    expect(text).toContain('Undeliverable');
    expect(text).toContain('Did you mean alice@gmail.com?');
    expect(text).not.toMatch(/invalid_domain|invalid domain/);
    mkdirSync(SHOTS, { recursive: true });
    await env.page.screenshot({ path: path.join(SHOTS, 'marks-popover-light.png') });
    await pressPopoverButton(env.page, 'Replace');
    expect(await env.page.$eval('#typo', (el) => (el as HTMLInputElement).value)).toBe('alice@gmail.com');
    await pressPopoverButton(env.page, 'Undo');
    expect(await env.page.$eval('#typo', (el) => (el as HTMLInputElement).value)).toBe('alice@gmial.com');
    await env.page.keyboard.press('Escape');
  });

  it('looks right in light and dark (screenshots)', async () => {
    mkdirSync(SHOTS, { recursive: true });
    await open();
    await env.page.screenshot({ path: path.join(SHOTS, 'marks-light.png') });
    await env.page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]);
    await open('?dark');
    await clickBadgeOf('plain');
    await openDialogBox(env.page);
    await env.page.screenshot({ path: path.join(SHOTS, 'marks-dark.png') });
    await env.page.keyboard.press('Escape');
    await env.page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
  });

  it('a mark pending when the background stops is asked again and ends with its verdict', async () => {
    await env.page.goto(`${env.fixtures.origin}/worker.html`, { waitUntil: 'load' });
    await waitFor(
      async () =>
        (await env.page.$eval('#slow', (a) => a.getAttribute('data-verimark-status'))) === 'pending',
      15_000,
      'the slow address to be pending',
    );
    const stop = env.session.stopServiceWorker;
    if (!stop) throw new Error('this browser cannot stop the worker');
    await stop();
    // The service's verdict for a server this slow (whatever it is), never `error`.
    const [status] = Object.values(await finalStatuses(env.page, ['slow'], 60_000));
    expect(['deliverable', 'risky', 'unknown']).toContain(status);
  });

  it('answers the popup: the addresses of the page with their status, and "Verify all on this page" (past the tab\'s cap)', async () => {
    const options = await env.session.openExtensionPage('options.html');
    await sendFromExtensionPage(options, 'saveSettings', { autoVerifyBudget: 0 });
    // A fresh tab: the background caps what one tab may spend, and this one spent above.
    await env.page.close();
    env.page = await env.session.browser.newPage();
    await env.page.bringToFront();
    await env.page.goto(`${env.fixtures.origin}/budget.html`, { waitUntil: 'load' });
    const ask = (type: string) =>
      options.evaluate(
        async (message) => {
          const g = globalThis as unknown as {
            chrome: {
              tabs: {
                query(q: object): Promise<{ id?: number }[]>;
                sendMessage(id: number, m: unknown, o: object): Promise<{ res?: unknown; err?: unknown }>;
              };
            };
          };
          const [tab] = await g.chrome.tabs.query({ url: 'http://127.0.0.1/*' });
          return g.chrome.tabs.sendMessage(tab?.id ?? -1, message, { frameId: 0 });
        },
        { id: Math.floor(Math.random() * 1e6), type, timestamp: Date.now() },
      );
    const statuses = async () => {
      const reply = (await ask('pageAddresses')) as { res?: { status: string }[] };
      return (reply.res ?? []).map((a) => a.status).sort();
    };
    await waitFor(
      async () => (await statuses()).join() === 'unverified,unverified,unverified,unverified,unverified',
      20_000,
      'five addresses found, none asked (budget 0)',
    );
    // The tab has used up its cap (as on a large page): a page's own request is refused, and the
    // marks it could not verify stay unverified (click to verify), never error.
    const tabId = await options.evaluate(async () => {
      const g = globalThis as unknown as {
        chrome: {
          tabs: { query(q: object): Promise<{ id?: number }[]> };
          storage: { session: { set(items: object): Promise<void> } };
        };
      };
      const [tab] = await g.chrome.tabs.query({ url: 'http://127.0.0.1/*' });
      const id = tab?.id ?? -1;
      await g.chrome.storage.session.set({ contentSpends: { [id]: Array(500).fill(Date.now()) } });
      return id;
    });
    expect(await ask('verifyPage')).toEqual({ res: { asked: 5 } });
    let capped: string[] = [];
    await waitFor(
      async () => {
        capped = await statuses();
        return capped.join() === 'unverified,unverified,unverified,unverified,unverified';
      },
      20_000,
      'the five refused by the cap are unverified again, not error',
    ).catch((err: Error) => {
      throw new Error(`${err.message}: ${capped.join()}`);
    });
    // The popup's "Verify all": it grants exactly the page's addresses, then asks the page.
    const listed = ((await ask('pageAddresses')) as { res?: { email: string }[] }).res ?? [];
    expect(
      await sendFromExtensionPage(options, 'allowPageVerify', { tabId, emails: listed.map((a) => a.email) }),
    ).toEqual({ allowed: 5 });
    expect(await ask('verifyPage')).toEqual({ res: { asked: 5 } });
    let last: string[] = [];
    await waitFor(
      async () => {
        last = await statuses();
        return last.join() === 'risky,risky,risky,risky,risky';
      },
      30_000,
      'all five verified',
    ).catch((err: Error) => {
      throw new Error(`${err.message}: ${last.join()}`);
    });
    await options.evaluate(async () => {
      const g = globalThis as unknown as {
        chrome: { storage: { session: { remove(key: string): Promise<void> } } };
      };
      await g.chrome.storage.session.remove('contentSpends');
    });
    await sendFromExtensionPage(options, 'saveSettings', { autoVerifyBudget: 100 });
    await options.close();
  });

  it('marks recipients in real Gmail markup and in Outlook-like compose markup; the body never', async () => {
    // The Gmail capture loads avatars from Google: not waited for (no network here).
    await env.page.goto(`${env.fixtures.origin}/gmail-chip.html`, { waitUntil: 'domcontentloaded' });
    await waitFor(
      () =>
        env.page.evaluate(() =>
          document.querySelector('[data-hovercard-id]')?.hasAttribute('data-verimark-status'),
        ),
      20_000,
      'the Gmail chip to be marked',
    );
    expect(await env.page.$$eval('[data-verimark-status]', (els) => els.length)).toBe(1);
    await env.page.goto(`${env.fixtures.origin}/outlook-compose.html`, { waitUntil: 'load' });
    expect(await finalStatuses(env.page, ['owa-to-1', 'owa-to-2', 'owa-cc-1'])).toEqual({
      'owa-to-1': 'deliverable',
      'owa-to-2': 'undeliverable',
      'owa-cc-1': 'deliverable',
    });
    expect(
      await env.page.$$eval('[contenteditable="true"] [data-verimark-status]', (els) => els.length),
    ).toBe(3);
    expect(await env.page.$$eval('[aria-label="Message body"] verimark-badge', (els) => els.length)).toBe(0);
    expect(await badgeOverlaps(env.page)).toEqual([]);
  });
});
