/** Test support: a verdict as the background hands it out, with no checks, reason or suggestion. */
import type { MarkStatus, VerdictView } from '@/lib/shared/views';

export function verdictView(email: string, status: MarkStatus, more: Partial<VerdictView> = {}): VerdictView {
  return {
    email,
    status,
    reason: null,
    checks: {},
    mxHost: null,
    suggestion: null,
    verifiedAt: 0,
    cached: false,
    extra: {},
    ...more,
  };
}
