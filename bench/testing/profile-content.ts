/**
 * Where the content benchmark's time goes: loads the CRM-like page (bench/testing/crm-page.ts)
 * once, with a Chromium trace and a V8 CPU profile, and prints self time per trace event on the
 * renderer's main thread and per script function.
 *
 *   node --import tsx bench/testing/profile-content.ts [load|churn] [off|floor|premarked]
 *
 * `load`: a page load until all targets are marked; `churn`: 5 s of rows added by the page; `off`:
 * the same on a site where marking is off; `floor`: marked by the benchmark's floor extension
 * (bench/testing/floor-extension.ts) instead; `premarked`: the page writing the same marks itself,
 * no extension marking (crm-page.ts). TIMELINE=1 prints the main thread's larger events in time
 * order (TIMELINE=all: every event; TIMELINE_MIN: the smallest shown, in µs, default 2000);
 * CALLERS=<function> prints the call chains of a function's samples. Build with
 * `VERIMARK_NOMINIFY=1 npm run build:test` to read function names. The profiler slows calls into
 * the browser's DOM: read its per-function times as shares, not as durations. INCLUSIVE=1 also
 * prints each extension function's time with its callees; SAMPLE_US sets the sampling interval
 * (default 100 µs; a longer one disturbs less); NOPROF=1 takes the trace alone, without the CPU
 * profiler (durations as the page sees them).
 */
import { ROWS, startCrmBench } from './crm-page';
import { type FloorBrowser, launchFloor } from './floor-extension';
import { mainThread, type TraceEvent, taskTotal, trace } from './trace';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8.execute',
  'blink',
  'toplevel',
  'v8',
];

/** Self time (ms) per event name on the busiest renderer main thread. */
function selfTimes(events: TraceEvent[]): [string, number, number][] {
  const best = mainThread(events);
  const bestTotal = taskTotal(best);
  if (process.env.TIMELINE) {
    const t0 = best[0]?.ts ?? 0;
    const shown = new Set([
      'FunctionCall',
      'EvaluateScript',
      'LocalFrameView::performLayout',
      'Document::recalcStyle',
      'Blink.PrePaint.UpdateTime',
      'ParseHTML',
      'TimerFire',
      'FireIdleCallback',
      'Paint',
      'Blink.CompositingInputs.UpdateTime',
      'Document::rebuildLayoutTree',
      'ThreadControllerImpl::RunTask',
    ]);
    for (const e of best)
      if (
        (process.env.TIMELINE === 'all' || shown.has(e.name)) &&
        (e.dur ?? 0) > Number(process.env.TIMELINE_MIN ?? 2000)
      )
        console.log(
          `${((e.ts - t0) / 1000).toFixed(0).padStart(6)} ${((e.dur ?? 0) / 1000).toFixed(1).padStart(7)} ${nameOf(e)}`,
        );
  }
  const self = new Map<string, [number, number]>();
  const stack: { e: TraceEvent; child: number }[] = [];
  const close = (upTo: number) => {
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as { e: TraceEvent; child: number };
      if (top.e.ts + (top.e.dur ?? 0) > upTo) break;
      stack.pop();
      const name = nameOf(top.e);
      const entry = self.get(name) ?? [0, 0];
      entry[0] += ((top.e.dur ?? 0) - top.child) / 1000;
      entry[1] += 1;
      self.set(name, entry);
      const parent = stack[stack.length - 1];
      if (parent) parent.child += top.e.dur ?? 0;
    }
  };
  for (const e of best) {
    close(e.ts);
    stack.push({ e, child: 0 });
  }
  close(Number.POSITIVE_INFINITY);
  console.log(`main thread RunTask total: ${(bestTotal / 1000).toFixed(1)} ms`);
  return [...self].map(([k, [ms, n]]) => [k, ms, n] as [string, number, number]).sort((a, b) => b[1] - a[1]);
}

function nameOf(e: TraceEvent): string {
  const data = e.args?.data;
  if (e.name === 'FunctionCall' || e.name === 'EvaluateScript' || e.name === 'v8.compile') {
    const url = String(data?.url ?? data?.scriptName ?? '');
    return `${e.name} ${url.includes('chrome-extension') ? 'EXT' : url ? 'page' : ''}`;
  }
  return e.name;
}

