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
