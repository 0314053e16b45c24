/**
 * Verdicts decided without the service: an address that fails the syntax check (the popup, the
 * background for a page or the popup, `lookupCached`), and a task followed past its deadline.
 * One builder, so every context shows such a verdict the same way.
 */
import type { VerdictView } from './views';

function localVerdict(
  email: string,
  status: 'invalid' | 'unknown',
  reason: string,
  checks: VerdictView['checks'],
): VerdictView {
  return {
    email,
    status,
    reason,
    checks,
    mxHost: null,
    suggestion: null,
    verifiedAt: Date.now(),
    cached: false,
    extra: {},
  };
}

/** The address is not one (the rulebook's syntax check failed): free, decided here. */
export function invalidVerdict(email: string): VerdictView {
  return localVerdict(email, 'invalid', 'invalid_syntax', { syntax: false });
}

/** A paid task the service did not finish within its deadline: answered as unknown, not cached. */
export function timedOutVerdict(email: string): VerdictView {
  return localVerdict(email, 'unknown', 'verification_timeout', {});
}
