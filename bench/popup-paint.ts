/**
 * The popup's first contentful paint against a blank extension page of the same build, in real
 * Chromium (headless, the e2e flags), and the popup's size over the wire (gzip).
 *
 *   npx tsx bench/popup-paint.ts        (uses .output/chrome-mv3-test; builds it when missing)
 *
 * The build is copied to a temporary folder with one extra page, blank.html: the same head (one
 * line of text, the popup's colour scheme), no script. Both pages are opened RUNS times each,
 * alternating, in fresh tabs; the median FCP of each is printed with their ratio (goal ≤ 1.3×).
 * Size: popup.html with every script, module preload and stylesheet it loads, each gzipped
 * (goal ≤ 35 KB). The CSV preflight worker is loaded only when a file is chosen: printed apart.
 * popup.html carries the header as the app first renders it, so the first paint does not wait for
 * the app (the app takes the header over on the next frame); FCP measures that paint.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import puppeteer from 'puppeteer-core';
import { chromiumArgs, unpackedExtensionId } from '../test/e2e/testing/chromium';
import { browserExecutable, extensionDir, ROOT } from '../test/e2e/testing/paths';

const RUNS = 25;
/** Resolves with the page's first-contentful-paint time, waiting for it when it has not happened yet. */
const FCP_SCRIPT = `new Promise((resolve) => {
  const read = () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime;
  if (read() !== undefined) return resolve(read());
  new PerformanceObserver(() => { if (read() !== undefined) resolve(read()); }).observe({ type: 'paint', buffered: true });
})`;
const FCP_GOAL = 1.3;
const GZIP_GOAL = 35 * 1024;

function ensureBuild(): string {
  const dir = extensionDir('chromium');
  if (!existsSync(path.join(dir, 'manifest.json'))) {
    console.log('No build found: building the extension for Chromium (test build)…');
    execFileSync('npx', ['wxt', 'build'], {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, VERIMARK_TEST_BUILD: '1' },
    });
  }
  return dir;
}

/** gzip sizes of popup.html and everything its head loads (scripts, module preloads, stylesheets). */
function popupSizes(dir: string): { files: [string, number][]; total: number; worker: number } {
  const html = readFileSync(path.join(dir, 'popup.html'), 'utf8');
  const refs = [...html.matchAll(/(?:src|href)="\/([^"]+\.(?:js|css))"/g)].map((m) => m[1] ?? '');
  const files: [string, number][] = [['popup.html', gzipSync(html).length]];
  for (const ref of refs) files.push([ref, gzipSync(readFileSync(path.join(dir, ref))).length]);
  const assets = existsSync(path.join(dir, 'assets')) ? readdirSync(path.join(dir, 'assets')) : [];
  const worker = assets
    .filter((f) => f.startsWith('preflight.worker'))
    .reduce((sum, f) => sum + gzipSync(readFileSync(path.join(dir, 'assets', f))).length, 0);
  return { files, total: files.reduce((sum, [, size]) => sum + size, 0), worker };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function main(): Promise<void> {
  const built = ensureBuild();
  const temp = mkdtempSync(path.join(tmpdir(), 'verimark-bench-'));
  const dir = path.join(temp, 'extension');
  cpSync(built, dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'blank.html'),
    '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><meta name="color-scheme" content="light dark">' +
      '<title>Verimark</title></head><body><p>Verimark</p></body></html>\n',
  );
  const browser = await puppeteer.launch({
    executablePath: browserExecutable('chromium'),
    headless: true,
    userDataDir: path.join(temp, 'profile'),
    args: chromiumArgs(dir),
  });
  try {
    const base = `chrome-extension://${unpackedExtensionId(dir)}/`;
    const fcp = async (page: string): Promise<number> => {
      const tab = await browser.newPage();
      await tab.setViewport({ width: 380, height: 600 });
      await tab.goto(base + page, { waitUntil: 'load' });
      // A string, not a function: under tsx, named inner functions would need a helper the page lacks.
      const value = (await tab.evaluate(FCP_SCRIPT)) as number;
      await tab.close();
      return value;
    };
    // Warm-up: the first load of each page also compiles and caches.
    await fcp('blank.html');
    await fcp('popup.html');
    const blank: number[] = [];
    const popup: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      blank.push(await fcp('blank.html'));
      popup.push(await fcp('popup.html'));
    }
    const ratio = median(popup) / median(blank);
    const best = Math.min(...popup) / Math.min(...blank);
    console.log(`blank extension page FCP: median ${median(blank).toFixed(1)} ms (${RUNS} runs)`);
    console.log(`popup FCP:                median ${median(popup).toFixed(1)} ms (${RUNS} runs)`);
    console.log(
      `popup FCP / blank page FCP: ${ratio.toFixed(2)}× (goal ≤ ${FCP_GOAL}×) ${ratio <= FCP_GOAL ? 'OK' : 'OVER'}`,
    );
    // Fastest against fastest: less moved by other work on a shared machine.
    console.log(
      `  fastest popup / fastest blank: ${best.toFixed(2)}× (${Math.min(...popup).toFixed(1)} / ${Math.min(...blank).toFixed(1)} ms)`,
    );
  } finally {
    await browser.close();
    rmSync(temp, { recursive: true, force: true });
  }

  const sizes = popupSizes(built);
  for (const [file, size] of sizes.files) console.log(`  ${file}: ${(size / 1024).toFixed(1)} KB gzip`);
  console.log(
    `popup gzip size: ${(sizes.total / 1024).toFixed(1)} KB (goal ≤ ${GZIP_GOAL / 1024} KB) ${sizes.total <= GZIP_GOAL ? 'OK' : 'OVER'}`,
  );
  console.log(
    `  (CSV preflight worker, loaded when a file is chosen: ${(sizes.worker / 1024).toFixed(1)} KB gzip)`,
  );
}

await main();
