/**
 * Chromium traces for the content benchmark and its profiler: record one over CDP, pick the
 * page's renderer main thread, and add up the main-thread tasks that came after an extension's
 * content script first ran.
 */
import type { CDPSession } from 'puppeteer-core';

export interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: Record<string, unknown> };
}

/** What the benchmark needs: tasks, and the script events that say whose script ran. */
export const TASK_CATEGORIES = ['devtools.timeline', 'v8.execute', 'toplevel'];

/** Records a trace of `categories` around `run`. */
export async function trace(
  cdp: CDPSession,
  run: () => Promise<void>,
  categories: string[] = TASK_CATEGORIES,
): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  const collect = (e: { value: TraceEvent[] }) => events.push(...e.value);
  cdp.on('Tracing.dataCollected', collect);
  const done = new Promise<void>((r) => cdp.once('Tracing.tracingComplete', () => r()));
  await cdp.send('Tracing.start', {
    traceConfig: { includedCategories: categories },
    transferMode: 'ReportEvents',
  });
  try {
    await run();
  } finally {
    await cdp.send('Tracing.end');
    await done;
    cdp.off('Tracing.dataCollected', collect);
  }
  return events;
}

/** A task of the main thread's scheduler (the events task time is counted in). */
export const isTask = (e: TraceEvent) => e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask';

/** The complete events of the busiest renderer main thread (the page's), in time order. */
export function mainThread(events: TraceEvent[]): TraceEvent[] {
  const threads = new Map<string, string>();
  for (const e of events)
    if (e.ph === 'M' && e.name === 'thread_name') threads.set(`${e.pid}:${e.tid}`, e.args?.name ?? '');
  const byThread = new Map<string, TraceEvent[]>();
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    if (threads.get(key) !== 'CrRendererMain' || e.ph !== 'X' || e.dur === undefined) continue;
    (byThread.get(key) ?? byThread.set(key, []).get(key))?.push(e);
  }
  let best: TraceEvent[] = [];
  let bestTotal = 0;
  for (const list of byThread.values()) {
    const total = taskTotal(list);
    if (total > bestTotal) [best, bestTotal] = [list, total];
  }
  return best.sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
}

/** Main-thread task time of these events, in µs (nested task events counted once). */
export function taskTotal(events: TraceEvent[]): number {
  let total = 0;
  let end = Number.NEGATIVE_INFINITY;
  for (const e of events) {
    if (!isTask(e)) continue;
    const stop = e.ts + (e.dur ?? 0);
    if (e.ts >= end) total += e.dur ?? 0;
    else if (stop > end) total += stop - end;
    end = Math.max(end, stop);
  }
  return total;
}

/** Whether a script event ran an extension's script (content scripts carry their chrome-extension: URL). */
export function isExtensionScript(e: TraceEvent): boolean {
  if (e.name !== 'EvaluateScript' && e.name !== 'FunctionCall' && e.name !== 'v8.compile') return false;
  const url = String(e.args?.data?.url ?? e.args?.data?.scriptName ?? '');
  return url.startsWith('chrome-extension://');
}

/** Whether an event is the `console.timeStamp(label)` a page script left in the trace. */
export function isTimeStamp(label: string): (e: TraceEvent) => boolean {
  return (e) => e.name === 'TimeStamp' && e.args?.data?.message === label;
}

/**
 * Main-thread task time (ms) from the task holding the first event that `isStart` picks to the
 * end of the trace, or null when there is none.
 */
export function afterFirstMs(events: TraceEvent[], isStart: (e: TraceEvent) => boolean): number | null {
  const main = mainThread(events);
  const thread = main[0];
  // Instant events (a time stamp) are not among the main thread's complete events: look at all of its.
  const first = events
    .filter((e) => e.pid === thread?.pid && e.tid === thread?.tid && isStart(e))
    .sort((a, b) => a.ts - b.ts)[0];
  if (!first) return null;
  const start = main.find((e) => isTask(e) && e.ts <= first.ts && e.ts + (e.dur ?? 0) >= first.ts);
  const from = start?.ts ?? first.ts;
  return taskTotal(main.filter((e) => e.ts >= from)) / 1000;
}

/**
 * Main-thread task time (ms) from the task in which an extension's script first ran to the end of
 * the trace, or null when none ran. It holds everything the extension made the page do (its
 * scripts, and the style, layout and paint of its marks) and whatever the page itself still did
 * after that moment: the benchmark subtracts the latter as measured with a content script that
 * does nothing (bench/testing/floor-extension.ts).
 */
export function afterInjectionMs(events: TraceEvent[]): number | null {
  return afterFirstMs(events, isExtensionScript);
}
