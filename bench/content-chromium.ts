/**
 * The marking script in real Chromium (the build:test extension), on a CRM-like page of ~20,000
 * elements with 1,000 targets (mailto links), budget 0 (every target ends `unverified`: no service
 * needed, and the measure is the script's own work). Main-thread time comes from the renderer's
 * own counter (CDP Performance.getMetrics TaskDuration). Three figures:
 *
 * 1. time added by the extension until every target is marked (same page with marking on, minus
 *    marking off), as a ratio to a bare querySelectorAll pass that marks the same targets
 *    (attribute + a small element after each) including the style and layout it causes; goal ≤ 1.3×;
 * 2. long tasks over 50 ms after the page's load with marking on, minus with it off; goal 0;
 * 3. main-thread time added while the page appends 50 rows every 100 ms for 5 s; goal ≤ 5 %.
 * It prints first the gzip size of the content script it loads (goal ≤ 16 KB, bench/testing/script-size.ts).
 *
 * Every figure is also taken for the floor (bench/testing/floor-extension.ts): a minimal extension
 * whose content script does nothing but the bare pass. What it adds over the bare page script is
 * the platform's price of any extension (injection, an isolated world); Verimark's figures are
 * printed over the floor too, which is what its own design adds. `BENCH_ONLY=load|churn` runs one
 * half; `BENCH_RUNS` and `BENCH_CHURN_RUNS` set the runs (default 5 and 3).
 *
 *   npm run bench -- content-chromium     (builds the test extension first when it is missing)
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { CDPSession, Page } from 'puppeteer-core';
import { extensionDir } from '../test/e2e/testing/paths';
import { ROWS, startCrmBench } from './testing/crm-page';
import { BARE_PASS, type FloorBrowser, launchFloor } from './testing/floor-extension';
import { printScriptSizes } from './testing/script-size';

/** Page loads per figure: each "added" figure is the difference of two loads, so it is noisy. */
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const WINDOW_MS = 4_000;

async function taskMs(cdp: CDPSession): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return (metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0) * 1000;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function fresh(open: () => Promise<Page>): Promise<{ page: Page; cdp: CDPSession }> {
  const p = await open();
  await p.bringToFront();
  const cdp = await p.createCDPSession();
  await cdp.send('Performance.enable');
  return { page: p, cdp };
}

/**
 * Loads the page and watches it for WINDOW_MS, polling the same way with marking on or off (so
 * the polls cost the same in both); with marking on, every target must be marked by then.
 */
async function load(p: Page, url: string, marked: boolean): Promise<void> {
  await p.goto(url, { waitUntil: 'load' });
  const started = Date.now();
  let done = false;
  while (Date.now() - started < WINDOW_MS) {
    const count = await p.evaluate(
      () => document.querySelectorAll('a.t[data-verimark-status="unverified"]').length,
    );
    done ||= count >= ROWS;
    await sleep(100);
  }
  if (marked && !done) throw new Error(`targets not all marked within ${WINDOW_MS} ms`);
}

/** Long tasks after the page's load event, as its recorder saw them. */
function longTasksAfterLoad(p: Page): Promise<number> {
  return p.evaluate(
    () =>
      (window as unknown as { __long: [number, number][] }).__long.filter(
        ([start]) => start > performance.timing.loadEventEnd - performance.timing.navigationStart,
      ).length,
  );
}

/** One page load watched for WINDOW_MS: main-thread time, and long tasks after load. */
async function loadOnce(open: () => Promise<Page>, url: string, marked: boolean) {
  const a = await fresh(open);
  const t0 = await taskMs(a.cdp);
  await load(a.page, url, marked);
  const ms = (await taskMs(a.cdp)) - t0;
  const long = await longTasksAfterLoad(a.page);
  return { ms, long, page: a.page, cdp: a.cdp };
}

/**
 * The bare pass on an unmarked page: querySelectorAll, mark, a small element after each, then the
 * style and layout it causes (a frame), minus an idle stretch of the same length.
 */
async function barePass(p: Page, cdp: CDPSession): Promise<number> {
  const idle0 = await taskMs(cdp);
  await sleep(500);
  const idle = (await taskMs(cdp)) - idle0;
  const c0 = await taskMs(cdp);
  // In a block of its own: its consts stay out of the page's global scope.
  await p.evaluate(`{${BARE_PASS} markAll(document); }`);
  await sleep(500);
  return (await taskMs(cdp)) - c0 - idle;
}

