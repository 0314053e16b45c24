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

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
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

/**
 * Errors of the browser's automation layer, not of the page: Firefox's BiDi implementation now and
 * then refuses to pass an element handle into a call ("Not allowed to define cross-origin object
 * as property on [Object] or [Array] XrayWrapper", seen once in ~40 Firefox runs, never locally
 * reproduced). It is thrown while the call's arguments are built, before the sent function runs,
 * so running the step again is safe (unlike errors that may come after a click took effect).
 */
const TRANSIENT = /XrayWrapper|define cross-origin object/;

function isTransientProtocolError(err: unknown): boolean {
  return err instanceof Error && TRANSIENT.test(err.message);
}

/** Runs `step` again (finding its elements anew) when it fails with a transient protocol error. */
export async function retryTransient<T>(step: () => Promise<T>, what: string, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (err) {
      if (attempt >= attempts || !isTransientProtocolError(err)) throw err;
      console.warn(
        `retrying ${what} after a transient protocol error: ${(err as Error).message.split('\n')[0]}`,
      );
      await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
    }
  }
}
