/**
 * `npm run store:screenshots`: the store listing's images, made in real Chromium with the
 * extension (the build:test build: loopback host permissions, the UI of the store build) against
 * the real service on the test network (server/testing/fake-net.ts), into docs/store/screenshots/:
 * five at 1280×800 (marks on a CRM page, a popover, the popup's verdict, bulk files with counts,
 * the send guard) and the 440×280 promo tile. Look at every image after a change of the UI.
 */

import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'puppeteer-core';
import { startFakeNet } from '../server/testing/fake-net';
import { startService } from '../server/testing/service';
import { clickBadgeOf, enableSites, startFixtureServer } from '../test/e2e/testing/content-pages';
import { click, fill } from '../test/e2e/testing/dom';
import { openCompose, waitForDialog } from '../test/e2e/testing/guard-pages';
import {
  chooseCsv,
  openPopup,
  selectTab,
  waitForCompletedJob,
  waitForSelectorText,
} from '../test/e2e/testing/popup-page';
import { waitFor } from '../test/e2e/testing/process-guard';
import { uploadElsewhere } from '../test/e2e/testing/service-helpers';
import { type ExtensionSession, launchChromium } from '../test/e2e/testing/session';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PAGES = path.join(ROOT, 'scripts', 'store-screenshots');
const OUT = path.join(ROOT, 'docs', 'store', 'screenshots');
const SIZE = { width: 1280, height: 800 };

/** Serves the store pages (crm.html, tile.html) on 127.0.0.1. */
async function startPages(): Promise<{ origin: string; stop(): Promise<void> }> {
  const server = createServer((req, res) => {
    const name = path.basename(new URL(req.url ?? '/', 'http://x').pathname);
    if (!/^[a-z-]+\.html$/.test(name)) {
      res.writeHead(404).end();
      return;
    }
    readFile(path.join(PAGES, name)).then(
      (body) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body),
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function save(name: string, png: Uint8Array): Promise<void> {
  await writeFile(path.join(OUT, name), png);
  console.log(`docs/store/screenshots/${name}`);
}

/** A frame after the page settled (the marks' and popover's own transitions done). */
async function settle(page: Page): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 400));
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(null))));
}

/**
 * A page for the test helpers' page functions: tsx (esbuild's keepNames) wraps nested functions
 * in `__name(...)`, which the page does not have.
 */
async function newPage(session: ExtensionSession): Promise<Page> {
  const page = await session.browser.newPage();
  await page.evaluateOnNewDocument('globalThis.__name = (fn) => fn');
  await page.setViewport(SIZE);
  await page.bringToFront();
  return page;
}

/** The fixture compose (test/e2e/fixtures/content/guard-gmail.html) placed as in a webmail. */
const MAIL_STYLE = `
  body { background: #f6f8fc; }
  .store-inbox { position: fixed; inset: 16px 16px 0 16px; background: #fff; border-radius: 16px; padding: 8px 0; }
  .store-inbox h1 { font-size: 20px; font-weight: 500; margin: 12px 24px 16px; }
  .store-row { display: grid; grid-template-columns: 220px 1fr; gap: 16px; padding: 12px 24px; border-top: 1px solid #f1f3f4; color: #444; }
  .store-row b { color: #202124; }
  .nH.Hd { position: fixed; right: 32px; bottom: 0; margin: 0; width: 600px; border-radius: 8px 8px 0 0; z-index: 1; }
`;
const INBOX: [string, string][] = [
  ['Nora Diaz', 'Re: Quarterly report — numbers for Q3'],
  ['Alice Martin', 'Lunch next week?'],
  ['Billing', 'Your invoice for November'],
  ['Sam Park', 'Proposal draft v2'],
  ['Team calendar', 'Updated invitation: Weekly sync'],
  ['Lee Wong', 'Intro call follow-up'],
  ['Ivy Stone', 'Contract signed'],
  ['Pat Kim', 'Re: Shipping address'],
  ['Newsletter', 'What is new this month'],
  ['Tom Hale', 'Question about the demo'],
  ['Cat Lee', 'Re: Pricing'],
  ['Support', 'Your ticket was updated'],
];

const WEBINAR_CSV = [
  'Email,First name,Session',
  'bob@deliverable.test,Bob,Morning',
  'info@deliverable.test,Ivy,Morning',
  'rae@catch-all.test,Rae,Afternoon',
  'sam@rejecting.test,Sam,Afternoon',
  'support@deliverable.test,Sue,Evening',
  'alice@gmail.com,Alice,Evening',
].join('\n');

const dataUrl = (png: Uint8Array) => `data:image/png;base64,${Buffer.from(png).toString('base64')}`;

/** The popup (380×600) drawn where a browser shows it, under the toolbar's right end, over `background`. */
async function popupOver(page: Page, background: Uint8Array, popup: Uint8Array): Promise<Uint8Array> {
  await page.bringToFront();
  await page.setViewport(SIZE);
  await page.setContent(
    `<!doctype html><html><body style="margin:0;width:1280px;height:800px;overflow:hidden;position:relative">
      <img src="${dataUrl(background)}" style="position:absolute;inset:0;filter:brightness(.82) saturate(.9)">
      <img src="${dataUrl(popup)}" style="position:absolute;top:10px;right:24px;width:380px;height:600px;
        border-radius:8px;box-shadow:0 12px 40px #0006,0 0 0 1px #0002">
    </body></html>`,
    { waitUntil: 'load' },
  );
  return page.screenshot({ captureBeyondViewport: false });
}