/** Main-thread time while the page appends 50 rows every 100 ms for 5 s (after it was marked). */
async function churnOnce(open: () => Promise<Page>, url: string, marked: boolean): Promise<number> {
  const c = await fresh(open);
  await load(c.page, url, marked);
  const t0 = await taskMs(c.cdp);
  await c.page.evaluate(() => (window as unknown as { __churn(): Promise<void> }).__churn());
  await sleep(500);
  const spent = (await taskMs(c.cdp)) - t0;
  await c.page.close();
  return spent;
}

async function main(): Promise<void> {
  if (!existsSync(extensionDir('chromium'))) {
    const built = spawnSync('npx', ['wxt', 'build'], {
      stdio: 'inherit',
      env: { ...process.env, VERIMARK_TEST_BUILD: '1' },
    });
    if (built.status !== 0) throw new Error('build:test failed');
  }
  printScriptSizes(extensionDir('chromium'));
  const bench = await startCrmBench();
  const { on, off, session } = bench;
  let floor: FloorBrowser | null = null;
  try {
    floor = await launchFloor();
    const floorBrowser = floor.browser;
    const open = () => session.browser.newPage();
    const openFloor = () => floorBrowser.newPage();
    const only = process.env.BENCH_ONLY;
    const added: number[] = [];
    const floorAdded: number[] = [];
    const bare: number[] = [];
    const long = { ext: 0, base: 0, floor: 0, floorBase: 0 };
    // Runs alternate between the two browsers, so both see the same machine.
    for (let run = 0; run < (only === 'churn' ? 0 : RUNS); run++) {
      const withExt = await loadOnce(open, on, true);
      long.ext += withExt.long;
      await withExt.page.close();
      const without = await loadOnce(open, off, false);
      long.base += without.long;
      added.push(withExt.ms - without.ms);
      bare.push(await barePass(without.page, without.cdp));
      await without.page.close();
      const withFloor = await loadOnce(openFloor, on, true);
      long.floor += withFloor.long;
      await withFloor.page.close();
      const withoutFloor = await loadOnce(openFloor, off, false);
      long.floorBase += withoutFloor.long;
      await withoutFloor.page.close();
      floorAdded.push(withFloor.ms - withoutFloor.ms);
    }
    const runs = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');
    if (only !== 'churn') {
      const ext = median(added);
      const base = median(bare);
      const least = median(floorAdded);
      console.log(
        `bare querySelectorAll pass marking 1,000 targets: ${base.toFixed(1)} ms (median of ${RUNS})`,
      );
      console.log(
        `floor, an extension doing only that pass:        ${least.toFixed(1)} ms added main-thread time`,
      );
      console.log(
        `extension until all 1,000 marked:                ${ext.toFixed(1)} ms added main-thread time`,
      );
      console.log(
        `  per run: extension ${runs(added)} ms; floor ${runs(floorAdded)} ms; bare ${runs(bare)} ms`,
      );
      console.log(`ratio (goal ≤ 1.3×):                             ${(ext / base).toFixed(2)}×`);
      console.log(
        `  the floor's ratio ${(least / base).toFixed(2)}×; the extension over the floor ${(ext / least).toFixed(2)}×`,
      );
      console.log(
        `long tasks > 50 ms after load (goal 0):          ${Math.max(0, long.ext - long.base)} ` +
          `(with marking ${long.ext}, without ${long.base}, over ${RUNS} runs; the floor ${Math.max(0, long.floor - long.floorBase)})`,
      );
    }
    if (only === 'load') return;
    // Churn: 50 rows every 100 ms for 5 s, marking on vs off, and the floor's marking.
    const churnOn: number[] = [];
    const churnOff: number[] = [];
    const churnFloor: number[] = [];
    for (let run = 0; run < Number(process.env.BENCH_CHURN_RUNS ?? 3); run++) {
      churnOn.push(await churnOnce(open, on, true));
      churnOff.push(await churnOnce(open, off, false));
      churnFloor.push(await churnOnce(openFloor, on, true));
    }
    const cOn = median(churnOn);
    const cOff = median(churnOff);
    const cFloor = median(churnFloor);
    const pct = (x: number) => `${x >= 0 ? '+' : ''}${((x / cOff) * 100).toFixed(1)} %`;
    console.log(
      `  per run: churn without ${runs(churnOff)} ms; with ${runs(churnOn)} ms; floor ${runs(churnFloor)} ms`,
    );
    console.log(
      `churn (50 rows / 100 ms, 5 s): ${cOff.toFixed(0)} ms without, ${cOn.toFixed(0)} ms with marking: ` +
        `${pct(cOn - cOff)} (goal ≤ 5 %)`,
    );
    console.log(`  the floor ${pct(cFloor - cOff)}; the extension over the floor ${pct(cOn - cFloor)}`);
  } finally {
    await floor?.close();
    await bench.close();
  }
}

await main();
