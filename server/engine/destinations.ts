/**
 * What this process has learned about each destination — an MX host's IP address — modelled on
 * Postfix's queue manager (qmgr_queue.c, SCHEDULER_README "concurrency scheduling"):
 *
 * - A concurrency window per address: it starts small (`initial`), grows by one after a whole
 *   window's worth of conversations went well (positive feedback 1/N), and shrinks by one at the
 *   first of a window's worth of conversations refused at connect, answered 421 at the greeting or
 *   timed out (negative feedback 1/N, with the hysteresis reversed so that overload is corrected
 *   at once). It never exceeds `max` (PER_HOST limit) nor falls below 1.
 * - Dead-destination memory: when a whole window's worth of conversations timed out in a row (a
 *   tarpit, a host that accepts TCP and never speaks), the address is dead for `deadMs`; probes
 *   skip it at once instead of each waiting out its timeout, and a domain whose every MX address
 *   is dead is answered `unknown` (smtp_timeout) without a connection.
 *
 * Keyed by address, not host name, so that a wildcard domain whose names all point at one address
 * gets one window and one memory. Kept per process (each worker process learns on its own and pays
 * one wait at most); idle entries are forgotten after a while.
 */

/** How a conversation with a destination went, for its window. */
export type Feedback = 'ok' | 'throttled' | 'timeout';

export interface DestinationOptions {
  /** Window of a destination not seen before. */
  initial: number;
  /** Largest window (the per-host concurrency limit). */
  max: number;
  /** How long a dead destination is skipped. */
  deadMs: number;
  /** Clock (tests). */
  now?: () => number;
}

interface State {
  window: number;
  success: number;
  failure: number;
  /** Windows' worth of consecutive timeouts. */
  failCohorts: number;
  deadUntil: number;
  seenAt: number;
}

/** Entries kept before idle ones are swept; an entry idle this long is forgotten. */
const SWEEP_AT = 10_000;
const IDLE_MS = 15 * 60_000;

export class Destinations {
  private readonly states = new Map<string, State>();
  private readonly now: () => number;
  private readonly initial: number;
  private readonly max: number;
  /** Called when a window grows (the limits may start a queued conversation). */
  onGrow: () => void = () => {};

  constructor(private readonly options: DestinationOptions) {
    this.now = options.now ?? Date.now;
    this.max = Math.max(1, options.max);
    this.initial = Math.min(this.max, Math.max(1, options.initial));
  }

  private state(address: string): State {
    let state = this.states.get(address);
    const now = this.now();
    if (!state) {
      if (this.states.size >= SWEEP_AT) this.sweep(now);
      state = { window: this.initial, success: 0, failure: 0, failCohorts: 0, deadUntil: 0, seenAt: now };
      this.states.set(address, state);
    }
    state.seenAt = now;
    return state;
  }

  private sweep(now: number): void {
    for (const [address, state] of this.states)
      if (now - state.seenAt > IDLE_MS && state.deadUntil <= now) this.states.delete(address);
  }

  /** Conversations this address may have open at once now. */
  window(address: string): number {
    return this.states.get(address)?.window ?? this.initial;
  }

  /** Whether the address is remembered as dead (its conversations time out). */
  isDead(address: string): boolean {
    const state = this.states.get(address);
    return state !== undefined && state.deadUntil > this.now();
  }

  report(address: string, feedback: Feedback): void {
    const state = this.state(address);
    if (feedback === 'ok') {
      state.failCohorts = 0;
      state.deadUntil = 0;
      state.success += 1 / state.window;
      let grew = false;
      while (state.success >= 1) {
        state.success -= 1;
        state.failure = 0;
        if (state.window < this.max) {
          state.window++;
          grew = true;
        }
      }
      if (grew) this.onGrow();
      return;
    }
    if (feedback === 'timeout') {
      state.failCohorts += 1 / state.window;
      if (state.failCohorts >= 1) {
        state.deadUntil = this.now() + this.options.deadMs;
        state.failCohorts = 0;
      }
    }
    state.failure -= 1 / state.window;
    while (state.failure < 0) {
      state.failure += 1;
      state.success = 0;
      if (state.window > 1) state.window--;
    }
  }
}
