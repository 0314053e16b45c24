/**
 * Global and per-MX-host concurrency for SMTP conversations. One scheduler per process keeps a
 * queue of waiting conversations per host and starts one whenever a global slot is free and
 * its host has a free slot; a host at its limit never holds global slots while it queues.
 *
 * `shared` (optional) adds per-host slots held across processes (server/store/postgres/
 * host-slots.ts): a conversation starts only once its shared slot is taken, and a host whose
 * shared slots are all taken by other processes is skipped until one of them releases one —
 * so a process never sits on a shared slot it cannot use yet (its global limit is full), which
 * would starve the other processes. The global limit stays per process, so adding worker
 * processes adds capacity.
 *
 * `perGroup` bounds conversations of one group (the domain being verified) across all its hosts,
 * so a domain with many MX hosts cannot take every global slot: a host's queue then starts its
 * first conversation whose group has room.
 *
 * A conversation that is no longer wanted before it starts (`cancel` fires: its row was served
 * on another row's open connection, ./session-share.ts) leaves its host's queue: it never
 * takes a slot, in-process or shared, nor holds up the conversations queued behind it.
 */

import type { Destinations } from './destinations';

export interface Limits {
  /**
   * Runs `task` holding a global slot and a slot of `host`. When `cancel` fires before the task
   * has started, the task never runs and the promise rejects with the signal's reason. `group`
   * (the domain) counts against the per-group limit.
   */
  run<T>(
    host: string,
    task: () => Promise<T>,
    cancel?: AbortSignal,
    group?: string,
    urgent?: boolean,
  ): Promise<T>;
}

/** A shared slot taken (release it when done), or a promise settled when one may be free again. */
export type SlotTry = { release: () => Promise<void> } | { freed: Promise<void> };

/** Per-host slots shared by several processes. */
export interface HostSlots {
  /**
   * Takes one of the host's slots if one is free. When none is, `freed` resolves once any
   * process releases one of the host's slots (or after a short fallback delay); it is armed
   * before the slots are looked at, so a release in between is never missed.
   */
  tryAcquire(host: string): Promise<SlotTry>;
}

/** How long a process may pass a shared slot from one conversation with a host to the next. */
const HOLD_MS = 2_000;

interface Job {
  task: () => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
  cancel?: AbortSignal;
  group?: string;
  /** A single check's: starts before the bulk rows queued at its host and at other hosts. */
  urgent?: boolean;
}

interface HostState {
  queue: Job[];
  /** Conversations running (or taking their shared slot) with this host. */
  running: number;
  /** Asking for a shared slot now: one question per host at a time. */
  asking: boolean;
  /** Every shared slot was taken at the last question; waiting for a release. */
  blocked: boolean;
  /** Urgent jobs in the queue. */
  urgent: number;
}

