/**
 * The marking script in real Chromium (the build:test extension), on a CRM-like page of ~20,000
 * elements with 1,000 targets (mailto links), budget 0 (every target ends `unverified`: no service
 * needed, and the measure is the script's own work). Three figures:
 *
 * 1. main-thread time added by the extension until every target is marked, as a ratio to a bare
 *    querySelectorAll pass that marks the same targets (attribute + a small element after each)
 *    including the style and layout it causes; goal ≤ 1.3×. Read from a Chromium trace of each
 *    page load: the renderer main thread's task time from the task in which the content script
 *    first ran to the end of the load's window, less the same for a content script that does
 *    nothing (what the page itself still does after that moment). The bare pass runs on the loaded
 *    page and is read from a trace the same way, from the task that ran it on;
 * 2. long tasks over 50 ms after the page's load with marking on, minus with the content script
 *    that does nothing; goal 0;
 * 3. main-thread time added while the page appends 50 rows every 100 ms for 5 s (TaskDuration,
 *    marking on against off, the two loads of one round: the median of the rounds); goal ≤ 5 %.
 *    Printed beside it: the same page with the bare marks written by the page itself (no script
 *    marks anything), what the marks' own rendering costs under churn.
 * It prints first the gzip size of the content script it loads (goal ≤ 16 KB, bench/testing/script-size.ts).
 *
 * Every figure is also taken for the floor (bench/testing/floor-extension.ts): a minimal extension
 * whose content script does nothing but the bare pass. What it adds over the bare page script is
 * the platform's price of any extension (injection, an isolated world); Verimark's figures are
 * printed over the floor too, which is what its own design adds. `BENCH_ONLY=load|churn` runs one
 * half; `BENCH_RUNS` and `BENCH_CHURN_RUNS` set the runs (default 15 and 7). The load ratio and the churn
 * figure are printed with the middle 90 % of their bootstrap resamples (bench/testing/resample.ts).
 *
 *   npm run bench -- content-chromium     (builds the test extension first when it is missing)
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { CDPSession, Page } from 'puppeteer-core';
import { extensionDir } from '../test/e2e/testing/paths';
import { ROWS, startCrmBench, tracedCrmLoad, WINDOW_MS } from './testing/crm-page';
import { BARE_PASS, EMPTY_SCRIPT, type FloorBrowser, launchFloor } from './testing/floor-extension';
import { interval, median } from './testing/resample';
import { printScriptSizes } from './testing/script-size';
import { afterFirstMs, isTimeStamp, trace } from './testing/trace';

/** Page loads per figure and browser. */
const RUNS = Number(process.env.BENCH_RUNS ?? 15);

async function taskMs(cdp: CDPSession): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return (metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0) * 1000;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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

/** One traced page load (crm-page.ts's tracedCrmLoad), and its long tasks after the load event. */
async function tracedLoad(open: () => Promise<Page>, url: string, marked: boolean) {
  const a = await fresh(open);
  try {
    const { ms } = await tracedCrmLoad(a.page, a.cdp, url, marked);
    return { ms, long: await longTasksAfterLoad(a.page) };
  } finally {
    await a.page.close();
  }
}

/**
 * The bare pass on an unmarked, loaded page: querySelectorAll, mark, a small element after each,
 * then the style, layout and paint it causes, read from a trace as the extension's are: the main
 * thread's tasks from the one that ran the pass on (the page is idle otherwise).
 */
