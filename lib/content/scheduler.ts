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

/**
 * A queue worked off in slices of at most `sliceMs`, yielding to the page between slices (a
 * timer), so a thousand targets never make one long task.
 */
export function slicedQueue<T>(
  win: Window,
  signal: AbortSignal,
  handle: (item: T) => void,
  sliceMs = 8,
): (item: T) => void {
  const queue: T[] = [];
  let head = 0;
  let scheduled = false;
  const run = () => {
    scheduled = false;
    if (signal.aborted) return;
    const end = win.performance.now() + sliceMs;
    while (head < queue.length && win.performance.now() < end) handle(queue[head++] as T);
    if (head < queue.length) schedule();
    else {
      queue.length = 0;
      head = 0;
    }
  };
  const schedule = () => {
    if (scheduled || signal.aborted) return;
    scheduled = true;
    win.setTimeout(run, 0);
  };
  return (item) => {
    queue.push(item);
    schedule();
  };
}
