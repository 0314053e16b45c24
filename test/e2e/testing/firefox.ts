/** Firefox (ESR) over WebDriver BiDi with the build:test extension installed (docs/design.md §6). */
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { extensionSession } from './extension-session';
import { browserExecutable, extensionDir, readBuiltManifest } from './paths';
import { guardBrowser, waitFor } from './process-guard';
import type { ExtensionSession } from './session';

export interface FirefoxOptions {
  /** A profile kept between launches; default: a fresh temporary profile, removed on close. */
  profileDir?: string;
  /** Where downloads land; default: `downloads` beside the profile. */
  downloadDir?: string;
}

/** Fixed, so moz-extension:// URLs are known before the extension is installed. */
const FIREFOX_EXTENSION_UUID = '3c6e0b8a-9f4d-4e2a-8b7c-5d1f0a2e9c47';

function geckoId(): string {
  const manifest = readBuiltManifest('firefox') as {
    browser_specific_settings?: { gecko?: { id?: string } };
  };
  const id = manifest.browser_specific_settings?.gecko?.id;
  if (!id) throw new Error('The Firefox build has no browser_specific_settings.gecko.id');
  return id;
}

/**
 * Opens an extension page. Firefox never reports the end of a navigation to a moz-extension://
 * page over BiDi (puppeteer issue #14314), so the navigation is not awaited; the page is polled.
 */
async function openPage(page: Page, url: string): Promise<Page> {
  page.goto(url, { timeout: 30_000 }).catch(() => undefined);
  await waitFor(
    () => page.evaluate((want) => location.href === want && document.readyState === 'complete', url),
    30_000,
    `${url} to load`,
  );
  return page;
}

/**
 * A tab to open a page in. After a restart on a profile the extension has used (the restart
 * test), Firefox 140 ESR answers every BiDi browsingContext.create with "lazy.TabManager
 * .getTabBrowser(...) is undefined" although its windows hold blank tabs: one of those tabs is
 * used instead (each one handed out once). Any other error is thrown at once.
 */
async function newTab(browser: Browser, handedOut: WeakSet<Page>): Promise<Page> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      const page = await browser.newPage();
      handedOut.add(page);
      return page;
    } catch (err) {
      if (!/getTabBrowser|selectedTab/.test(String(err)) || Date.now() > deadline) throw err;
      const blank = (await browser.pages()).find((p) => p.url() === 'about:blank' && !handedOut.has(p));
      if (blank) {
        handedOut.add(blank);
        return blank;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/**
 * Waits for the options page the extension opens on install (`runtime.onInstalled`). Firefox loads
 * it into the selected tab when that tab is blank, so a test tab opened before it arrives could
 * have its page replaced under it (stale element handles: "Cannot focus non-HTMLElement"). Puppeteer's
 * `Page.url()` is not updated for that load, so each tab is asked. Bounded: a launch on which no
 * options page comes goes on after `ms`.
 */
async function settleInstallTab(browser: Browser, optionsUrl: string, ms = 15_000): Promise<void> {
  await waitFor(
    async () => {
      const tabs = await browser.pages();
      const loaded = await Promise.all(
        tabs.map((tab) =>
          tab
            .evaluate((want) => location.href === want && document.readyState === 'complete', optionsUrl)
            .catch(() => false),
        ),
      );
      return loaded.includes(true) || undefined;
    },
    ms,
    'the options page the install opens',
  ).catch(() => undefined);
}

export async function launchFirefoxSession(opts: FirefoxOptions = {}): Promise<ExtensionSession> {
  const extension = extensionDir('firefox');
  const id = geckoId();
  const temp = opts.profileDir ? undefined : await mkdtemp(path.join(tmpdir(), 'verimark-firefox-'));
  const profileDir = path.resolve(opts.profileDir ?? path.join(temp as string, 'profile'));
  const downloadDir = path.resolve(opts.downloadDir ?? path.join(temp ?? profileDir, 'downloads'));
  await mkdir(profileDir, { recursive: true });
  await mkdir(downloadDir, { recursive: true });

  const browser = await puppeteer.launch({
    browser: 'firefox',
    protocol: 'webDriverBiDi',
    executablePath: browserExecutable('firefox'),
    headless: true,
    userDataDir: profileDir,
    args: ['--remote-allow-system-access'],
    extraPrefsFirefox: {
      'extensions.webextensions.uuids': JSON.stringify({ [id]: FIREFOX_EXTENSION_UUID }),
      // A restart on the same profile re-installs the temporary add-on: keep its id and data.
      'extensions.webextensions.keepUuidOnUninstall': true,
      'extensions.webextensions.keepStorageOnUninstall': true,
      // Nor restore or offer the previous session (a second start must open a plain window).
      'browser.sessionstore.resume_from_crash': false,
      'browser.sessionstore.max_resumed_crashes': -1,
      'toolkit.startup.max_resumed_crashes': -1,
      'browser.startup.page': 0,
      'browser.download.folderList': 2,
      'browser.download.dir': downloadDir,
      'browser.download.useDownloadDir': true,
      'browser.download.always_ask_before_handling_new_types': false,
      'browser.download.start_downloads_in_tmp_dir': false,
      'browser.helperApps.neverAsk.saveToDisk': 'text/csv,application/csv,application/octet-stream',
    },
    timeout: 60_000,
    protocolTimeout: 60_000,
  });
  const close = guardBrowser(browser, temp ? [temp] : []);
  try {
    await browser.installExtension(extension);
    const extensionBaseUrl = `moz-extension://${FIREFOX_EXTENSION_UUID}/`;
    await settleInstallTab(browser, `${extensionBaseUrl}options.html`);
    const handedOut = new WeakSet<Page>();
    return extensionSession({
      browserName: 'firefox',
      browser,
      extensionBaseUrl,
      downloadDir,
      open: async (url) => openPage(await newTab(browser, handedOut), url),
      close,
    });
  } catch (err) {
    await close();
    throw err;
  }
}
