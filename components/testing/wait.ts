/** Waiting in component tests: let Preact render, and retry an assertion on a busy machine. */
import { act } from 'preact/test-utils';
import { vi } from 'vitest';

/** Runs pending timers and renders (10 ms, inside `act`). */
export const flush = () => act(async () => new Promise<void>((resolve) => setTimeout(resolve, 10)));

/** Waits until `check` passes, flushing renders between tries (up to 10 s). */
export const until = (check: () => void) =>
  vi.waitFor(
    async () => {
      await flush();
      check();
    },
    { timeout: 10_000 },
  );
