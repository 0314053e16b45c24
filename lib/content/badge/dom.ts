/**
 * Tiny DOM helpers for the badge: elements with CSSOM styles and text content only. No HTML
 * strings anywhere (Gmail enforces Trusted Types; page data is always text).
 */
export type Style = Record<string, string>;

export function h<K extends keyof HTMLElementTagNameMap>(
  doc: Document,
  tag: K,
  style: Style = {},
  text?: string,
): HTMLElementTagNameMap[K] {
  const el = doc.createElement(tag);
  setStyle(el, style);
  if (text !== undefined) el.textContent = text;
  return el;
}

export function setStyle(el: HTMLElement, style: Style): void {
  for (const [prop, value] of Object.entries(style)) el.style.setProperty(prop, value, 'important');
}

/** Keeps events inside the badge from reaching the page's own handlers. */
export function isolateEvents(target: EventTarget, signal: AbortSignal): void {
  for (const type of [
    'click',
    'mousedown',
    'mouseup',
    'pointerdown',
    'pointerup',
    'keydown',
    'keyup',
    'focusin',
    'focusout',
    'input',
  ]) {
    target.addEventListener(type, (event) => event.stopPropagation(), { signal });
  }
}
