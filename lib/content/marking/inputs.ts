/**
 * Fields the user types into: while typing, only free checks (syntax, cache) after a pause;
 * on change or blur, the address is verified (an explicit act, so not bound by the budget).
 * One delegated listener per root, not one per field.
 *
 * Only the user starts paid work (user-event.ts): events a page dispatches are ignored, and a
 * commit needs a trusted edit of the field made by the user since the last commit; a value the
 * page wrote itself, then `focus()`/`blur()`, commits nothing (the budget and the badge's Verify
 * cover addresses the page shows). The committed value is read at the commit itself.
 */
import { isEditable } from '@/lib/content/extract/targets';
import type { Marker } from './marker';
import { isUserEvent, userIsActive } from './user-event';

const TYPING_PAUSE_MS = 700;

interface InputDeps {
  marker: Marker;
  verifyNow(email: string): void;
  win: Window;
  signal: AbortSignal;
}

export function listenToFields(root: Document | ShadowRoot, deps: InputDeps): void {
  const timers = new WeakMap<Element, number>();
  /** Fields the user edited since their last commit. */
  const edited = new WeakSet<Element>();
  const { win, signal, marker } = deps;
  const later = (el: Element) => {
    win.clearTimeout(timers.get(el));
    timers.set(
      el,
      win.setTimeout(() => signal.aborted || marker.refresh(el, false), TYPING_PAUSE_MS),
    );
  };
  const onEvent = (commit: boolean) => (event: Event) => {
    if (!isUserEvent(event)) return;
    const first = event.composedPath()[0] as Node | undefined;
    // nodeType, not instanceof: fields in same-origin frames belong to another realm.
    if (first?.nodeType !== 1) return;
    const target = first as Element;
    const kind = marker.kindOf(target);
    if (kind ? !isEditable(kind) : !isField(target)) return;
    if (!commit) {
      if (userIsActive(win)) edited.add(target);
      later(target);
      return;
    }
    if (!edited.delete(target)) return;
    // What the person asked for is the value at their commit, read and asked for now: a value the
    // page swaps in afterwards is only shown (on sight, within the budget), never "asked for".
    for (const email of marker.refresh(target, false)) deps.verifyNow(email);
    // Read again after a pause, for the mark only: a value written since is shown, not asked for.
    later(target);
  };
  root.addEventListener('input', onEvent(false), { signal, capture: true });
  root.addEventListener('change', onEvent(true), { signal, capture: true });
  root.addEventListener('focusout', onEvent(true), { signal, capture: true });
}

function isField(el: Element): boolean {
  return el.localName === 'input' || el.localName === 'textarea';
}
