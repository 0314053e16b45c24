/**
 * The badge's popover, one at a time per document, in the overlay: what it shows for an element,
 * and its actions — "Verify", "Replace" with the suggestion in a field (the page sees a normal
 * input and change), and "Undo" of that replacement in one click.
 */
import type { AddressBook } from './address-book';
import type { Badge } from './badge/badge';
import type { Marker } from './marker';
import { loadOverlay, type OverlayApi } from './overlay/load';
import type { PopoverLine, PopoverView } from './overlay/popover-view';
import { combineStatuses } from './status';
import { statusWord, t } from './words';

type Field = HTMLInputElement | HTMLTextAreaElement;

interface Replaced {
  field: Field;
  before: string;
  by: string;
}

export class Popovers {
  private readonly overlays = new WeakMap<Document, OverlayApi>();
  private openEl: Element | null = null;
  private openBadge: Badge | null = null;
  /** Replacements that can be undone, by the address now in the field. */
  private readonly replaced = new Map<string, Replaced>();

  constructor(
    private readonly marker: () => Marker,
    private readonly book: AddressBook,
    private readonly signal: AbortSignal,
  ) {}

  /** A person activated a badge: open its popover, or close it when it is already open. */
  async toggle(el: Element, badge: Badge): Promise<void> {
    const overlay = await this.overlayOf(el.ownerDocument);
    if (this.signal.aborted) return;
    if (overlay.isOpenFor(badge.el)) {
      overlay.close(true);
      return;
    }
    this.openEl = el;
    this.openBadge = badge;
    badge.setExpanded(true);
    overlay.open(badge.el, this.view(el), () => {
      badge.setExpanded(false);
      if (this.openBadge === badge) {
        this.openEl = null;
        this.openBadge = null;
      }
    });
  }

  /** The element was redrawn: refresh its popover if it is the open one. */
  rendered(el: Element): void {
    if (el !== this.openEl || !this.openBadge) return;
    this.overlays.get(el.ownerDocument)?.update(this.view(el));
  }

  private async overlayOf(doc: Document): Promise<OverlayApi> {
    let overlay = this.overlays.get(doc);
    if (!overlay) {
      overlay = (await loadOverlay()).createOverlay(doc, this.signal);
      this.overlays.set(doc, overlay);
    }
    return overlay;
  }

  private view(el: Element): PopoverView {
    const marker = this.marker();
    const states = marker.statesOf(el);
    const field = isField(el) && (marker.kindOf(el) === 'input' || marker.kindOf(el) === 'recipient-input');
    const status = combineStatuses(states.map((s) => s.status)) ?? 'unverified';
    const lines: PopoverLine[] = states.map((s) => ({
      email: s.email,
      status: s.status,
      reason: s.verdict?.reason ?? null,
      suggestion: s.verdict?.suggestion ?? null,
      error: s.error,
      cached: s.verdict?.cached ?? false,
      canReplace: field,
      replacedBy: null,
    }));
    for (const r of this.replaced.values()) {
      if (r.field !== el) continue;
      const line = lines.find((l) => l.email === this.book.add(r.by));
      if (line) line.replacedBy = r.by;
    }
    return {
      label: t('content_dialog_label', statusWord(status)),
      status,
      lines,
      onVerify: () => {
        for (const s of marker.statesOf(el)) this.book.verifyNow(s.email);
      },
      onReplace: (line) => {
        if (isField(el) && line.suggestion) this.replace(el, line.email, line.suggestion);
      },
      onUndo: (line) => this.undo(line.email),
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
