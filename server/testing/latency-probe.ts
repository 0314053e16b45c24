/**
 * Measures how long the service takes to answer a cheap request while something else runs:
 * sends GET /verify/bulk/files one after another (plus a short pause) until stopped, and keeps
 * each round trip's time. A service whose event loop is held answers late.
 */
import { PATHS } from '@verimark/contract';
import type { Api } from './api';

export interface LatencyProbe {
  /** Stops probing; resolves with every round trip's time in ms, in order. */
  stop(): Promise<number[]>;
}

export function probeLatency(api: Api, pauseMs = 10): LatencyProbe {
  const times: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      const reply = await api.get(`${PATHS.bulkFiles}?page=1&pageSize=1`);
      times.push(performance.now() - started);
      if (reply.status !== 200) throw new Error(`probe answered ${reply.status}`);
      await new Promise((r) => setTimeout(r, pauseMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return times;
    },
  };
}

/** "n=…, median …, max … ms" for a test's log line. */
export function describeLatency(times: readonly number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return `n=${sorted.length}, median ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms, max ${(sorted.at(-1) ?? 0).toFixed(1)} ms`;
}