function profileSummary(profile: CpuProfile): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes as (ProfileNode & { children?: number[] })[])
    for (const c of n.children ?? []) parent.set(c, n.id);
  if (process.env.INCLUSIVE) {
    // Inclusive time per function name (each sample counted once per distinct name on its stack).
    const incl = new Map<string, number>();
    profile.samples.forEach((id, i) => {
      const dt = (profile.timeDeltas[i] ?? 0) / 1000;
      const names = new Set<string>();
      for (let p: number | undefined = id; p !== undefined; p = parent.get(p)) {
        const f = byId.get(p)?.callFrame;
        if (f?.url.includes('chrome-extension')) names.add(f.functionName || '(anon)');
      }
      for (const n of names) incl.set(n, (incl.get(n) ?? 0) + dt);
    });
    console.log('-- inclusive time, extension functions --');
    for (const [k, v] of [...incl].sort((a, b) => b[1] - a[1]).slice(0, 45))
      console.log(v.toFixed(1).padStart(8), k);
  }
  const who = process.env.CALLERS;
  if (who) {
    const stacks = new Map<string, number>();
    profile.samples.forEach((id, i) => {
      if (byId.get(id)?.callFrame.functionName !== who) return;
      const chain: string[] = [];
      for (let p = parent.get(id); p !== undefined && chain.length < 6; p = parent.get(p)) {
        const f = byId.get(p)?.callFrame;
        chain.push(`${f?.functionName || '(anon)'}:${f?.lineNumber}`);
      }
      const key = chain.join(' < ');
      stacks.set(key, (stacks.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
    });
    for (const [k, v] of [...stacks].sort((a, b) => b[1] - a[1]).slice(0, 10))
      console.log(v.toFixed(1).padStart(8), k);
  }
  const self = new Map<string, number>();
  const byUrl = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    if (!node) return;
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    const f = node.callFrame;
    const url = f.url.includes('chrome-extension') ? f.url.replace(/^.*\//, 'EXT ') : f.url ? 'page' : '';
    const key = `${f.functionName || '(anon)'} ${url}:${f.lineNumber}:${f.columnNumber}`;
    self.set(key, (self.get(key) ?? 0) + dt);
    byUrl.set(url || f.functionName, (byUrl.get(url || f.functionName) ?? 0) + dt);
  });
  console.log('-- CPU profile self time by script --');
  for (const [k, v] of [...byUrl].sort((a, b) => b[1] - a[1]).slice(0, 12))
    console.log(v.toFixed(1).padStart(8), k);
  console.log('-- CPU profile self time by function --');
  for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 40))
    console.log(v.toFixed(1).padStart(8), k);
}

async function main(): Promise<void> {
  const mode = process.argv[2] ?? 'load';
  const variant = process.argv[3];
  const marked = variant !== 'off';
  const bench = await startCrmBench();
  const url = variant === 'premarked' ? bench.premarked : marked ? bench.on : bench.off;
  const { session } = bench;
  let floor: FloorBrowser | null = null;
  try {
    if (variant === 'floor') floor = await launchFloor();
    const page = await (floor?.browser ?? session.browser).newPage();
    await page.bringToFront();
    const cdp = await page.createCDPSession();
    const profiling = !process.env.NOPROF;
    if (profiling) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: Number(process.env.SAMPLE_US ?? 100) });
    }
    const allMarked = async () => {
      for (let i = 0; i < 100; i++) {
        const n = await page.evaluate(
          () => document.querySelectorAll('[data-verimark-status="unverified"]').length,
        );
        if (n >= ROWS || !marked) return;
        await sleep(100);
      }
      throw new Error('not all marked');
    };
    if (mode === 'churn') {
      await page.goto(url, { waitUntil: 'load' });
      await allMarked();
      await sleep(1000);
    }
    if (profiling) await cdp.send('Profiler.start');
    const events = await trace(
      cdp,
      async () => {
        if (mode === 'churn') {
          await page.evaluate(() => (window as unknown as { __churn(): Promise<void> }).__churn());
          await sleep(500);
        } else {
          await page.goto(url, { waitUntil: 'load' });
          await allMarked();
          await sleep(1500);
        }
      },
      CATEGORIES,
    );
    const profile = profiling ? ((await cdp.send('Profiler.stop')) as { profile: CpuProfile }).profile : null;
    const by = floor
      ? 'by the floor extension'
      : variant === 'premarked'
        ? 'by the page itself'
        : marked
          ? 'on'
          : 'off';
    console.log(`== ${mode}, marking ${by} ==`);
    for (const [name, ms, n] of selfTimes(events).slice(0, 30))
      console.log(ms.toFixed(1).padStart(8), String(n).padStart(6), name);
    if (profile) profileSummary(profile);
  } finally {
    await floor?.close();
    await bench.close();
  }
}

await main();
