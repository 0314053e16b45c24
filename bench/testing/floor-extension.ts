/**
 * The floor of the content benchmark: the least any extension can do to mark the CRM page's
 * targets. A minimal MV3 extension whose one content script (static, `document_idle`, the same
 * run time as Verimark's) runs the benchmark's bare pass in its isolated world, and marks rows
 * the page adds the same way from a MutationObserver. No messaging, no addresses read, no fits,
 * no labels: what is left is the platform's own cost of being an extension (injecting the script,
 * an isolated world, its DOM wrappers). Verimark's figures are printed against it as well as
 * against the bare page script (bench/content-chromium.ts).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { chromiumArgs } from '../../test/e2e/testing/chromium';
import { browserExecutable } from '../../test/e2e/testing/paths';
import { guardBrowser } from '../../test/e2e/testing/process-guard';

/** The bare pass's mark: a small box after each target (also written by the page itself, crm-page.ts). */
export const BARE_MARK_STYLE = 'display:inline-block;width:14px;height:14px;margin:0 3px;background:#2f7fd6';

/**
 * The bare pass, as script text: `markAll(root)` marks every mailto: target under `root` with the
 * status attribute and a small element after it. The benchmark's page-script pass and the floor
 * run this same text, so the two do the same work.
 */
export const BARE_PASS = `
const MAILTO = 'a[href^="mailto:" i]';
const markOne = (a) => {
  a.setAttribute('data-verimark-status', 'unverified');
  const mark = document.createElement('verimark-bare');
  mark.style.cssText = '${BARE_MARK_STYLE}';
  a.after(mark);
};
const markAll = (root) => { for (const a of root.querySelectorAll(MAILTO)) markOne(a); };
`;

/** The bare pass on the page, then on the rows the page adds. */
const FLOOR_SCRIPT = `${BARE_PASS}
markAll(document);
new MutationObserver((records) => {
  for (const record of records)
    for (const node of record.addedNodes) {
      if (node.nodeType !== 1 || node.localName === 'verimark-bare') continue;
      if (node.matches(MAILTO)) markOne(node);
      markAll(node);
    }
}).observe(document.body, { childList: true, subtree: true });
`;

/**
 * A content script that does nothing: injected at the same moment, it shows what the page itself
 * still does after that moment (the rest of its own load), which the benchmark subtracts.
 */
export const EMPTY_SCRIPT = 'void 0;';

export interface FloorBrowser {
  browser: Browser;
  close(): Promise<void>;
}

/**
 * Chromium with only the floor extension, which runs on http://127.0.0.1 pages (not localhost);
 * `script` replaces the floor's content script (EMPTY_SCRIPT: the same extension doing nothing).
 */
export async function launchFloor(script = FLOOR_SCRIPT): Promise<FloorBrowser> {
  const dir = await mkdtemp(path.join(tmpdir(), 'verimark-floor-'));
  const extension = path.join(dir, 'extension');
  await mkdir(extension);
  await writeFile(
    path.join(extension, 'manifest.json'),
    JSON.stringify({
      manifest_version: 3,
      name: 'Verimark benchmark floor',
      version: '1.0.0',
      content_scripts: [{ matches: ['http://127.0.0.1/*'], js: ['floor.js'], run_at: 'document_idle' }],
    }),
  );
  await writeFile(path.join(extension, 'floor.js'), script);
  let browser: Browser;
  try {
    browser = await puppeteer.launch({
      executablePath: browserExecutable('chromium'),
      headless: true,
      userDataDir: path.join(dir, 'profile'),
      enableExtensions: true,
      defaultViewport: { width: 1200, height: 900 },
      args: chromiumArgs(extension),
      timeout: 60_000,
      protocolTimeout: 60_000,
    });
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  return { browser, close: guardBrowser(browser, [dir]) };
}
