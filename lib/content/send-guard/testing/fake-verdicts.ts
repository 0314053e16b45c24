/** An in-memory stand-in for the content script's AddressBook, as the guard sees it (decide.ts). */

import type { GuardStatus, Verdicts } from '@/lib/content/send-guard/decide';
import type { VerdictView } from '@/lib/shared/views';

export class FakeVerdicts implements Verdicts {
  readonly states = new Map<string, { status: GuardStatus; verdict: VerdictView | null }>();
  readonly askedNow: string[] = [];

  add(raw: string): string {
    const email = raw.trim().toLowerCase();
    if (!this.states.has(email)) this.states.set(email, { status: 'pending', verdict: null });
    return email;
  }

  get(email: string) {
    return this.states.get(email);
  }

  /** Like the AddressBook: nobody asked yet, or the asking failed (status `error`). */
  isUnverified(email: string): boolean {
    const status = this.states.get(email)?.status;
    return status === 'unverified' || status === 'error';
  }

  verifyNow(email: string): void {
    this.askedNow.push(email);
    const state = this.states.get(email);
    if (state?.status === 'unverified') state.status = 'pending';
  }

  /** Gives an address a verdict (a status, and optionally a reason and suggestion). */
  set(email: string, status: GuardStatus, extra: { reason?: string; suggestion?: string } = {}): void {
    const verdict: VerdictView | null =
      status === 'pending' || status === 'unverified'
        ? null
        : {
            email,
            status,
            reason: extra.reason ?? null,
            checks: {},
            mxHost: null,
            suggestion: extra.suggestion ?? null,
            verifiedAt: 0,
            cached: false,
            extra: {},
          };
    this.states.set(email, { status, verdict });
  }
}
