/**
 * Fields the user types into: while typing, only free checks (syntax, cache) after a pause;
 * on change or blur, the address is verified (an explicit act, so not bound by the budget).
 * One delegated listener per root, not one per field.
 */
import { isEditable } from './extract/targets';
import type { Marker } from './marker';

const TYPING_PAUSE_MS = 700;
const COMMIT_DELAY_MS = 250;

export interface InputDeps {
  marker: Marker;
  verifyNow(email: string): void;
  win: Window;
  signal: AbortSignal;
}

export function listenToFields(root: Document | ShadowRoot, deps: InputDeps): void {
  const timers = new WeakMap<Element, number>();
  const { win, signal, marker } = deps;
  const later = (el: Element, delay: number, commit: boolean) => {
    win.clearTimeout(timers.get(el));
    timers.set(
      el,
      win.setTimeout(() => {
        if (signal.aborted) return;
        const emails = marker.refresh(el, false);
        if (commit) for (const email of emails) deps.verifyNow(email);
      }, delay),
    );
  };
  const onEvent = (commit: boolean, delay: number) => (event: Event) => {
    const first = event.composedPath()[0] as Node | undefined;
    // nodeType, not instanceof: fields in same-origin frames belong to another realm.
    if (first?.nodeType !== 1) return;
    const target = first as Element;
    const kind = marker.kindOf(target);
    if (kind ? !isEditable(kind) : !isField(target)) return;
    later(target, delay, commit);
  };
  root.addEventListener('input', onEvent(false, TYPING_PAUSE_MS), { signal, capture: true });
  root.addEventListener('change', onEvent(true, COMMIT_DELAY_MS), { signal, capture: true });
  root.addEventListener('focusout', onEvent(true, COMMIT_DELAY_MS), { signal, capture: true });
}

function isField(el: Element): boolean {
  return el.localName === 'input' || el.localName === 'textarea';
}
