/**
 * Marks in table cells never change the host table's layout. A badge that ends its cell's content
 * (nothing but whitespace after it, up to the `td`/`th`) is laid out with zero advance: in the
 * line, right after the address, but with a negative end margin as wide as itself, so the cell's
 * min/max-content widths — and so the column widths and row heights — stay what the page drew
 * (in Chromium an in-flow badge widened the CRM fixture's email column). It scrolls
 * and wraps with the text like any inline box; no position is computed by script.
 *
 * Zero advance means the badge may reach past the cell's content box, so it is fitted to the room
 * from the address's end to where the next cell's content starts (or its own cell's padding edge
 * in the last column). Full size if that room holds it, a compact badge if not; if even that does
 * not fit, the compact badge is pulled back over the end of its own address — never over another
 * cell's text. A badge with content after it in its cell keeps taking room of its own, as
 * everywhere else (there the column may grow; docs/design.md §5, Placement).
 *
 * Zero advance also means placing a badge moves nothing, so the fit can be read before the badge
 * is there: `planFit` reads the address's end while the page's layout is still clean (the cache
 * lookup's answer, before its marks are written), and the badge is placed already fitted — laid
 * out once, with the page's own pass. Any write to a fit lays out the whole table again (a
 * transform instead of a size change costs even more), so fits are written only when they
 * change. Badges placed without a plan (rows the page adds, marked before they are laid out) are
 * fitted in an animation frame: all reads, then the writes that differ.
 */
import { setStyle } from './dom';
import { COMPACT, type Fit, fitStyle, inlineHostStyle, MARGIN, SIZE, startOf } from './sheet';

const PHRASING_DEPTH = 4;
/** Badges waiting to be fitted, and whether each is styled inline. */
const pending = new Map<HTMLElement, boolean>();
/** Every badge fitted in a cell (fitted again on resize; dropped once off the page). */
const fitted = new Map<HTMLElement, boolean>();
const resizing = new WeakSet<Window>();
/**
 * Fits read before placing, by the node the badge will follow: good only for the script that read
 * them (the lookup's answer and the slice it writes at once); badges placed later, after the page
 * may have changed, are fitted in a frame like any other.
 */
const plans = new Map<Node, Plan>();
/** The fit last written per badge (writes that change nothing are skipped: each costs a layout). */
const written = new WeakMap<HTMLElement, string>();
/** The start margin that fit gave each badge (so a frame's reads need no computed style of it). */
const starts = new WeakMap<HTMLElement, number>();
/**
 * The windows asked for a fit frame (a badge's own: the top document's or a same-origin frame's).
 * Per window, so a frame that never renders (a hidden iframe) cannot stop fitting elsewhere.
 */
const frames = new WeakSet<Window>();
/** Badges were placed since the last frame: layout is not clean, reading it would force it. */
let placed = false;
/** How many badges `fitted` held after its last sweep for badges gone from the page. */
let sweptAt = 0;

type Plan = { fit: Fit; start?: number };

/** Whether a badge placed right after `node` (or `node`, a badge itself) ends its table cell's content: no text or element after it up to the cell. */
export function endsCell(node: Node): boolean {
  return cellEnded(node) !== null;
}

/** The table cell whose content `start` ends (see endsCell), or null. */
function cellEnded(start: Node): Element | null {
  let node = start;
  for (let depth = 0; depth <= PHRASING_DEPTH; depth++) {
    for (let next = node.nextSibling; next; next = next.nextSibling) {
      if (next.nodeType === 3 && next.textContent?.trim()) return null;
      if (next.nodeType === 1 && !(next as Element).localName.startsWith('verimark-')) return null;
    }
    const parent = node.parentElement;
    if (!parent) return null;
    if (parent.localName === 'td' || parent.localName === 'th') return parent;
    node = parent;
  }
  return null;
}

/** Sets the badge's fit: the sheet styles `data-fit`; inline styles where there is no sheet, or for a measured start. */
function applyFit(badge: HTMLElement, fit: Fit | null, inline: boolean, start?: number): void {
  const styled = inline || start !== undefined;
  // '!': this fit left inline styles to take off again.
  const key = `${fit}${start}${styled ? '!' : ''}`;
  const before = written.get(badge);
  if (before === key) return;
  written.set(badge, key);
  // Inline sizes come off only where an earlier fit wrote them (a new badge has none to take off).
  if (before?.endsWith('!')) for (const prop of FIT_PROPS) badge.style.removeProperty(prop);
  if (fit === null) {
    starts.delete(badge);
    badge.removeAttribute('data-fit');
    if (inline) setStyle(badge, inlineHostStyle());
  } else {
    badge.setAttribute('data-fit', fit);
    starts.set(badge, start ?? startOf(fit));
    if (styled) setStyle(badge, fitStyle(fit, start));
  }
}

const FIT_PROPS = ['width', 'height', 'margin-inline-start', 'margin-inline-end'];

