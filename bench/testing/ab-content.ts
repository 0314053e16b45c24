/**
 * Two builds of the extension side by side on the content benchmark's page: loads alternate
 * between them (A, B, B, A, …) so both see the same machine, and each load is read from a trace as
 * the benchmark reads it (main-thread time from the content script's first task to the end of a
 * 4 s window, bench/testing/trace.ts). Prints per-load figures, medians and the median of the
 * paired differences (B − A): this machine's speed drifts more between minutes than most changes
 * weigh, so only loads taken next to each other are compared.
 *
 *   node --import tsx bench/testing/ab-content.ts <outDirA> <outDirB> [loads per build, default 12]
 *
 * Each out dir is a `VERIMARK_OUT_DIR` of `VERIMARK_TEST_BUILD=1 npx wxt build` (e.g. `.output` and
 * `.output-old`).
 */
import type { Page } from 'puppeteer-core';
import { type CrmBench, startCrmBench, tracedCrmLoad } from './crm-page';
import { median } from './resample';
import { isExtensionScript, isTask, mainThread, type TraceEvent } from './trace';

async function open(outDir: string): Promise<CrmBench> {
  process.env.VERIMARK_OUT_DIR = outDir;
  return startCrmBench();
}

/**
 * The main thread's tasks in which the extension's script ran (ms): its own work without the
 * frames its marks cause, a steadier figure than the whole window for changes to the script.
 */
function scriptTasksMs(events: TraceEvent[]): number {
  const main = mainThread(events);
  const ext = main.filter(isExtensionScript);
  let total = 0;
  let end = Number.NEGATIVE_INFINITY;
  for (const task of main) {
    if (!isTask(task) || task.ts < end) continue;
    end = task.ts + (task.dur ?? 0);
    if (ext.some((e) => e.ts >= task.ts && e.ts < end)) total += task.dur ?? 0;
  }
  return total / 1000;
}

async function tracedLoad(bench: CrmBench): Promise<[number, number]> {
  const page: Page = await bench.session.browser.newPage();
  try {
    await page.bringToFront();
    const { events, ms } = await tracedCrmLoad(page, await page.createCDPSession(), bench.on, true);
    return [ms, scriptTasksMs(events)];
  } finally {
    await page.close();
  }
}

async function main(): Promise<void> {
  const [dirA, dirB, n = '12'] = process.argv.slice(2);
  if (!dirA || !dirB) throw new Error('usage: ab-content.ts <outDirA> <outDirB> [loads]');
  const a = await open(dirA);
  const b = await open(dirB);
  try {
    const ms = { a: [] as number[], b: [] as number[] };
    const script = { a: [] as number[], b: [] as number[] };
    for (let i = 0; i < Number(n); i++) {
      const order = i % 2 ? (['b', 'a'] as const) : (['a', 'b'] as const);
      for (const key of order) {
        const [all, own] = await tracedLoad(key === 'a' ? a : b);
        ms[key].push(all);
        script[key].push(own);
      }
    }
    const fmt = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(' ');
    for (const [what, figures] of [
      ['from the first script task on', ms],
      ["tasks running the extension's script", script],
    ] as const) {
      console.log(`${what}:`);
      console.log(`  A ${dirA}: ${fmt(figures.a)}  median ${median(figures.a).toFixed(1)} ms`);
      console.log(`  B ${dirB}: ${fmt(figures.b)}  median ${median(figures.b).toFixed(1)} ms`);
      const diffs = figures.b.map((x, i) => x - (figures.a[i] as number));
      console.log(`  B − A per pair: ${fmt(diffs)}  median ${median(diffs).toFixed(1)} ms`);
    }
  } finally {
    await a.close();
    await b.close();
  }
}

await main();
