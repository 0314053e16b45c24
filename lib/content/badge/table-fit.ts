/**
 * Marks in table cells never change the host table's layout. A badge that ends its cell's content
 * (nothing but whitespace after it, up to the `td`/`th`) is laid out with zero advance: in the
 * line, right after the address, but with a negative end margin as wide as itself, so the cell's
 * min/max-content widths — and so the column widths and row heights — stay what the page drew
 * (measured in Chromium: an in-flow badge grew the CRM fixture's email column by 20 px). It scrolls
 * and wraps with the text like any inline box; no position is computed by script.
 *
 * Zero advance means the badge may reach past the cell's content box, so once placed it is fitted
 * (all pending badges in one read pass, then one write pass, in an animation frame): the room
 * from the address's end to where the next cell's content starts (or its own cell's padding edge
 * in the last column). Full size if that room holds it, a compact badge if not; if even that does
 * not fit, the compact badge is pulled back over the end of its own address — never over another
 * cell's text. A badge with content after it in its cell keeps taking room of its own, as
 * everywhere else (there the column may grow; see README "Marks on pages").
 */
import { type Style, setStyle } from './dom';
import { COMPACT, inlineHostStyle, MARGIN, SIZE } from './sheet';

export type Fit = 'full' | 'compact' | 'over';

const PHRASING_DEPTH = 4;
/** Badges waiting to be fitted, and whether each is styled inline. */
const pending = new Map<HTMLElement, boolean>();
/** Every badge fitted in a cell (fitted again on resize; dropped once off the page). */
const fitted = new Map<HTMLElement, boolean>();
const resizing = new WeakSet<Window>();
let frame = 0;

/** Whether the badge ends its table cell's content (no text or element after it up to the cell). */
export function endsCell(badge: Element): boolean {
  let node: Node = badge;
  for (let depth = 0; depth <= PHRASING_DEPTH; depth++) {
    for (let next = node.nextSibling; next; next = next.nextSibling) {
      if (next.nodeType === 3 && next.textContent?.trim()) return false;
      if (next.nodeType === 1 && !(next as Element).localName.startsWith('verimark-')) return false;
    }
    const parent = node.parentElement;
    if (!parent) return false;
    if (parent.localName === 'td' || parent.localName === 'th') return true;
    node = parent;
  }
  return false;
}

/**
 * The margins and size of a fit: zero advance (the end margin takes back the start margin and the
 * width). `start`: the start margin (default: the full badge's margin, 1 px for a compact one).
 */
export function fitStyle(fit: Fit, start = fit === 'full' ? MARGIN : 1): Style {
  const size = fit === 'full' ? SIZE : COMPACT;
  return {
    width: `${size}px`,
    height: `${size}px`,
    'margin-inline-start': `${start}px`,
    'margin-inline-end': `${-(size + start)}px`,
  };
}

/** Sets the badge's fit: the sheet styles `data-fit`; inline styles where there is no sheet, or for a measured start. */
function applyFit(badge: HTMLElement, fit: Fit | null, inline: boolean, start?: number): void {
  const props = ['width', 'height', 'margin-inline-start', 'margin-inline-end'];
  if (fit === null) {
    delete badge.dataset.fit;
    for (const prop of props) badge.style.removeProperty(prop);
    if (inline) setStyle(badge, inlineHostStyle());
    return;
  }
  badge.dataset.fit = fit;
  if (inline || start !== undefined) setStyle(badge, fitStyle(fit, start));
  else for (const prop of props) badge.style.removeProperty(prop);
}

/**
 * After placing: a badge ending its table cell gets zero advance at once (so the table never moves,
 * not even for a frame), then its size is fitted with the others placed in the same frame, and
 * again when the window is resized (the columns may have narrowed).
 * `inline`: the badge is styled inline (no sheet could be adopted in its root).
 */
export function fitInCell(badge: HTMLElement, inline: boolean, signal: AbortSignal): void {
  if (!endsCell(badge)) {
    if (badge.dataset.fit) applyFit(badge, null, inline);
    fitted.delete(badge);
    return;
  }
  if (!badge.dataset.fit) applyFit(badge, 'full', inline);
  fitted.set(badge, inline);
  pending.set(badge, inline);
  const win = badge.ownerDocument.defaultView;
  if (!win) return;
  if (!resizing.has(win)) {
    resizing.add(win);
    win.addEventListener('resize', () => refit(win), { passive: true, signal });
  }
  schedule(win);
}

function refit(win: Window): void {
  for (const [badge, inline] of fitted) {
    if (badge.isConnected) pending.set(badge, inline);
    else fitted.delete(badge);
  }
  schedule(win);
}

function schedule(win: Window): void {
  if (frame) return;
  frame = win.requestAnimationFrame(() => {
    frame = 0;
    const batch = [...pending];
    pending.clear();
    for (const b of fitted.keys()) if (!b.isConnected) fitted.delete(b);
    // All reads first (one layout), then all writes.
    const fits = batch.map(([b]) => (b.isConnected ? measure(b) : null));
    batch.forEach(([b, styledInline], i) => {
      const fit = fits[i];
      if (fit) applyFit(b, fit.fit, styledInline, fit.start);
    });
  });
}

/** Where the next cell's content starts (or this cell's padding edge), in viewport x. */
function limitOf(cell: Element, view: Window): number {
  const next = cell.nextElementSibling;
  if (next && (next.localName === 'td' || next.localName === 'th')) {
    const style = view.getComputedStyle(next);
    if (style.display !== 'none') {
      const left = next.getBoundingClientRect().left;
      return left + Number.parseFloat(style.borderLeftWidth) + Number.parseFloat(style.paddingLeft);
    }
  }
  const style = view.getComputedStyle(cell);
  return cell.getBoundingClientRect().right - Number.parseFloat(style.borderRightWidth);
}

function measure(badge: HTMLElement): { fit: Fit; start?: number } | null {
  const cell = badge.closest('td,th');
  const view = badge.ownerDocument.defaultView;
  if (!cell || !view) return null;
  // Where the address ends: the badge's left edge less its start margin.
  const end = badge.getBoundingClientRect().left - Number.parseFloat(view.getComputedStyle(badge).marginLeft);
  const room = limitOf(cell, view) - end;
  if (room >= MARGIN + SIZE + 1) return { fit: 'full' };
  // Compact: centred in the room; if even that is too narrow, pulled back over its own address.
  if (room >= COMPACT + 2) return { fit: 'compact', start: Math.floor((room - COMPACT) / 2) };
  return { fit: 'over', start: Math.floor(room - COMPACT - 1) };
}
