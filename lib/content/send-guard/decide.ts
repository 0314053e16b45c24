/**
 * What the guard does when Send is pressed, decided synchronously from what the content script
 * already knows about each recipient: let the send through untouched, warn, or wait for verdicts
 * still coming (at most WAIT_MS, then decide again and fail open).
 */

import type { PageStatus } from '@/lib/content/badge/status';
import type { VerdictView } from '@/lib/shared/views';
import type { ComposeRecipient } from './compose';

/** A recipient's status as the marks show it (`unverified`: nobody asked the service yet). */
export type GuardStatus = PageStatus;

/** How long a pressed Send waits for verdicts still coming (docs/design.md §5). */
export const WAIT_MS = 5000;

/** What the guard reads and asks of the content script's per-page address state (AddressBook). */
export interface Verdicts {
  /** Takes up an address from the page; returns its normalized key. */
  add(raw: string): string;
  get(email: string): { status: string; verdict: VerdictView | null } | undefined;
  /** True while nobody asked the service about the address (over the page's budget, or failed). */
  isUnverified(email: string): boolean;
  /** Verifies it now (an explicit act of the user: not bound by the page budget). */
  verifyNow(email: string): void;
}

export interface GuardOptions {
  /** Also warn for `risky` recipients. */
  warnRisky: boolean;
}

export interface Flagged {
  email: string;
  /** The first element that shows it in the compose (chip, pill or field). */
  el: Element;
  typed: boolean;
  status: GuardStatus;
  reason: string | null;
  suggestion: string | null;
}

export type Decision =
  | { action: 'pass' }
  | { action: 'warn'; flagged: Flagged[] }
  | { action: 'wait'; waiting: string[] };

function statusOf(book: Verdicts, email: string): GuardStatus {
  const status = book.get(email)?.status as GuardStatus | undefined;
  // Could not be verified (the service or the background failed): nothing to warn about.
  if (status === 'error') return status;
  if (book.isUnverified(email)) return 'unverified';
  return status ?? 'pending';
}

function isBad(status: GuardStatus, opts: GuardOptions): boolean {
  return status === 'undeliverable' || status === 'invalid' || (status === 'risky' && opts.warnRisky);
}

/**
 * The decision for these recipients. Typed text counts only when it is a well-formed address
 * (a half-typed name is the webmail's business). `final` (the wait is over): what is still
 * unknown no longer holds the send back — the guard fails open.
 */
export function decide(
  recipients: readonly ComposeRecipient[],
  book: Verdicts,
  opts: GuardOptions,
  final = false,
): Decision {
  const flagged: Flagged[] = [];
  const waiting: string[] = [];
  const seen = new Set<string>();
  for (const r of recipients) {
    const email = book.add(r.raw);
    if (seen.has(email)) continue;
    seen.add(email);
    const status = statusOf(book, email);
    if (r.typed && status === 'invalid') continue;
    if (isBad(status, opts)) {
      const verdict = book.get(email)?.verdict ?? null;
      flagged.push({
        email,
        el: r.el,
        typed: r.typed,
        status,
        reason: verdict?.reason ?? null,
        suggestion: verdict?.suggestion ?? null,
      });
    } else if (status === 'pending' || status === 'unverified') {
      waiting.push(email);
    }
  }
  // A known bad recipient is worth telling at once; the others' verdicts need not hold it up.
  if (flagged.length > 0) return { action: 'warn', flagged };
  return waiting.length > 0 && !final ? { action: 'wait', waiting } : { action: 'pass' };
}
