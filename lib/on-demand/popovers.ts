/**
 * Part of the on-demand script (entrypoints/popover.ts; the marking script holds a LazyPopovers,
 * lib/content/overlay/load.ts). The badge's popover, one at a time per document, in the overlay: what it shows for an element,
 * and its actions — "Verify", "Replace" with the suggestion in a field (the page sees a normal
 * input and change) or for a compose recipient (the chip is swapped through the compose's own
 * controls, lib/on-demand/webmail/recipient-swap.ts), and "Undo" of that replacement in one click. After a
 * recipient swap the popover moves to the new chip's badge as soon as the compose has made it.
 */

import type { Badge } from '@/lib/content/badge/mark-badge';
import { statusOfAll } from '@/lib/content/badge/status';
import { statusWord, t } from '@/lib/content/badge/words';
import type { AddressBook } from '@/lib/content/marking/address-book';
import type { Marker } from '@/lib/content/marking/marker';
import type { PopoversApi } from '@/lib/content/overlay/load';
import { Overlay } from './overlay';
import type { PopoverLine, PopoverView } from './popover-view';
import { findRecipient, type RecipientSwap, recipientFieldOf, swapRecipient } from './webmail/recipient-swap';

type Field = HTMLInputElement | HTMLTextAreaElement;

interface Replaced {
  field: Field;
  before: string;
  by: string;
}

export class Popovers implements PopoversApi {
  private readonly overlays = new WeakMap<Document, Overlay>();
  private openEl: Element | null = null;
  private openBadge: Badge | null = null;
  /** Replacements that can be undone, by the address now in the field. */
  private readonly replaced = new Map<string, Replaced>();
  /** Recipient swaps that can be undone, by the address of the new chip. */
  private readonly swaps = new Map<string, RecipientSwap>();
  /** A chip the compose is about to make: the open popover moves to it once it is marked. */
  private awaited: { field: Element; address: string } | null = null;

  constructor(
    private readonly marker: () => Marker,
    private readonly book: AddressBook,
    private readonly signal: AbortSignal,
  ) {}

  /** A person activated a badge: open its popover, or close it when it is already open. */
  toggle(el: Element, badge: Badge): void {
    if (this.signal.aborted) return;
    const overlay = this.overlayOf(el.ownerDocument);
    if (overlay.isOpenFor(badge.el)) {
      overlay.close(true);
      return;
    }
    // The popover open elsewhere closes first (its callback clears what was open).
    if (this.openEl) this.overlays.get(this.openEl.ownerDocument)?.close(false);
    this.openEl = el;
    this.openBadge = badge;
    badge.setExpanded(true);
    overlay.open(badge.el, this.view(el), () => {
      this.openBadge?.setExpanded(false);
      this.openEl = null;
      this.openBadge = null;
      this.awaited = null;
    });
  }

  /** The element was redrawn: refresh its popover if it is the open one, or move there if awaited. */
  rendered(el: Element): void {
    const awaited = this.awaited;
    if (awaited && this.openEl && awaited.field.contains(el)) {
      if (findRecipient(awaited.field, awaited.address) === el) this.follow(el);
      return;
    }
    if (el !== this.openEl || !this.openBadge) return;
    this.overlays.get(el.ownerDocument)?.update(this.view(el));
  }

  private overlayOf(doc: Document): Overlay {
    let overlay = this.overlays.get(doc);
    if (!overlay) {
      overlay = new Overlay(doc, this.signal);
      this.overlays.set(doc, overlay);
    }
    return overlay;
  }

