/**
 * A mark on a form field (input, textarea) sits inside the field's box, at its end, as password
 * managers put theirs: the form keeps its layout. The badge still follows the field in the DOM
 * (so it is in the page's tab order and event path, and scrolls with it), but it is absolutely
 * positioned with no offsets: it takes no room, and script only moves it from where the browser
 * put it (its static position) to the field's end by its margins. The field gets room at its end
 * for the badge (`padding-inline-end`) only where that leaves its size as it was, so its own text
 * is not covered; the page's own value comes back when the badge goes.
 *
 * It is placed again when the field's size changes (a ResizeObserver), when anything scrolls (a
 * scrolling box between the field and the badge's containing block moves one and not the other)
 * and when the window is resized: all reads first, then the writes.
 */
import { setStyle } from './dom';
import { FIELD_STYLE, SIZE } from './sheet';

/** From the field's end (border and a little air) to the badge. */
const INSET = 6;
/** Room a field needs at its end for the badge. */
const ROOM = SIZE + 2 * INSET - 2;
/** A taller field (a textarea) has the badge beside its first line, as high as this band. */
const BAND = 34;

/** Badges in fields, with their field. */
const pairs = new Map<HTMLElement, HTMLElement>();
/** The margins each badge was last given (its static position is where it sits less these). */
const offsets = new WeakMap<HTMLElement, [left: number, top: number, shown: boolean]>();
/** The page's own inline padding-inline-end of a field we padded (value and priority). */
const padded = new Map<HTMLElement, [string, string]>();
/**
 * What is read of each field once, with its padding, when it is first shown (placing again on
 * scroll then reads boxes only, no computed styles): its direction (true: right to left), and the
 * boxes that clip it but not its badge — those with overflow between the field and the badge's
 * containing block (a form's scrolling body in a positioned dialog): the badge shows only while
 * its place is inside them.
 */
const sides = new WeakMap<HTMLElement, [rtl: boolean, clips: Element[]]>();
const observers = new WeakMap<Window, ResizeObserver>();
const frames = new WeakSet<Window>();

/** Puts `badge` (just placed right after `field`) inside the field's end. */
export function fitInField(
  badge: HTMLElement,
  field: HTMLElement,
  inline: boolean,
  signal: AbortSignal,
): void {
  badge.setAttribute('data-fit', 'field');
  if (inline) setStyle(badge, FIELD_STYLE);
  pairs.set(badge, field);
  const win = field.ownerDocument.defaultView;
  if (!win) return;
  let observer = observers.get(win);
  if (!observer) {
    observer = new win.ResizeObserver(() => place(win));
    observers.set(win, observer);
    const again = () => schedule(win);
    const options = { capture: true, passive: true, signal };
    win.addEventListener('scroll', again, options);
    win.addEventListener('resize', again, options);
    signal.addEventListener('abort', () => observer?.disconnect(), { once: true });
  }
  // Delivered once at once (before the next paint), and whenever the field's size changes.
  observer.observe(field, { box: 'border-box' });
}

/** Places the badges of `win` in the next frame; `again`: how many frames in a row placed some already. */
function schedule(win: Window, again = 0): void {
  if (frames.has(win) || pairs.size === 0) return;
  frames.add(win);
  win.requestAnimationFrame(() => {
    frames.delete(win);
    place(win, again);
  });
}

/** Lets go of a badge (gone, or placed elsewhere); its field gets its own padding back when no badge is left in it. */
export function leaveField(badge: HTMLElement): void {
  const field = pairs.get(badge);
  if (!field || !pairs.delete(badge) || [...pairs.values()].includes(field)) return;
  const win = field.ownerDocument.defaultView;
  if (win) observers.get(win)?.unobserve(field);
  sides.delete(field);
  unpad(field);
}

/** Gives a field its own padding back. */
function unpad(field: HTMLElement): void {
  const own = padded.get(field);
  if (!own) return;
  padded.delete(field);
  if (own[0]) field.style.setProperty('padding-inline-end', own[0], own[1]);
  else field.style.removeProperty('padding-inline-end');
}

/**
 * Places every badge of `win`'s fields: reads, padding where it fits, then the margins. Where a
 * badge moved, the next frame looks again (a static position may shift with the badge's own
 * margins, e.g. beside an inline-block textarea), a few frames at most.
 */
function place(win: Window, again = 0): void {
  let moved = false;
  const todo: [HTMLElement, DOMRect, boolean, Element[]][] = [];
  const pad: [HTMLElement, DOMRect][] = [];
  for (const [badge, field] of pairs) {
    if (!badge.isConnected || badge.previousSibling !== field) leaveField(badge);
    else if (field.ownerDocument.defaultView === win) {
      const box = field.getBoundingClientRect();
      let side = sides.get(field);
      if (!side && box.width > 0) {
        const style = win.getComputedStyle(field);
        const clips: Element[] = [];
        for (let el = field.parentElement; el && el !== badge.offsetParent; el = el.parentElement)
          if (win.getComputedStyle(el).overflow !== 'visible') clips.push(el);
        side = [style.direction === 'rtl', clips];
        sides.set(field, side);
        const end = Number.parseFloat(side[0] ? style.paddingLeft : style.paddingRight);
        if (end < ROOM && box.width > 4 * ROOM) pad.push([field, box]);
      }
      todo.push([badge, box, side?.[0] ?? false, side?.[1] ?? []]);
    }
  }
  for (const [field] of pad) {
    const { style } = field;
    padded.set(field, [
      style.getPropertyValue('padding-inline-end'),
      style.getPropertyPriority('padding-inline-end'),
    ]);
    style.setProperty('padding-inline-end', `${ROOM}px`, 'important');
  }
  for (const [field, before] of pad) {
    const after = field.getBoundingClientRect();
    if (after.width !== before.width || after.height !== before.height) unpad(field);
  }
  const moves = todo.map(([badge, box, rtl, clips]) => {
    const now = badge.getBoundingClientRect();
    const [left, top] = offsets.get(badge) ?? [0, 0];
    const x = rtl ? box.left + INSET : box.right - INSET - SIZE;
    const y = box.top + (Math.min(box.height, BAND) - SIZE) / 2;
    const shown =
      box.width > 0 &&
      clips.every((clip) => {
        const r = clip.getBoundingClientRect();
        return x >= r.left && x + SIZE <= r.right && y >= r.top && y + SIZE <= r.bottom;
      });
    return [badge, Math.round(left + x - now.left), Math.round(top + y - now.top), shown] as const;
  });
  for (const [badge, left, top, shown] of moves) {
    const last = offsets.get(badge);
    if (last?.[0] === left && last[1] === top && last[2] === shown) continue;
    moved = true;
    offsets.set(badge, [left, top, shown]);
    setStyle(badge, {
      'margin-left': `${left}px`,
      'margin-top': `${top}px`,
      visibility: shown ? 'visible' : 'hidden',
    });
  }
  if (moved && again < 3) schedule(win, again + 1);
}
