/**
 * Makes sure no browser outlives the test process: every launched browser is registered here,
 * closed with a deadline, and killed (with its whole process group) when closing fails or the
 * process exits.
 */
import { rm } from 'node:fs/promises';
import type { Browser } from 'puppeteer-core';

const live = new Set<number>();

function killGroup(pid: number): void {
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

process.once('exit', () => {
  for (const pid of live) killGroup(pid);
});

export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Registers a launched browser; the returned function closes it for good (idempotent). */
export function guardBrowser(browser: Browser, cleanupDirs: string[] = []): () => Promise<void> {
  const pid = browser.process()?.pid;
  if (pid !== undefined) live.add(pid);
  let closing: Promise<void> | undefined;
  return () => {
    closing ??= (async () => {
      try {
        await withTimeout(browser.close(), 15_000, 'browser.close()');
      } catch {
        // Fall through to the kill below.
      }
      if (pid !== undefined) {
        killGroup(pid);
        live.delete(pid);
      }
      for (const dir of cleanupDirs) {
        await rm(dir, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
      }
    })();
    return closing;
  };
}

/** Polls `check` until it returns a value other than undefined/false, or fails after `ms`. */
export async function waitFor<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  ms: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + ms;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      lastError = err;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const detail = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
  throw new Error(`Timed out after ${ms} ms waiting for ${what}${detail}`);
}
