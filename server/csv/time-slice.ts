/**
 * TimeSlice: cuts long synchronous CSV work so the event loop gets a turn every ~50 ms.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Longest stretch of CSV work between two turns of the event loop. */
const SLICE_MS = 5;

/**
 * Cuts long synchronous CSV work into slices: `pause()` gives the event loop a turn once
 * SLICE_MS have passed since the last one, so other requests are answered meanwhile
 * (docs/design.md §3: no file holds the event loop for more than ~50 ms at a time).
 */
export class TimeSlice {
  private since = performance.now();

  /** True when the caller should `await pause()` now. */
  due(): boolean {
    return performance.now() - this.since >= SLICE_MS;
  }

  async pause(): Promise<void> {
    if (!this.due()) return;
    await nextTurn();
    this.since = performance.now();
  }
}