/**
 * Right before the badge is placed after `after` (its attributes are written while it is still
 * out of the page: no style invalidation, no attribute record for the page's own observers): a
 * badge that will end its table cell gets zero advance at once (so the table never moves, not
 * even for a frame), then its size is fitted with the others placed in the same frame, and again
 * when the window is resized (the columns may have narrowed).
 * `inline`: the badge is styled inline (no sheet could be adopted in its root).
 */
export function fitInCell(badge: HTMLElement, after: Node, inline: boolean, signal: AbortSignal): void {
  const win = badge.ownerDocument.defaultView;
  placed = true;
  if (win) schedule(win);
  // A plan was read for the node the badge will follow: that node ends its cell, so the badge will.
  const plan = plans.get(after);
  if (plan) applyFit(badge, plan.fit, inline, plan.start);
  else if (!endsCell(after)) {
    if (badge.hasAttribute('data-fit')) applyFit(badge, null, inline);
    fitted.delete(badge);
    return;
  } else {
    if (!badge.hasAttribute('data-fit')) applyFit(badge, 'full', inline);
    pending.set(badge, inline);
  }
  fitted.set(badge, inline);
  if (win && !resizing.has(win)) {
    resizing.add(win);
    win.addEventListener('resize', () => refit(win), { passive: true, signal });
  }
}

function refit(win: Window): void {
  for (const [badge, inline] of fitted) {
    if (badge.isConnected) pending.set(badge, inline);
    else fitted.delete(badge);
  }
  schedule(win);
}

function schedule(win: Window): void {
  if (frames.has(win)) return;
  frames.add(win);
  win.requestAnimationFrame(() => {
    frames.delete(win);
    placed = false;
    const batch = [...pending];
    pending.clear();
    // Badges gone from the page are let go once their number could have doubled, not every frame
    // (a page adding rows all the time would otherwise have every badge looked at per frame).
    if (fitted.size > 2 * sweptAt + 100) {
      for (const b of fitted.keys()) if (!b.isConnected) fitted.delete(b);
      sweptAt = fitted.size;
    }
    // All reads first (one layout), then all writes.
    const fits = batch.map(([b]) => (b.isConnected ? measure(b) : null));
    batch.forEach(([b, styledInline], i) => {
      const fit = fits[i];
      if (fit) applyFit(b, fit.fit, styledInline, fit.start);
    });
  });
}

/**
 * The limits read by one plan, per table section and column: the cells of one column share their
 * left edge, so the next cell's content edge is read once per column, not once per row (its
 * computed style and box were most of a plan's reads). Only in sections without `colspan` or
 * `rowspan` (there a cell's index in its row does not tell its column: those are read row by
 * row); a page that pads one column's cells differently from row to row gets the first row's
 * figure for the others. Not in a fit frame: its few badges (the rows a page just added) are read
 * one by one, where asking a growing section for spans every frame would cost more.
 */
const limits = new Map<Node, Map<number, number> | null>();

/** Where the next cell's content starts (or this cell's padding edge), in viewport x. */
function limitOf(cell: HTMLTableCellElement, view: Window): number {
  const section = (cell.parentNode?.parentNode ?? cell) as Element;
  let columns = limits.get(section);
  if (columns === undefined) {
    columns = section.querySelector('[colspan],[rowspan]') ? null : new Map();
    limits.set(section, columns);
  }
  let limit = columns?.get(cell.cellIndex);
  if (limit === undefined) {
    limit = readLimit(cell, view);
    columns?.set(cell.cellIndex, limit);
  }
  return limit;
}

function readLimit(cell: Element, view: Window): number {
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

/**
 * Reads the fit of a badge to be placed after `after` (an element target), while nothing of ours
 * has been written since the last frame (layout is clean unless the page changed it): the badge
 * is then placed fitted, and its table is laid out once.
 */
export function planFit(after: Node): void {
  const cell = !placed && after.nodeType === 1 ? cellEnded(after) : null;
  if (cell) {
    const rects = (after as Element).getClientRects();
    const last = rects[rects.length - 1];
    const view = cell.ownerDocument.defaultView;
    if (last && view) {
      const plan = fitOf(limitOf(cell as HTMLTableCellElement, view) - last.right);
      if (!plans.size)
        queueMicrotask(() => {
          plans.clear();
          limits.clear();
        });
      plans.set(after, plan);
    }
  }
}

function measure(badge: HTMLElement): Plan | null {
  const view = badge.ownerDocument.defaultView;
  // Where the address ends: the badge's left edge less its start margin (the one its fit gave it).
  const cell = badge.closest('td,th');
  if (!view || !cell) return null;
  const start = starts.get(badge) ?? Number.parseFloat(view.getComputedStyle(badge).marginLeft);
  const end = badge.getBoundingClientRect().left - start;
  return fitOf(readLimit(cell, view) - end);
}

/** The fit of a badge with `room` px from its address's end to the next cell's content. */
function fitOf(room: number): Plan {
  if (room >= MARGIN + SIZE + 1) return { fit: 'full' };
  // Compact: 1 px after the address (the sheet's); if even that is too narrow, pulled back over
  // its own address.
  if (room >= COMPACT + 2) return { fit: 'compact' };
  return { fit: 'over', start: Math.floor(room - COMPACT - 1) };
}
