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

export function createBadge(doc: Document, signal: AbortSignal, activate: (badge: Badge) => void): Badge {
  const el = doc.createElement(BADGE_TAG);
  // The glyph is the badge's ::before in the adopted sheet; a child element only where styles go inline.
  let glyph: HTMLElement | null = null;
  el.tabIndex = 0;
  el.setAttribute('role', 'button');
  el.setAttribute('aria-haspopup', 'dialog');
  el.setAttribute('aria-expanded', 'false');
  // Inside an editable region (Outlook's recipient wells) the badge is not part of the text.
  el.setAttribute('contenteditable', 'false');

  const badge: Badge = {
    el,
    place(node) {
      node.after(el);
      const root = el.getRootNode();
      listenOn(root, signal);
      if (!glyph && !adoptBadgeSheet(root)) {
        glyph = doc.createElement(GLYPH_TAG);
        el.append(glyph);
        setStyle(el, inlineHostStyle());
        if (el.dataset.status) setStyle(glyph, inlineGlyphStyle(el.dataset.status as PageStatus));
      }
    },
    update(status, label) {
      if (el.getAttribute('aria-label') !== label) el.setAttribute('aria-label', label);
      if (el.dataset.status === status) return;
      el.dataset.status = status;
      if (glyph) setStyle(glyph, inlineGlyphStyle(status));
    },
    setExpanded(open) {
      el.setAttribute('aria-expanded', String(open));
    },
    remove() {
      el.remove();
    },
  };
  actions.set(el, () => activate(badge));
  return badge;
}
