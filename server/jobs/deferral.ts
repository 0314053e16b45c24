/**
 * The deferred queue's policy: which bulk rows are tried again later instead of ending `unknown`,
 * and when. A row is deferred when the server's answer says "not now" rather than "no":
 *
 * - `greylist` — a 4xx at MAIL or RCPT (greylisting): tried again once the greylisting window has
 *   passed (GREYLIST_WINDOW_MS, long enough for postgrey's 300 s), and once more after twice that.
 * - `throttled` — 421 (or another 4xx) at the greeting of every MX host (a per-client
 *   connection limit): tried again after RETRY_BACKOFF_MS, doubling each time, four times at most.
 * - `policy` — a refusal about us (5.7.x, anti-enumeration after too many invalid recipients on
 *   one connection): tried once more later, alone on a fresh connection.
 *
 * Every delay gets up to half again at random, so rows refused together come back spread out.
 * A row whose last try has passed keeps its last answer. What a batch decided so far is stored
 * with the batch (BatchQueue.defer), so deferred rows survive restarts and are verified, charged
 * and counted exactly once.
 */
import type { DeferralPolicy } from '../config';
import type { VerificationResult } from '../engine/types';

export type RetryClass = 'greylist' | 'throttled' | 'policy';

export type { DeferralPolicy };

/** One row of a batch between passes. */
export interface PartialRow {
  result: VerificationResult;
  /** Times the row was deferred. */
  tries: number;
  /** When deferred: not tried again before this time (epoch ms). */
  due?: number;
  /** When deferred: tried again alone, on a connection of its own. */
  alone?: boolean;
}

const MAX_TRIES: Record<RetryClass, number> = { greylist: 2, throttled: 4, policy: 1 };

/** Why a verdict may change if asked again later; null when it is final. */
export function retryClass(result: VerificationResult): RetryClass | null {
  if (result.status !== 'unknown') return null;
  if (result.reason === 'greylisted') return 'greylist';
  if (result.reason === 'blocked') return 'policy';
  // Connected, and turned away at the greeting (421: too many connections from us). A refused
  // TCP connection (nothing listens) is final: it only narrows the window (server/engine/destinations.ts).
  if (result.reason === 'smtp_unreachable' && result.checks.smtp_connected === true) return 'throttled';
  return null;
}

/** Up to half again, at random. */
const spread = (ms: number) => Math.round(ms * (1 + Math.random() / 2));

/**
 * The row's next state after an answer: final, or deferred with its due time. `tries` is how
 * often it was deferred before this answer.
 */
export function nextState(
  result: VerificationResult,
  tries: number,
  policy: DeferralPolicy,
  now = Date.now(),
): PartialRow {
  const kind = retryClass(result);
  if (kind === null || tries >= MAX_TRIES[kind]) return { result, tries };
  const base =
    kind === 'greylist'
      ? policy.greylistWindowMs * (tries + 1)
      : kind === 'throttled'
        ? policy.backoffMs * 2 ** tries
        : policy.backoffMs * 2;
  return { result, tries: tries + 1, due: now + spread(base), alone: kind === 'policy' };
}

export const isDeferred = (row: PartialRow | null | undefined): row is PartialRow & { due: number } =>
  row?.due !== undefined;

export function parsePartial(json: string | null): (PartialRow | null)[] | null {
  return json === null ? null : (JSON.parse(json) as (PartialRow | null)[]);
}