async function main(): Promise<void> {
  await mkdir(OUT, { recursive: true });
  const net = await startFakeNet();
  const service = await startService({ fakeNet: net, env: { SMTP_TIMEOUT_MS: '5000' } });
  const pages = await startPages();
  const fixtures = await startFixtureServer();
  const session = await launchChromium();
  try {
    await enableSites(session, {
      serviceUrl: service.baseUrl,
      apiKey: service.apiKey,
      enabledSites: ['127.0.0.1'],
      autoVerifyBudget: 100,
    });

    // 1. Marks on a CRM page.
    const crm = await newPage(session);
    await crm.goto(`${pages.origin}/crm.html`, { waitUntil: 'load' });
    await waitFor(
      async () => {
        const all = await crm.$$eval('a[href^="mailto:"], #edit-email', (els) =>
          els.map((el) => el.getAttribute('data-verimark-status')),
        );
        return all.every((s) => s && s !== 'pending' && s !== 'unverified') || undefined;
      },
      60_000,
      'every address on the CRM page to show a verdict',
    );
    await settle(crm);
    const marks = await crm.screenshot({ captureBeyondViewport: false });
    await save('1-marks-crm.png', marks);

    // 2. The popover of the typo in the form: its verdict, its reason, the did-you-mean.
    await clickBadgeOf(crm, '#edit-email');
    await waitFor(
      () => crm.evaluate(() => document.activeElement?.localName === 'verimark-overlay'),
      10_000,
      'the popover',
    );
    await settle(crm);
    await save('2-popover.png', await crm.screenshot({ captureBeyondViewport: false }));
    await crm.keyboard.press('Escape');

    // 3. The popup's verdict.
    const popup = await openPopup(session);
    // An address not on the page: a fresh verdict, not one from the cache.
    await fill(popup, 'Email address', 'alice@gmail.com');
    await click(popup, 'Verify');
    await waitFor(
      () =>
        popup.evaluate(() => document.querySelector('[data-testid=verdict]')?.getAttribute('data-status')),
      45_000,
      'a verdict',
    );
    await settle(popup);
    const verdict = await popup.screenshot({ captureBeyondViewport: false });

    // 4. Bulk: a file uploaded, verified and listed with its counts, under one uploaded earlier
    // from elsewhere (the service's API).
    await uploadElsewhere(service, 'webinar-signups.csv', WEBINAR_CSV);
    await selectTab(popup, 'CSV upload');
    await chooseCsv(popup, path.join(PAGES, 'leads.csv'));
    await waitForSelectorText(popup, '[data-testid=credits]', /takes: 10 /);
    await click(popup, 'Upload');
    await waitForCompletedJob(popup);
    await selectTab(popup, 'Files');
    await waitFor(
      () =>
        popup.evaluate(
          () =>
            document.querySelectorAll('[data-testid=file-row][data-state=completed]').length === 2 ||
            undefined,
        ),
      90_000,
      'both files completed',
    );
    await settle(popup);
    const files = await popup.screenshot({ captureBeyondViewport: false });

    const frame = await session.browser.newPage();
    await save('3-popup-verdict.png', await popupOver(frame, marks, verdict));
    await save('4-bulk-files.png', await popupOver(frame, marks, files));

    // 5. The send guard holding a send to an undeliverable recipient.
    const mail = await newPage(session);
    await openCompose(mail, fixtures.origin, 'gmail', {
      to: ['alice@deliverable.test', 'nora@rejecting.test'],
    });
    // Drawn as a webmail draws it: the inbox behind, the compose window at the bottom right.
    await mail.addStyleTag({ content: MAIL_STYLE });
    await mail.evaluate((rows) => {
      const inbox = document.createElement('div');
      inbox.className = 'store-inbox';
      const title = document.createElement('h1');
      title.textContent = 'Inbox';
      inbox.append(title);
      for (const [from, subject] of rows) {
        const row = document.createElement('div');
        row.className = 'store-row';
        const who = document.createElement('b');
        who.textContent = from;
        const what = document.createElement('span');
        what.textContent = subject;
        row.append(who, what);
        inbox.append(row);
      }
      document.body.prepend(inbox);
    }, INBOX);
    await mail.click('#send');
    await waitForDialog(mail, /nora@rejecting\.test/);
    await settle(mail);
    await save('5-send-guard.png', await mail.screenshot({ captureBeyondViewport: false }));

    // The promo tile.
    const icon = await readFile(path.join(ROOT, 'public', 'icon', '128.png'));
    const tile = (await readFile(path.join(PAGES, 'tile.html'), 'utf8')).replace('ICON', dataUrl(icon));
    await frame.bringToFront();
    await frame.setViewport({ width: 440, height: 280 });
    await frame.setContent(tile, { waitUntil: 'load' });
    await save('promo-tile-440x280.png', await frame.screenshot({ captureBeyondViewport: false }));
  } finally {
    await session.close();
    await fixtures.stop();
    await pages.stop();
    await service.stop();
    await net.stop();
  }
}

await main();