  private view(el: Element): PopoverView {
    const marker = this.marker();
    const states = marker.statesOf(el);
    const field = isField(el) && (marker.kindOf(el) === 'input' || marker.kindOf(el) === 'recipient-input');
    const recipientField = field ? null : recipientFieldOf(el);
    const status = statusOfAll(states.map((s) => s.status)) ?? 'unverified';
    const lines: PopoverLine[] = states.map((s) => ({
      email: s.email,
      status: s.status,
      reason: s.verdict?.reason ?? null,
      suggestion: s.verdict?.suggestion ?? null,
      error: s.error,
      cached: s.verdict?.cached ?? false,
      canReplace: field || recipientField !== null,
      replacedBy: null,
    }));
    for (const r of this.replaced.values()) {
      if (r.field !== el) continue;
      const line = lines.find((l) => l.email === this.book.add(r.by));
      if (line) line.replacedBy = r.by;
    }
    for (const line of lines) {
      const done = this.swaps.get(line.email);
      if (done && recipientField === done.field) line.replacedBy = done.by;
    }
    return {
      label: t('content_dialog_label', statusWord(status)),
      status,
      lines,
      onVerify: () => {
        for (const s of marker.statesOf(el)) this.book.verifyNow(s.email);
      },
      onReplace: (line) => {
        if (!line.suggestion) return;
        if (isField(el)) this.replace(el, line.email, line.suggestion);
        else if (recipientField) this.swap(el, line.suggestion);
      },
      onUndo: (line) => (this.swaps.has(line.email) ? this.unswap(line.email) : this.undo(line.email)),
      onClose: () => this.overlays.get(el.ownerDocument)?.close(true),
    };
  }

  private replace(field: Field, email: string, suggestion: string): void {
    const before = field.value;
    const at = before.toLowerCase().indexOf(email.toLowerCase());
    const next = at >= 0 ? before.slice(0, at) + suggestion + before.slice(at + email.length) : suggestion;
    this.replaced.set(this.book.add(suggestion), { field, before, by: suggestion });
    this.write(field, next);
  }

  private undo(email: string): void {
    const r = this.replaced.get(email);
    if (!r) return;
    this.replaced.delete(email);
    this.write(r.field, r.before);
  }

  /** Swaps a compose recipient for `to` as the user would; the popover follows to the new chip. */
  private swap(el: Element, to: string): RecipientSwap | null {
    const marker = this.marker();
    marker.forget(el);
    const done = swapRecipient(el, to);
    if (!done) {
      // The compose did not take it: the chip stays, with its mark.
      if (el.isConnected) marker.refresh(el);
      this.rendered(el);
      return null;
    }
    this.swaps.set(this.book.add(done.by), done);
    this.await(done.field, done.by);
    return done;
  }

  private unswap(email: string): void {
    const done = this.swaps.get(email);
    const now = done && findRecipient(done.field, done.by);
    if (!done || !now) return;
    this.swaps.delete(email);
    const marker = this.marker();
    marker.forget(now);
    if (swapRecipient(now, done.before)) this.await(done.field, done.before);
    else if (now.isConnected) marker.refresh(now);
  }

  /** Waits for the compose to show a chip for `address` in `field` (at once, or when it is marked). */
  private await(field: Element, address: string): void {
    this.awaited = { field, address };
    const now = findRecipient(field, address);
    if (now) this.follow(now);
    // Until then the popover stays by the field (the chip it was about is gone).
    else this.overlays.get(field.ownerDocument)?.moveTo(field as HTMLElement);
  }

  /** Takes up the new chip now (a person asked: verified at once) and moves the popover to its badge. */
  private follow(el: Element): void {
    const marker = this.marker();
    // Drawn at once, not after the cache lookup: a person is waiting for this chip.
    if (!marker.isTaken(el)) marker.take(el, undefined, true);
    for (const email of marker.addressesOf(el)) this.book.verifyNow(email);
    const badge = marker.badgeOf(el);
    const overlay = this.overlays.get(el.ownerDocument);
    // A chip the page had already taken up may still wait for its lookup to draw its badge: the
    // wait stays, and rendered() comes back here once the badge is drawn.
    if (!badge || !overlay) return;
    this.awaited = null;
    this.openBadge?.setExpanded(false);
    this.openEl = el;
    this.openBadge = badge;
    badge.setExpanded(true);
    overlay.moveTo(badge.el);
    overlay.update(this.view(el));
  }

  /** Writes a field as typing would (frameworks see input and change), then verifies its new value. */
  private write(field: Field, value: string): void {
    field.value = value;
    field.dispatchEvent(new Event('input', { bubbles: true }));
    field.dispatchEvent(new Event('change', { bubbles: true }));
    for (const email of this.marker().refresh(field, false)) this.book.verifyNow(email);
    this.rendered(field);
  }
}

function isField(el: Element): el is Field {
  return el.localName === 'input' || el.localName === 'textarea';
}
