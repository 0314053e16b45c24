/**
 * The elements taken up on the page: their addresses, their `data-verimark-status` and badge.
 * Every element is taken up once (a WeakSet of handled nodes); an element's addresses are
 * re-read when its attributes or value change.
 */
import type { MarkStatus } from '../shared/messages';
import type { AddressBook } from './address-book';
import { type Badge, createBadge } from './badge/badge';
import type { Placer } from './badge/place';
import type { AddressLine } from './badge/popover';
import { extractTarget, type TargetKind } from './extract/targets';
import { combineStatuses } from './status';

export const STATUS_ATTR = 'data-verimark-status';

interface Taken {
  kind: TargetKind;
  emails: string[];
  badge: Badge | null;
}

export interface MarkerOptions {
  book: AddressBook;
  placer: Placer;
  signal: AbortSignal;
  /** The element now carries addresses that may need verifying once visible. */
  watchVisibility(el: Element): void;
}

export class Marker {
  private readonly seen = new WeakSet<Element>();
  private readonly taken = new WeakMap<Element, Taken>();
  private readonly byEmail = new Map<string, Set<Element>>();

  constructor(private readonly opts: MarkerOptions) {}

  /** Takes up an element found by a scan; elements already handled are skipped. */
  take(el: Element): void {
    if (this.seen.has(el)) return;
    this.seen.add(el);
    this.refresh(el);
  }

  /**
   * Re-reads an element's addresses (its attributes or value changed) and returns them. `auto`
   * false (a value being typed) leaves verifying to the caller: no automatic, budgeted call.
   */
  refresh(el: Element, auto = true): string[] {
    const target = extractTarget(el);
    const previous = this.taken.get(el);
    if (!target) {
      if (previous) this.release(el, previous);
      return [];
    }
    this.seen.add(el);
    const emails = [...new Set(target.emails.map((raw) => this.opts.book.add(raw)))];
    if (previous && same(previous.emails, emails)) return emails;
    if (previous) for (const email of previous.emails) this.byEmail.get(email)?.delete(el);
    const taken: Taken = { kind: target.kind, emails, badge: previous?.badge ?? null };
    this.taken.set(el, taken);
    for (const email of emails) {
      const set = this.byEmail.get(email) ?? new Set<Element>();
      this.byEmail.set(email, set);
      set.add(el);
    }
    this.render(el, taken);
    if (auto && emails.length > 0) this.opts.watchVisibility(el);
    return emails;
  }

  addressesOf(el: Element): readonly string[] {
    return this.taken.get(el)?.emails ?? [];
  }

  kindOf(el: Element): TargetKind | null {
    return this.taken.get(el)?.kind ?? null;
  }

  /** Redraws every element carrying one of these addresses. */
  update(emails: readonly string[]): void {
    const elements = new Set<Element>();
    for (const email of emails) {
      for (const el of this.byEmail.get(email) ?? []) {
        if (el.isConnected) elements.add(el);
        else this.byEmail.get(email)?.delete(el);
      }
    }
    for (const el of elements) {
      const taken = this.taken.get(el);
      if (taken) this.render(el, taken);
    }
  }

  /** Every connected element with an address still waiting for a verdict. */
  unverifiedElements(): Element[] {
    const out = new Set<Element>();
    for (const [email, elements] of this.byEmail) {
      if (!this.opts.book.isUnverified(email)) continue;
      for (const el of elements) if (el.isConnected) out.add(el);
    }
    return [...out];
  }

  private release(el: Element, taken: Taken): void {
    for (const email of taken.emails) this.byEmail.get(email)?.delete(el);
    taken.badge?.remove();
    this.taken.delete(el);
    el.removeAttribute(STATUS_ATTR);
  }

  private render(el: Element, taken: Taken): void {
    const { book } = this.opts;
    const states = taken.emails.map((email) => book.get(email)).filter((s) => s !== undefined);
    const status: MarkStatus | null = combineStatuses(states.map((s) => s.status));
    if (status === null) {
      taken.badge?.remove();
      taken.badge = null;
      el.removeAttribute(STATUS_ATTR);
      return;
    }
    if (el.getAttribute(STATUS_ATTR) !== status) el.setAttribute(STATUS_ATTR, status);
    const lines: AddressLine[] = states.map((s) => ({
      email: s.email,
      status: s.status,
      unverified: book.isUnverified(s.email),
      reason: s.verdict?.reason ?? null,
      suggestion: s.verdict?.suggestion ?? null,
      error: s.error,
      cached: s.verdict?.cached ?? false,
    }));
    if (!taken.badge?.host.isConnected) {
      taken.badge?.remove();
      taken.badge = createBadge(el.ownerDocument, this.opts.signal);
      this.opts.placer.attach(el, taken.badge.host);
    }
    taken.badge.update({
      status,
      unverified: lines.some((l) => l.unverified),
      lines,
      onVerify: () => {
        for (const email of taken.emails) book.verifyNow(email);
      },
    });
  }
}

function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