export function createLimits(
  global: number,
  perHost: number,
  shared?: HostSlots | null,
  perGroup = Number.POSITIVE_INFINITY,
  windows?: Destinations,
): Limits {
  const globalMax = Math.max(1, global);
  const hostMax = Math.max(1, perHost);
  const groupMax = Math.max(1, perGroup);
  const hosts = new Map<string, HostState>();
  /** Conversations running (or asking for their shared slot) per group. */
  const groups = new Map<string, number>();
  let active = 0;
  /** A host's limit now: its concurrency window (./destinations.ts), never above perHost. */
  const hostLimit = (host: string) => (windows ? Math.min(hostMax, windows.window(host)) : hostMax);

  const hasRoom = (job: Job) => job.group === undefined || (groups.get(job.group) ?? 0) < groupMax;
  /** Takes the first queued urgent job of the host whose group has room, else the first job. */
  const pick = (state: HostState): Job | undefined => {
    let at = state.urgent > 0 ? state.queue.findIndex((job) => job.urgent === true && hasRoom(job)) : -1;
    if (at < 0) at = state.queue.findIndex(hasRoom);
    return at < 0 ? undefined : dequeue(state, at);
  };
  /** Takes the job at `at` out of the host's queue. */
  const dequeue = (state: HostState, at: number): Job | undefined => {
    const [job] = state.queue.splice(at, 1);
    if (job?.urgent) state.urgent--;
    return job;
  };
  const enter = (job: Job) => {
    if (job.group !== undefined) groups.set(job.group, (groups.get(job.group) ?? 0) + 1);
  };
  const leave = (job: Job) => {
    if (job.group === undefined) return;
    const left = (groups.get(job.group) ?? 1) - 1;
    if (left <= 0) groups.delete(job.group);
    else groups.set(job.group, left);
  };

  const forget = (host: string, state: HostState) => {
    // Forget idle hosts so a long-running service does not keep one entry per host ever seen.
    if (state.running === 0 && state.queue.length === 0 && !state.blocked && hosts.get(host) === state)
      hosts.delete(host);
  };

  const execute = (
    host: string,
    state: HostState,
    job: Job,
    release: (() => Promise<void>) | null,
    takenAt = performance.now(),
  ) => {
    // Cancelled while its shared slot was being asked for: the slot goes on as if it had run.
    const run = job.cancel?.aborted ? Promise.reject(job.cancel.reason) : job.task();
    run.then(job.resolve, job.reject).finally(async () => {
      // A shared slot goes on to this host's next conversation for a while: no release and
      // question per conversation when they are short, yet other processes get their turn.
      leave(job);
      const next = release && performance.now() - takenAt < HOLD_MS ? pick(state) : undefined;
      if (next) {
        enter(next);
        execute(host, state, next, release, takenAt);
        return;
      }
      if (release) await release().catch(() => {});
      active--;
      state.running--;
      forget(host, state);
      pump();
    });
  };

  const ask = (host: string, state: HostState, slots: HostSlots, job: Job) => {
    enter(job);
    active++;
    state.running++;
    state.asking = true;
    slots.tryAcquire(host).then(
      (got) => {
        state.asking = false;
        if ('release' in got) {
          execute(host, state, job, got.release);
          pump(); // this host may take another
          return;
        }
        // Back to the head of its queue, unless it was cancelled while asking.
        leave(job);
        if (job.cancel?.aborted) job.reject(job.cancel.reason);
        else {
          state.queue.unshift(job);
          if (job.urgent) state.urgent++;
        }
        active--;
        state.running--;
        state.blocked = true;
        got.freed.then(() => {
          state.blocked = false;
          forget(host, state); // its queue may have been emptied by cancellations meanwhile
          pump();
        });
        pump();
      },
      (err: unknown) => {
        state.asking = false;
        leave(job);
        active--;
        state.running--;
        job.reject(err);
        forget(host, state);
        pump();
      },
    );
  };

  /**
   * Starts what the free global slots allow, taking hosts in turn (each host's queue in order):
   * first the hosts where a single check waits, then all.
   */
  const pump = () => {
    for (const urgentOnly of [true, false]) pumpPass(urgentOnly);
  };
  const pumpPass = (urgentOnly: boolean) => {
    let progressed = true;
    while (active < globalMax && progressed) {
      progressed = false;
      for (const [host, state] of hosts) {
        if (active >= globalMax) return;
        if (state.queue.length === 0 || state.running >= hostLimit(host) || state.asking || state.blocked)
          continue;
        if (urgentOnly && state.urgent === 0) continue;
        const job = pick(state);
        if (!job) continue; // every queued conversation's domain is at its limit
        progressed = true;
        // Move the host to the end: the next free slot goes to another host first.
        hosts.delete(host);
        hosts.set(host, state);
        if (shared) ask(host, state, shared, job);
        else {
          enter(job);
          active++;
          state.running++;
          execute(host, state, job, null);
        }
      }
    }
  };

  if (windows) windows.onGrow = () => pump();

  return {
    run<T>(
      host: string,
      task: () => Promise<T>,
      cancel?: AbortSignal,
      group?: string,
      urgent?: boolean,
    ): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        if (cancel?.aborted) return reject(cancel.reason);
        let found = hosts.get(host);
        if (!found) {
          found = { queue: [], running: 0, asking: false, blocked: false, urgent: 0 };
          hosts.set(host, found);
        }
        const state = found;
        const job: Job = {
          task,
          resolve: resolve as (value: unknown) => void,
          reject,
          cancel,
          group,
          urgent,
        };
        state.queue.push(job);
        if (urgent) state.urgent++;
        cancel?.addEventListener(
          'abort',
          () => {
            // Still queued: out of the queue. Started (or asking for its slot): execute sees it.
            const at = state.queue.indexOf(job);
            if (at < 0) return;
            dequeue(state, at);
            reject(cancel.reason);
            forget(host, state);
          },
          { once: true },
        );
        pump();
      });
    },
  };
}
