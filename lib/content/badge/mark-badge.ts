/**
 * The mark beside a target: a small element in the page's flow, right after the target, so it
 * takes room of its own and never paints over the page's text or controls (on a form field, it
 * sits inside the field's end instead: in-field.ts). No shadow root and
 * no measurement: the browser lays it out with the line. Its glyph is a shape per status
 * (status.ts), an SVG background from one adopted stylesheet (sheet.ts); no HTML strings.
 * It is a keyboard-reachable button with a screen-reader label; activating it asks its owner to
 * open the popover (one per document, in the overlay).
 */

import { isUserEvent } from '@/lib/content/marking/user-event';
import { setStyle } from './dom';
import { fitInField, leaveField } from './in-field';
import { adoptBadgeSheet, BADGE_TAG, glyphStyle, inlineHostStyle } from './sheet';
import type { PageStatus } from './status';
import { fitInCell } from './table-fit';

export { BADGE_TAG };

export interface Badge {
  readonly el: HTMLElement;
  /** Puts the badge right after `node` (styled for the tree it lands in). */
  place(node: ChildNode): void;
  update(status: PageStatus, label: string): void;
  setExpanded(open: boolean): void;
  remove(): void;
}

/** What a badge does when a person activates it, by badge element (one set of listeners per root). */
const actions = new WeakMap<Element, () => void>();
const listening = new WeakSet<Node>();

/**
 * One set of capturing listeners per document or shadow root instead of several per badge: a
 * press on a badge opens its popover (only the user's own click or key: a page cannot drive it)
 * and never reaches the page's handlers.
 */
function listenOn(root: Node, signal: AbortSignal): void {
  if (listening.has(root)) return;
  listening.add(root);
  const badgeOf = (event: Event) => {
    const first = event.composedPath()[0] as Element | undefined;
    return first?.nodeType === 1 && first.localName === BADGE_TAG ? first : null;
  };
  const press = (event: Event) => {
    const el = badgeOf(event);
    if (!el) return;
    event.preventDefault();
    event.stopPropagation();
    if (isUserEvent(event)) actions.get(el)?.();
  };
  const options = { capture: true, signal };
  root.addEventListener('click', press, options);
  root.addEventListener(
    'keydown',
    (event) => {
      const key = (event as KeyboardEvent).key;
      if (key === 'Enter' || key === ' ') press(event);
    },
    options,
  );
  for (const type of ['mousedown', 'pointerdown', 'mouseup', 'pointerup']) {
    root.addEventListener(
      type,
      (event) => {
        if (badgeOf(event)) event.stopPropagation();
      },
      options,
    );
  }
}

/** A blank badge per status, made in this script's own document and copied into any other. */
const blanks = new Map<PageStatus, HTMLElement>();

/**
 * A fresh badge element for `doc` with the attributes every badge of `status` has: one native
 * copy of a blank one (an attribute write fewer per badge than setting the status on it).
 */
function blankBadge(doc: Document, status: PageStatus): HTMLElement {
  let blank = blanks.get(status);
  if (!blank) {
    blank = document.createElement(BADGE_TAG);
    blank.tabIndex = 0;
    blank.setAttribute('role', 'button');
    blank.setAttribute('aria-haspopup', 'dialog');
    blank.setAttribute('aria-expanded', 'false');
    // Inside an editable region (Outlook's recipient wells) the badge is not part of the text.
    blank.setAttribute('contenteditable', 'false');
    blank.setAttribute('data-status', status);
    blanks.set(status, blank);
  }
  return doc.importNode(blank);
}

/**
 * A badge for `status`, with every attribute set while it is still detached (so it costs the page
 * one insertion, not a style invalidation per attribute); `place` puts it in the page.
 */
export function createBadge(
  doc: Document,
  signal: AbortSignal,
  activate: (badge: Badge) => void,
  status: PageStatus,
  label: string,
): Badge {
  const el = blankBadge(doc, status);
  let inline = false;
  let current = status;
  let labelled = label;
  el.setAttribute('aria-label', label);

  const badge: Badge = {
    el,
    place(node) {
      const root = node.getRootNode();
      listenOn(root, signal);
      if (!inline && !adoptBadgeSheet(root)) {
        inline = true;
        setStyle(el, inlineHostStyle());
        setStyle(el, glyphStyle(current));
      }
      // On a form field it sits inside the field's end (in-field.ts). In a table cell it ends, it
      // takes no width: the host table keeps its layout. Its fit is written before it goes in, so
      // the page sees one change per badge.
      const name = (node as Element).localName;
      if (name === 'input' || name === 'textarea') {
        node.after(el);
        fitInField(el, node as HTMLElement, inline, signal);
        return;
      }
      leaveField(el);
      fitInCell(el, node, inline, signal);
      node.after(el);
    },
    update(status, label) {
      if (labelled !== label) el.setAttribute('aria-label', label);
      labelled = label;
      if (current === status) return;
      current = status;
      el.setAttribute('data-status', status);
      if (inline) setStyle(el, glyphStyle(status));
    },
    setExpanded(open) {
      el.setAttribute('aria-expanded', String(open));
    },
    remove() {
      el.remove();
      leaveField(el);
    },
  };
  actions.set(el, () => activate(badge));
  return badge;
}
