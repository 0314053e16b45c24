/**
 * The mark beside a target: a small element in the page's flow, right after the target, so it
 * takes room of its own and never paints over the page's text or controls. No shadow root and
 * no measurement: the browser lays it out with the line. Its glyph is a shape per status
 * (status.ts), styled by one adopted stylesheet (sheet.ts); no HTML strings, no images.
 * It is a keyboard-reachable button with a screen-reader label; activating it asks its owner to
 * open the popover (one per document, in the overlay).
 */
import type { PageStatus } from '../status';
import { isUserEvent } from '../user-event';
import { setStyle } from './dom';
import { adoptBadgeSheet, BADGE_TAG, GLYPH_TAG, inlineGlyphStyle, inlineHostStyle } from './sheet';

export { BADGE_TAG };

export interface Badge {
  readonly el: HTMLElement;
  /** Puts the badge right after `node` (styled for the tree it lands in). */
  place(node: ChildNode): void;
  update(status: PageStatus, label: string): void;
  setExpanded(open: boolean): void;
  remove(): void;
}

export function createBadge(doc: Document, signal: AbortSignal, activate: (badge: Badge) => void): Badge {
  const el = doc.createElement(BADGE_TAG);
  const glyph = doc.createElement(GLYPH_TAG);
  el.append(glyph);
  el.tabIndex = 0;
  el.setAttribute('role', 'button');
  el.setAttribute('aria-haspopup', 'dialog');
  el.setAttribute('aria-expanded', 'false');
  // Inside an editable region (Outlook's recipient wells) the badge is not part of the text.
  el.setAttribute('contenteditable', 'false');
  let inline = false;

  const badge: Badge = {
    el,
    place(node) {
      node.after(el);
      if (!inline && !adoptBadgeSheet(el.getRootNode())) {
        inline = true;
        setStyle(el, inlineHostStyle());
        if (el.dataset.status) setStyle(glyph, inlineGlyphStyle(el.dataset.status as PageStatus));
      }
    },
    update(status, label) {
      if (el.getAttribute('aria-label') !== label) el.setAttribute('aria-label', label);
      if (el.dataset.status === status) return;
      el.dataset.status = status;
      if (inline) setStyle(glyph, inlineGlyphStyle(status));
    },
    setExpanded(open) {
      el.setAttribute('aria-expanded', String(open));
    },
    remove() {
      el.remove();
    },
  };

  // Only a person's click or key opens it: a page cannot drive the badge with synthetic events.
  const onActivate = (event: Event) => {
    event.preventDefault();
    event.stopPropagation();
    if (isUserEvent(event)) activate(badge);
  };
  el.addEventListener('click', onActivate, { signal });
  el.addEventListener(
    'keydown',
    (event) => {
      if (event.key === 'Enter' || event.key === ' ') onActivate(event);
    },
    { signal },
  );
  for (const type of ['mousedown', 'pointerdown', 'mouseup', 'pointerup']) {
    el.addEventListener(type, (event) => event.stopPropagation(), { signal });
  }
  return badge;
}
