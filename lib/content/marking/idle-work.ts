/**
 * Idle-time work: runs queued tasks when the page is idle (requestIdleCallback, or a short timeout
 * where it is missing), never after the signal aborts.
 */
type IdleWindow = Window & {
  requestIdleCallback?: (cb: () => void, opts?: { timeout: number }) => number;
  cancelIdleCallback?: (id: number) => void;
};

export function onIdle(win: Window, signal: AbortSignal, task: () => void, timeoutMs = 300): void {
  if (signal.aborted) return;
  const w = win as IdleWindow;
  const run = () => {
    if (!signal.aborted) task();
  };
  if (typeof w.requestIdleCallback === 'function') {
    const id = w.requestIdleCallback(run, { timeout: timeoutMs });
    signal.addEventListener('abort', () => w.cancelIdleCallback?.(id), { once: true });
  } else {
    const id = win.setTimeout(run, 16);
    signal.addEventListener('abort', () => win.clearTimeout(id), { once: true });
  }
}

/** A flag-based idle batch: `request()` any number of times, `flush` runs once per idle period. */
export function idleBatch(win: Window, signal: AbortSignal, flush: () => void): () => void {
  let queued = false;
  return () => {
    if (queued || signal.aborted) return;
    queued = true;
    onIdle(win, signal, () => {
      queued = false;
      flush();
    });
  };
}

/** A queue of jobs: `push` adds one (worked off in a later task); `runNow` works it off at once. */
export interface WorkQueue<T> {
  push(item: T): void;
  /** Works off what is queued now, within one slice; the rest goes on in later tasks. */
  runNow(): void;
}

/**
 * A queue worked off in slices of at most `sliceMs`, yielding to the page between slices (a
 * timer), so a thousand targets never make one long task. What is pushed runs at the latest in a
 * microtask (no timer per push). Slices are long enough that a page's
 * worth of marks is usually written in one: every slice that writes to the page costs the page a
 * style and layout pass of its own. `wrap` runs around each slice (e.g. to pause the observer
 * while the slice writes). A slice started while another runs (from inside it) does nothing: the
 * running one takes the new jobs.
 */
export function slicedQueue<T>(
  win: Window,
  signal: AbortSignal,
  handle: (item: T) => void,
  opts: { sliceMs?: number; wrap?: (slice: () => void) => void } = {},
): WorkQueue<T> {
  const sliceMs = opts.sliceMs ?? 30;
  const wrap = opts.wrap ?? ((slice: () => void) => slice());
  const queue: T[] = [];
  let head = 0;
  let scheduled = false;
  let running = false;
  let soon = false;
  let ranSince = false;
  const slice = () => {
    const end = win.performance.now() + sliceMs;
    while (head < queue.length) {
      handle(queue[head++] as T);
      if (win.performance.now() >= end) break;
    }
  };
  const run = () => {
    if (running || signal.aborted || head >= queue.length) return;
    running = true;
    ranSince = true;
    try {
      wrap(slice);
    } finally {
      running = false;
    }
    if (head < queue.length) schedule();
    else {
      queue.length = 0;
      head = 0;
    }
  };
  const schedule = () => {
    if (scheduled || signal.aborted) return;
    scheduled = true;
    win.setTimeout(() => {
      scheduled = false;
      run();
    }, 0);
  };
  // A push nobody follows with runNow still runs: right after the current task's script (unless
  // a slice ran meanwhile; what it left goes on after a timer, never in the same task).
  const runSoon = () => {
    soon = false;
    if (!ranSince) run();
  };
  return {
    push(item) {
      queue.push(item);
      if (running || soon) return;
      soon = true;
      ranSince = false;
      queueMicrotask(runSoon);
    },
    runNow: run,
  };
}