async function barePass(p: Page, cdp: CDPSession): Promise<number> {
  const events = await trace(cdp, async () => {
    await sleep(100);
    // In a block of its own: its consts stay out of the page's global scope.
    await p.evaluate(`{console.timeStamp('bare-pass'); ${BARE_PASS} markAll(document); }`);
    await sleep(900);
  });
  const ms = afterFirstMs(events, isTimeStamp('bare-pass'));
  if (ms === null) throw new Error('the bare pass left no mark in the trace');
  return ms;
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
  let empty: FloorBrowser | null = null;
  try {
    floor = await launchFloor();
    empty = await launchFloor(EMPTY_SCRIPT);
    const floorBrowser = floor.browser;
    const emptyBrowser = empty.browser;
    const open = () => session.browser.newPage();
    const openFloor = () => floorBrowser.newPage();
    const openEmpty = () => emptyBrowser.newPage();
    const only = process.env.BENCH_ONLY;
    const after = { ext: [] as number[], floor: [] as number[], empty: [] as number[] };
    const bare: number[] = [];
    const long = { ext: 0, floor: 0, empty: 0 };
    // Each run loads the page once in each browser, in turn, so all see the same machine.
    for (let run = 0; run < (only === 'churn' ? 0 : RUNS); run++) {
      for (const [key, opener, marked] of [
        ['ext', open, true],
        ['floor', openFloor, true],
        ['empty', openEmpty, false],
      ] as const) {
        const { ms, long: n } = await tracedLoad(opener, on, marked);
        after[key].push(ms);
        long[key] += n;
      }
      const unmarked = await fresh(open);
      await unmarked.page.goto(off, { waitUntil: 'load' });
      await sleep(1000);
      bare.push(await barePass(unmarked.page, unmarked.cdp));
      await unmarked.page.close();
    }
    const runs = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');
    if (only !== 'churn') {
      const page = median(after.empty);
      const ext = median(after.ext) - page;
      const least = median(after.floor) - page;
      const base = median(bare);
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
        `  main-thread time from the content script's first task on, per load: extension ${runs(after.ext)} ms;` +
          ` floor ${runs(after.floor)} ms; a script doing nothing ${runs(after.empty)} ms (median ${page.toFixed(1)}, subtracted);` +
          ` bare pass ${runs(bare)} ms`,
      );
      const ratioOf = ([e, z, b]: number[][]) =>
        (median(e as number[]) - median(z as number[])) / median(b as number[]);
      const [low, high] = interval([after.ext, after.empty, bare], ratioOf);
      console.log(
        `ratio (goal ≤ 1.3×):                             ${(ext / base).toFixed(2)}×` +
          `  (90 % of resampled loads: ${low.toFixed(2)}–${high.toFixed(2)}×)`,
      );
      console.log(
        `  the floor's ratio ${(least / base).toFixed(2)}×; the extension over the floor ${(ext / least).toFixed(2)}×`,
      );
      console.log(
        `long tasks > 50 ms after load (goal 0):          ${Math.max(0, long.ext - long.empty)} ` +
          `(with marking ${long.ext}, with a script doing nothing ${long.empty}, over ${RUNS} loads; the floor ${Math.max(0, long.floor - long.empty)})`,
      );
    }
    if (only === 'load') return;
    // Churn: 50 rows every 100 ms for 5 s, marking on vs off, and the floor's marking.
    const churnOn: number[] = [];
    const churnOff: number[] = [];
    const churnFloor: number[] = [];
    const churnPremarked: number[] = [];
    const kinds = [
      [churnOn, open, on, true],
      [churnOff, open, off, false],
      [churnFloor, openFloor, on, true],
      // `true`: its targets must be marked (by the page: the site is not enabled).
      [churnPremarked, open, bench.premarked, true],
    ] as const;
    for (let run = 0; run < Number(process.env.BENCH_CHURN_RUNS ?? 7); run++) {
      // Each round starts with the next kind: no kind always comes first, or right after another.
      for (let k = 0; k < kinds.length; k++) {
        const [into, opener, url, marked] = kinds[(run + k) % kinds.length] as (typeof kinds)[number];
        into.push(await churnOnce(opener, url, marked));
      }
    }
    // Each round's loads follow one another, so each is read against the page without marking
    // of its own round: this machine's speed drifts between rounds (every phase of the page at
    // once, the page's own work too) by more than the figure itself.
    const pctOf = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} %`;
    const paired = (xs: number[]) => xs.map((x, i) => x / (churnOff[i] as number) - 1);
    const spread = (xs: number[]) => `${pctOf(Math.min(...xs))} to ${pctOf(Math.max(...xs))}`;
    const withMarking = paired(churnOn);
    const withFloor = paired(churnFloor);
    const withPremarked = paired(churnPremarked);
    console.log(
      `  per round: churn without ${runs(churnOff)} ms; with ${runs(churnOn)} ms; floor ${runs(churnFloor)} ms;` +
        ` marks written by the page itself ${runs(churnPremarked)} ms`,
    );
    const [low, high] = interval([withMarking], ([xs]) => median(xs as number[]));
    console.log(
      `churn (50 rows / 100 ms, 5 s): ${pctOf(median(withMarking))} main-thread time with marking (goal ≤ 5 %)` +
        `  (90 % of resampled rounds: ${pctOf(low)} to ${pctOf(high)})`,
    );
    console.log(
      `  median of ${withMarking.length} rounds, each against its own load without marking (${spread(withMarking)}); ` +
        `the floor ${pctOf(median(withFloor))} (${spread(withFloor)}); the extension over the floor ` +
        `${pctOf(median(churnOn.map((x, i) => x / (churnFloor[i] as number) - 1)))}`,
    );
    // No extension at work: the page writes the bare marks itself, so this is what the marks'
    // own style, layout and paint cost under churn, below which no marking script can go.
    const [lowPre, highPre] = interval([withPremarked], ([xs]) => median(xs as number[]));
    console.log(
      `  the same marks written by the page itself, no script marking: ${pctOf(median(withPremarked))}` +
        ` (${spread(withPremarked)}; 90 % of resampled rounds: ${pctOf(lowPre)} to ${pctOf(highPre)})`,
    );
  } finally {
    await empty?.close();
    await floor?.close();
    await bench.close();
  }
}

await main();
