/**
 * Pressing Send again after the guard held a press back (the user chose "Send anyway", or the
 * check ended with nothing to warn about, or failed).
 *
 * Why a synthetic pointer sequence on the same button: the held-back event cannot be resumed
 * (its dispatch ended when we stopped it) and no script can make a trusted one. Gmail's Send is a
 * `div[role=button]` widget of its own library, and which of mousedown, mouseup or click its
 * handler acts on is not documented (widgets of that kind act on the mousedown/mouseup pair);
 * Outlook's is a `<button>` whose React handler listens for `click` at the root. Both act on
 * untrusted events. So the guard dispatches what a real press produces, in the browser's order —
 * pointerdown, mousedown, pointerup, mouseup, click — at the button's centre with the primary
 * button, and each handler finds the one event it listens for exactly once. A Ctrl/Cmd+Enter press
 * is re-triggered the same way on the compose's Send button (the shortcut does what the button
 * does, and a synthetic key event has no reliable keyCode); only when no button can be found is a
 * copy of the key event dispatched instead. Every event dispatched here is recorded so the guard's
 * own listener lets it through (pages' synthetic events pass anyway: the guard acts on trusted
 * input only).
 */

const ours = new WeakSet<Event>();

/** True for events the guard dispatched itself. */
export function isOwnEvent(event: Event): boolean {
  return ours.has(event);
}

function dispatch(target: EventTarget, event: Event): void {
  ours.add(event);
  target.dispatchEvent(event);
}

/** Presses `button` the way a mouse does. */
export function pressButton(button: Element): void {
  const view = button.ownerDocument.defaultView;
  if (!view) return;
  const rect = button.getBoundingClientRect();
  const at = { clientX: rect.left + rect.width / 2, clientY: rect.top + rect.height / 2 };
  const base = { bubbles: true, cancelable: true, composed: true, view, button: 0, detail: 1, ...at };
  const pointer = { ...base, pointerId: 1, pointerType: 'mouse', isPrimary: true };
  const hasPointer = typeof PointerEvent === 'function';
  if (hasPointer) dispatch(button, new PointerEvent('pointerdown', { ...pointer, buttons: 1 }));
  dispatch(button, new MouseEvent('mousedown', { ...base, buttons: 1 }));
  if (hasPointer) dispatch(button, new PointerEvent('pointerup', { ...pointer, buttons: 0 }));
  dispatch(button, new MouseEvent('mouseup', { ...base, buttons: 0 }));
  dispatch(button, new MouseEvent('click', { ...base, buttons: 0 }));
}

/** Dispatches a copy of a held-back key press (Ctrl/Cmd+Enter) on its target. */
export function repeatKey(target: EventTarget, original: KeyboardEvent): void {
  const view = original.view ?? (target as Node).ownerDocument?.defaultView;
  if (!view) return;
  const init: KeyboardEventInit & { keyCode: number; which: number } = {
    bubbles: true,
    cancelable: true,
    composed: true,
    view,
    key: original.key,
    code: original.code,
    keyCode: original.keyCode,
    which: original.which,
    ctrlKey: original.ctrlKey,
    metaKey: original.metaKey,
    shiftKey: original.shiftKey,
    altKey: original.altKey,
  };
  for (const type of ['keydown', 'keyup'] as const) {
    const event = new KeyboardEvent(type, init);
    // Older handlers read keyCode/which, which the constructor leaves at 0 in some browsers.
    Object.defineProperty(event, 'keyCode', { value: original.keyCode });
    Object.defineProperty(event, 'which', { value: original.which });
    dispatch(target, event);
  }
}
