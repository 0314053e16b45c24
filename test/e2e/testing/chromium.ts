/** Chromium with the build:test extension loaded from disk (docs/design.md §6). */
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { extensionSession } from './extension-session';
import { browserExecutable, extensionDir, readBuiltManifest } from './paths';
import { guardBrowser, waitFor } from './process-guard';
import type { ExtensionSession } from './session';

export interface ChromiumOptions {
  /** A profile kept between launches; default: a fresh temporary profile, removed on close. */
  userDataDir?: string;
  /** Where downloads land; default: `downloads` beside the profile. */
  downloadDir?: string;
  /** Default true; `npm start` launches headful. */
  headless?: boolean;
  /**
   * Default true: puppeteer closes the browser and exits on SIGINT/SIGTERM/SIGHUP. `npm start`
   * handles the signals itself (it must stop the service too).
   */
  handleSignals?: boolean;
  /**
   * The browser's UI language (e.g. "de"): `--lang` and `LANGUAGE` in its environment, which with
   * Debian's chromium-l10n make chrome.i18n answer in that language. Default: the system's.
   */
  lang?: string;
}

/** Chromium's command line for a run with only the unpacked extension in `dir` (tests and benches). */
export function chromiumArgs(dir: string): string[] {
  return [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    `--load-extension=${dir}`,
    `--disable-extensions-except=${dir}`,
  ];
}

/**
 * Presets the download folder in the profile, as a user's settings would, so downloads never
 * prompt. Not through CDP `Browser.setDownloadBehavior`: under it Chromium names files from the
 * response (Content-Disposition) and ignores the `filename` of chrome.downloads.download.
 */
async function presetDownloads(userDataDir: string, downloadDir: string): Promise<void> {
  const file = path.join(userDataDir, 'Default', 'Preferences');
  await mkdir(path.dirname(file), { recursive: true });
  let prefs: Record<string, unknown> = {};
  try {
    prefs = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  } catch {
    // A fresh profile.
  }
  prefs.download = { default_directory: downloadDir, prompt_for_download: false, directory_upgrade: true };
  await writeFile(file, JSON.stringify(prefs));
}

function serviceWorkerOf(browser: Browser, base: string) {
  return browser.targets().find((t) => t.type() === 'service_worker' && t.url().startsWith(base));
}

/**
 * Stops the extension's service worker as Chromium does when it is idle. A worker that is still
 * starting ignores the first request, so it is asked again until its target is gone.
 */
async function stopWorker(browser: Browser, base: string): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const target = serviceWorkerOf(browser, base);
    if (!target) return;
    if (attempt < 3) {
      await (await target.worker())?.close().catch(() => undefined);
    } else {
      const page = await browser.newPage();
      const cdp = await page.createCDPSession();
      await cdp.send('ServiceWorker.enable');
      await cdp.send('ServiceWorker.stopAllWorkers');
      await page.close();
    }
    const gone = await waitFor(() => !serviceWorkerOf(browser, base), 3_000, 'stop').catch(() => false);
    if (gone) return;
  }
  throw new Error('The extension service worker did not stop');
}

/** Chromium's id of an unpacked extension: SHA-256 of its real path, first 32 hex digits mapped to a–p. */
export function unpackedExtensionId(dir: string): string {
  const hex = createHash('sha256')
    .update(realpathSync(path.resolve(dir)))
    .digest('hex')
    .slice(0, 32);
  return Array.from(hex, (digit) => String.fromCharCode(97 + Number.parseInt(digit, 16))).join('');
}

/**
 * The extension's base URL, from its service worker's target; when the worker does not start
 * (it may not on a kept profile), from the id Chromium derives from the path, once its manifest
 * can be opened.
 */
async function findExtension(browser: Browser, dir: string): Promise<string> {
  const worker = await browser
    .waitForTarget((t) => t.type() === 'service_worker' && t.url().startsWith('chrome-extension://'), {
      timeout: 20_000,
    })
    .catch(() => null);
  if (worker) return worker.url().replace(/^(chrome-extension:\/\/[^/]+\/).*$/, '$1');
  const base = `chrome-extension://${unpackedExtensionId(dir)}/`;
  const page = await browser.newPage();
  try {
    const response = await page.goto(`${base}manifest.json`, { timeout: 15_000 });
    if (!response?.ok()) throw new Error(`status ${response?.status()}`);
    return base;
  } catch (err) {
    throw new Error(
      `The extension did not load in Chromium (${base}): ${err instanceof Error ? err.message : err}`,
    );
  } finally {
    await page.close().catch(() => undefined);
  }
}

export async function launchChromiumSession(opts: ChromiumOptions = {}): Promise<ExtensionSession> {
  const extension = extensionDir('chromium');
  readBuiltManifest('chromium');
  const temp = opts.userDataDir ? undefined : await mkdtemp(path.join(tmpdir(), 'verimark-chromium-'));
  const userDataDir = path.resolve(opts.userDataDir ?? path.join(temp as string, 'profile'));
  const downloadDir = path.resolve(opts.downloadDir ?? path.join(temp ?? userDataDir, 'downloads'));
  await mkdir(downloadDir, { recursive: true });
  await presetDownloads(userDataDir, downloadDir);

  const headless = opts.headless ?? true;
  const browser = await puppeteer.launch({
    executablePath: browserExecutable('chromium'),
    headless,
    userDataDir,
    enableExtensions: true,
    defaultViewport: headless ? { width: 1200, height: 900 } : null,
    args: [...chromiumArgs(extension), ...(opts.lang ? [`--lang=${opts.lang}`] : [])],
    ...(opts.lang ? { env: { ...process.env, LANGUAGE: opts.lang } } : {}),
    timeout: 60_000,
    protocolTimeout: 60_000,
    handleSIGINT: opts.handleSignals ?? true,
    handleSIGTERM: opts.handleSignals ?? true,
    handleSIGHUP: opts.handleSignals ?? true,
  });
  const close = guardBrowser(browser, temp ? [temp] : []);
  try {
    const extensionBaseUrl = await findExtension(browser, extension);

    return extensionSession({
      browserName: 'chromium',
      browser,
      extensionBaseUrl,
      downloadDir,
      async open(url: string): Promise<Page> {
        const page = await browser.newPage();
        await page.goto(url, { waitUntil: 'load', timeout: 30_000 });
        return page;
      },
      stopServiceWorker: () => stopWorker(browser, extensionBaseUrl),
      close,
    });
  } catch (err) {
    await close();
    throw err;
  }
}
