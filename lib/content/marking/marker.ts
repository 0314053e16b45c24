/**
 * The elements taken up on the page: their addresses, their `data-verimark-status` and badge.
 * Every element is taken up once (a WeakSet of handled nodes); an element's addresses are
 * re-read when its attributes or value change.
 */

import { BADGE_TAG, type Badge, createBadge } from '@/lib/content/badge/mark-badge';
import { combineStatuses, type PageStatus } from '@/lib/content/badge/status';
import { planFit } from '@/lib/content/badge/table-fit';
import { badgeLabel } from '@/lib/content/badge/words';
import { extractTarget, type Target, type TargetKind } from '@/lib/content/extract/targets';
import { textTarget } from '@/lib/content/extract/text';
import type { AddressBook, AddressState } from './address-book';

export const STATUS_ATTR = 'data-verimark-status';

interface Taken {
  kind: TargetKind;
  /** Drawn at once, even before the cache lookup answers (see `take`). */
  eager: boolean;
  emails: string[];
  /** Where the badge goes: after this node (the element itself, or its last text with an address). */
  after: ChildNode;
  badge: Badge | null;
  /** What the badge was last drawn with (a redraw that changes nothing writes nothing). */
  drawn: string;
}

interface MarkerOptions {
  book: AddressBook;
  signal: AbortSignal;
  /** The element now carries addresses that may need verifying once visible. */
  watchVisibility(el: Element): void;
  /** A person activated the badge of `el`. */
  activate(el: Element, badge: Badge): void;
  /** `el` was redrawn (its addresses changed state). */
  rendered(el: Element): void;
}

export class Marker {
  private readonly seen = new WeakSet<Element>();
  private readonly taken = new WeakMap<Element, Taken>();
  private readonly byEmail = new Map<string, Set<Element>>();

  private readonly badges = new Set<Badge>();

  constructor(private readonly opts: MarkerOptions) {
    // Stopping takes this instance's badges off the page (another instance may be starting).
    opts.signal.addEventListener(
      'abort',
      () => {
        for (const badge of this.badges) badge.remove();
        this.badges.clear();
      },
      { once: true },
    );
  }

  /**
   * Takes up an element found by a scan; elements already handled are skipped. Its badge is drawn
   * once the cache lookup of its addresses answered, so the page gets one write per mark; `eager`
   * draws it at once instead (as unverified: the service was not asked): for content the page
   * just added, so the badge is laid out with it in the same pass. The lookup's answer changes
   * its look only when the cache has a verdict or the address is sent to be verified; a page
   * adding rows of new addresses then gets no second frame per batch for its marks.
   */
  take(el: Element, found?: Target, eager = false): void {
    // Never our own badge (its label carries the address, and a scan may meet it in a well).
    if (this.seen.has(el) || el.localName === BADGE_TAG) return;
    this.seen.add(el);
    this.refresh(el, true, found, eager);
  }

  isTaken(el: Element): boolean {
    return this.seen.has(el);
  }

  /**
   * Re-reads an element's addresses (its attributes or value changed) and returns them. `auto`
   * false (a value being typed) leaves verifying to the caller: no automatic, budgeted call.
   */
  refresh(el: Element, auto = true, found?: Target, eager = true): string[] {
    const previous = this.taken.get(el);
    const target = found ?? (previous?.kind === 'text' ? textTarget(el) : extractTarget(el));
    if (!target) {
      if (previous) this.release(el, previous);
      return [];
    }
    this.seen.add(el);
    const { book } = this.opts;
    const raw = target.emails;
    const emails =
      raw.length === 1 ? [book.add(raw[0] as string)] : [...new Set(raw.map((r) => book.add(r)))];
    const after = target.after ?? el;
    if (previous && same(previous.emails, emails) && previous.after === after) return emails;
    if (previous) for (const email of previous.emails) this.byEmail.get(email)?.delete(el);
    const taken: Taken = {
      kind: target.kind,
      eager: previous?.eager ?? eager,
      emails,
      after,
      badge: previous?.badge ?? null,
      drawn: '',
    };
    this.taken.set(el, taken);
    for (const email of emails) {
      const set = this.byEmail.get(email) ?? new Set<Element>();
      this.byEmail.set(email, set);
      set.add(el);
    }
    this.render(el, taken);
    // Seen on screen matters only while the page's budget can still pay for it.
    if (auto && emails.length > 0 && book.budgetLeft() > 0) this.opts.watchVisibility(el);
    return emails;
  }

