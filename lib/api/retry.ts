/**
 * Retries for idempotent calls only (status and list). Credit-spending POSTs never come here.
 * Retries network failures, 5xx and 429, with exponential backoff; a Retry-After wins.
 */
import { ApiError } from './errors';

export interface RetryOptions {
  /** Attempts in total, including the first. */
  attempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** A Retry-After longer than this is not waited for: the error is thrown instead. */
  maxRetryAfterMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function isRetryable(err: unknown): err is ApiError {
  if (!(err instanceof ApiError)) return false;
  // A 2xx body that breaks the contract (`server` with a 2xx status) will not mend by asking again.
  const serverFault = err.kind === 'server' && (err.status === null || err.status >= 500);
  return serverFault || err.kind === 'network' || err.kind === 'rate_limited';
}

/** A refused key or payment (401/402): asking again soon will not help until the user acts. */
export function isRefusal(err: unknown): err is ApiError {
  return err instanceof ApiError && (err.kind === 'invalid_key' || err.kind === 'payment_required');
}

/** The delay before retry number `retry` (0-based) after `err`, or null to give up. */
function retryDelay(err: ApiError, retry: number, options: RetryOptions = {}): number | null {
  const { baseDelayMs = 500, maxDelayMs = 15_000, maxRetryAfterMs = 60_000 } = options;
  if (err.retryAfterSeconds !== null) {
    const wait = err.retryAfterSeconds * 1000;
    return wait > maxRetryAfterMs ? null : wait;
  }
  const backoff = Math.min(maxDelayMs, baseDelayMs * 2 ** retry);
  // Up to 20 % jitter so many clients do not retry in step.
  return Math.round(backoff * (0.8 + Math.random() * 0.2));
}

export async function withRetry<T>(call: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const attempts = options.attempts ?? 4;
  const wait = options.sleep ?? sleep;
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      if (!isRetryable(err) || attempt + 1 >= attempts) throw err;
      const delay = retryDelay(err, attempt, options);
      if (delay === null) throw err;
      await wait(delay);
    }
  }
}
