/**
 * Per-page state of every distinct address: local syntax verdict, cached verdict, or a service
 * verdict. Cache lookups are batched; each address is sent to the service at most once per page;
 * automatic verification spends a per-page budget, explicit requests (Verify, a typed value) do not.
 */

import { checkEmail } from '@verimark/contract/address';
import { apiErrorFields } from '@/lib/api/error-fields';
import type { PageStatus } from '@/lib/content/badge/status';
import { LOOKUP_MAX } from '@/lib/shared/messages';
import type { VerdictView } from '@/lib/shared/views';

type Phase = 'new' | 'looking' | 'uncached' | 'verifying' | 'done' | 'failed';

export interface AddressState {
  email: string;
  phase: Phase;
  /**
   * `unverified` while nobody asked the service (its cache being read, uncached, over budget),
   * `pending` only while a request to the service is out.
   */
  status: PageStatus;
  verdict: VerdictView | null;
  error: string | null;
}

export interface VerifierApi {
  /**
   * Tells the background which addresses are on the page (only those get verdicts) and returns
   * their cached verdicts: one message per part.
   */
  lookupFound(emails: string[]): Promise<Record<string, VerdictView | null>>;
  /** `clicked`: asked by the person (a click, a typed address, Send), not on sight (the daily cap). */
  verifyEmail(email: string, clicked: boolean): Promise<VerdictView>;
}

interface AddressBookOptions {
  api: VerifierApi;
  budget: number;
  /** Called after addresses changed state, with their normalized forms. */
  onChange(emails: readonly string[]): void;
  /** Schedules a batched flush (idle time in the page). */
  schedule(flush: () => void): void;
  /** Waits before asking again after the background went away; false when marking stopped. */
  wait?(ms: number): Promise<boolean>;
}

/** How long to wait before asking again when the background did not answer (it was stopped). */
const RETRY_DELAYS_MS = [500, 1000, 2000, 4000, 8000, 15000, 15000, 15000, 30000, 30000];

export class AddressBook {
  private readonly states = new Map<string, AddressState>();
  private readonly toLookUp = new Set<string>();
  private lookupQueued = false;
  /** Requests that arrived while the cache lookup was still running. */
  private readonly wantedAuto = new Set<string>();
  private readonly wantedNow = new Set<string>();
  private remaining: number;

  constructor(private readonly opts: AddressBookOptions) {
    this.remaining = opts.budget;
  }

  /** Takes up a raw address from the page; returns its normalized key. */
  add(raw: string): string {
    const { email, valid } = checkEmail(raw);
    if (this.states.has(email)) return email;
    const state: AddressState = {
      email,
      phase: valid ? 'new' : 'done',
      // Not asked of the service while its cache is read: a mark drawn meanwhile (content the
      // page just added) says so, and keeps that look when the cache has nothing.
      status: valid ? 'unverified' : 'invalid',
      verdict: null,
      error: null,
    };
    this.states.set(email, state);
    if (valid) {
      this.toLookUp.add(email);
      this.queueLookup();
    }
    return email;
  }

  get(email: string): AddressState | undefined {
    return this.states.get(email);
  }

  /** True while the address has no verdict and nobody has asked the service for it. */
  isUnverified(email: string): boolean {
    const phase = this.states.get(email)?.phase;
    return phase === 'uncached' || phase === 'failed';
  }

  budgetLeft(): number {
    return this.remaining;
  }

  /** A new page (SPA navigation): a fresh budget. */
  resetBudget(budget: number): void {
    this.remaining = budget;
  }

  /** The address was seen on screen: verify it if it is uncached and the budget allows. */
  autoVerify(email: string): void {
    const state = this.states.get(email);
    if (state?.phase === 'new' || state?.phase === 'looking') this.wantedAuto.add(email);
    if (state?.phase !== 'uncached' || this.remaining <= 0) return;
    this.remaining -= 1;
    void this.verify(email, false);
  }

  /** Explicit request (the badge's Verify, a typed value): no budget. */
  verifyNow(email: string): void {
    const state = this.states.get(email);
    if (state?.phase === 'new' || state?.phase === 'looking') this.wantedNow.add(email);
    if (state?.phase === 'uncached' || state?.phase === 'failed') void this.verify(email, true);
  }

  private queueLookup(): void {
    if (this.lookupQueued) return;
    this.lookupQueued = true;
    this.opts.schedule(() => {
      this.lookupQueued = false;
      void this.lookUp();
    });
  }

  private async lookUp(): Promise<void> {
    const emails = [...this.toLookUp];
    this.toLookUp.clear();
    if (emails.length === 0) return;
    for (const email of emails) this.patch(email, { phase: 'looking' });
    const found = new Map<string, VerdictView | null>();
    // The parts are asked side by side: the page's marks wait for the last answer.
    const parts: string[][] = [];
    for (let start = 0; start < emails.length; start += LOOKUP_MAX)
      parts.push(emails.slice(start, start + LOOKUP_MAX));
    await Promise.all(
      parts.map(async (part) => {
        try {
          const answer = await this.opts.api.lookupFound(part);
          for (const email of part) if (Object.hasOwn(answer, email)) found.set(email, answer[email] ?? null);
        } catch {
          // The cache is an optimisation: without it every address is simply uncached.
        }
      }),
    );
    for (const email of emails) {
      const verdict = found.get(email) ?? null;
      if (verdict) this.patch(email, { phase: 'done', status: verdict.status, verdict });
      else this.patch(email, { phase: 'uncached', status: 'unverified' });
    }
    this.opts.onChange(emails);
    for (const email of emails) {
      const now = this.wantedNow.delete(email);
      const auto = this.wantedAuto.delete(email);
      if (now) this.verifyNow(email);
      else if (auto) this.autoVerify(email);
    }
  }

  private async verify(email: string, clicked: boolean): Promise<void> {
    this.patch(email, { phase: 'verifying', status: 'pending', error: null });
    this.opts.onChange([email]);
    for (let attempt = 0; ; attempt++) {
      try {
        const verdict = await this.opts.api.verifyEmail(email, clicked);
        this.patch(email, { phase: 'done', status: verdict.status, verdict, error: verdict.error ?? null });
        break;
      } catch (err) {
        // A background stopped mid-request is asked again once it is back: the task it persisted
        // is joined there, so nothing is paid twice and the mark ends with its verdict.
        // Without ApiError fields (lib/api/error-fields.ts) the message never reached the
        // background or its answer was lost (the browser stopped the service worker, the
        // extension is reloading): not a verdict, not the service's error.
        const fields = apiErrorFields(err);
        const delay = RETRY_DELAYS_MS[attempt];
        if (fields === null && delay !== undefined && this.opts.wait && (await this.opts.wait(delay)))
          continue;
        const message = fields?.message ?? (err instanceof Error ? err.message : String(err));
        // Not asked because a cap was reached: found, not verified (click to verify), not an error.
        if (fields?.kind === 'rate_limited')
          this.patch(email, { phase: 'uncached', status: 'unverified', error: message });
        else this.patch(email, { phase: 'failed', status: 'error', error: message });
        break;
      }
    }
    this.opts.onChange([email]);
  }

  private patch(email: string, change: Partial<AddressState>): void {
    const state = this.states.get(email);
    if (state) Object.assign(state, change);
  }
}
