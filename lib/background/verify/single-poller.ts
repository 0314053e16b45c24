/**
 * Follows one single-email task to completion: status calls with backoff (about 0.5 s rising
 * to 15 s) until the result is complete or the deadline passes.
 */
import type { SingleStatusData } from '@verimark/contract';
import type { ApiError } from '@/lib/api/errors';
import { isRetryable, sleep as realSleep } from '@/lib/api/retry';

interface SinglePollOptions {
  /** ms since epoch after which polling stops. */
  deadline: number;
  initialDelayMs?: number;
  maxDelayMs?: number;
  factor?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

interface StatusSource {
  singleStatus(taskId: string): Promise<SingleStatusData>;
}

const WAITING = new Set(['pending', 'processing', 'queued', 'in_progress', 'running']);

/** The delays between status calls: 500, 800, 1280, … capped at `maxDelayMs`. */
export function nextDelay(previous: number, options: SinglePollOptions): number {
  return Math.min(options.maxDelayMs ?? 15_000, Math.round(previous * (options.factor ?? 1.6)));
}

/**
 * Resolves with the completed status data, or null when the service still said "pending" at the
 * deadline. Transient failures (network, 5xx, rate limit) keep polling; when the deadline passes
 * while the service is unreachable, the last of them is thrown (the task is not given up on: the
 * caller keeps it). Other errors are thrown at once.
 */
export async function pollSingleTask(
  source: StatusSource,
  taskId: string,
  options: SinglePollOptions,
): Promise<SingleStatusData | null> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? realSleep;
  let delay = options.initialDelayMs ?? 500;
  let lastFailure: ApiError | null = null;
  // At least one status call, even when the deadline passed while the worker was stopped.
  for (let first = true; first || now() < options.deadline; first = false) {
    await sleep(Math.max(0, Math.min(delay, options.deadline - now())));
    try {
      const data = await source.singleStatus(taskId);
      lastFailure = null;
      if (!WAITING.has(data.processing_status.toLowerCase())) return data;
    } catch (err) {
      if (!isRetryable(err)) throw err;
      lastFailure = err;
      if (err.retryAfterSeconds !== null) delay = Math.max(delay, err.retryAfterSeconds * 1000);
    }
    delay = nextDelay(delay, options);
  }
  if (lastFailure) throw lastFailure;
  return null;
}