  /** The badge drawn for `el`, if any. */
  badgeOf(el: Element): Badge | null {
    return this.taken.get(el)?.badge ?? null;
  }

  /** Lets go of an element about to leave the page (its badge goes at once, not with a later scan). */
  forget(el: Element): void {
    const taken = this.taken.get(el);
    if (taken) this.release(el, taken);
  }

  addressesOf(el: Element): readonly string[] {
    return this.taken.get(el)?.emails ?? [];
  }

  kindOf(el: Element): TargetKind | null {
    return this.taken.get(el)?.kind ?? null;
  }

  /** Every connected element taken up, with its addresses (page actions). */
  *elements(): Generator<[Element, readonly string[]]> {
    const done = new Set<Element>();
    for (const elements of this.byEmail.values()) {
      for (const el of elements) {
        if (done.has(el) || !el.isConnected) continue;
        done.add(el);
        yield [el, this.addressesOf(el)];
      }
    }
  }

  /** Reads where the badges still to be drawn for these addresses fit, before any is written (table-fit.ts). */
  plan(emails: readonly string[]): void {
    for (const email of emails) {
      for (const el of this.byEmail.get(email) ?? []) {
        const taken = this.taken.get(el);
        if (taken && !taken.badge) planFit(taken.after);
      }
    }
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

  /** The states of an element's addresses, in order. */
  statesOf(el: Element): AddressState[] {
    const { book } = this.opts;
    return this.addressesOf(el)
      .map((email) => book.get(email))
      .filter((s) => s !== undefined);
  }

  private release(el: Element, taken: Taken): void {
    for (const email of taken.emails) this.byEmail.get(email)?.delete(el);
    if (taken.badge) this.drop(taken.badge);
    this.taken.delete(el);
    el.removeAttribute(STATUS_ATTR);
  }

  private drop(badge: Badge): void {
    badge.remove();
    this.badges.delete(badge);
  }

  private render(el: Element, taken: Taken): void {
    // One pass over the element's addresses, no arrays: a page may render a thousand at once.
    let status: PageStatus | null = null;
    for (const email of taken.emails) {
      const state = this.opts.book.get(email);
      if (!state) continue;
      // Not drawn yet while the cache is being asked: the lookup's answer draws it (update).
      if (!taken.badge && !taken.eager && (state.phase === 'new' || state.phase === 'looking')) return;
      status = combineStatuses(status, state.status);
    }
    if (status === null) {
      if (taken.badge) this.drop(taken.badge);
      taken.badge = null;
      taken.drawn = '';
      el.removeAttribute(STATUS_ATTR);
      return;
    }
    // Not read back on a first drawing (nothing of ours is there yet): a DOM call fewer per mark.
    if (taken.drawn === '' || el.getAttribute(STATUS_ATTR) !== status) el.setAttribute(STATUS_ATTR, status);
    let badge = taken.badge;
    if (!badge || taken.drawn !== status) {
      taken.drawn = status;
      const label = badgeLabel(status, taken.emails.join(', '));
      if (badge) badge.update(status, label);
      else {
        badge = createBadge(
          el.ownerDocument,
          this.opts.signal,
          (b) => this.opts.activate(el, b),
          status,
          label,
        );
        taken.badge = badge;
        this.badges.add(badge);
      }
    }
    // In the flow, right after the target: it takes room of its own instead of covering the page.
    if (badge.el.previousSibling !== taken.after && taken.after.parentNode) badge.place(taken.after);
    this.opts.rendered(el);
  }
}

function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
