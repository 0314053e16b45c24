/**
 * "Replace": swaps a flagged recipient for the service's suggestion in the compose, the way the
 * user would — through the webmail's own controls, so its model of the recipients follows.
 *
 * - Gmail chip (`div[role=option][data-hovercard-id]`): press the chip's remove control (the
 *   element named by the chip's `aria-describedby`, "Press delete to remove this chip" in the
 *   user's language; else `[aria-label*="remove"]`), then type the new address and
 *   a comma into the field's typing box; Gmail turns it into a chip. If the chip has no remove
 *   control it is taken out of the DOM (Gmail may then still hold it: the dialog says "Replaced"
 *   only when the chip is gone).
 * - Typed text (Gmail's typing box, old compose textarea): the address is selected in the box
 *   and the suggestion typed over it.
 * - Outlook pill (`span._EType_RECIPIENT_ENTITY`) or typed text in an Outlook well: the pill is
 *   removed and the suggestion typed at the end of the well.
 * Typing is `execCommand('insertText')`, which fires the `beforeinput`/`input` events an editor
 * expects; where it is refused, the value is set and an `input` event dispatched.
 */

import { BADGE_TAG } from '@/lib/content/badge/sheet';
import type { Flagged } from '@/lib/content/send-guard/decide';
import { pressButton } from '@/lib/content/send-guard/retrigger';
import { GMAIL_FIELD } from '@/lib/content/webmail/recipients';

type TextBox = HTMLInputElement | HTMLTextAreaElement;

function isTextBox(el: Element): el is TextBox {
  return el.localName === 'input' || el.localName === 'textarea';
}

/** Types `text` at the caret of the focused editor (input, textarea or contenteditable). */
function typeText(doc: Document, target: HTMLElement, text: string): void {
  target.focus();
  let done = false;
  try {
    done = doc.execCommand('insertText', false, text);
  } catch {
    done = false;
  }
  if (done) return;
  if (isTextBox(target)) {
    const start = target.selectionStart ?? target.value.length;
    const end = target.selectionEnd ?? start;
    target.setRangeText(text, start, end, 'end');
  } else {
    target.append(doc.createTextNode(text));
  }
  const view = doc.defaultView;
  if (view)
    target.dispatchEvent(
      new view.InputEvent('input', { bubbles: true, data: text, inputType: 'insertText' }),
    );
}

/**
 * A Gmail chip's remove control, found by structure (its label is in the user's language): the
 * element the chip is described by (`aria-describedby`, "Press delete to remove this chip"),
 * else one labelled with "remove".
 */
function removeControlOf(chip: Element): Element | null {
  const described = chip.getAttribute('aria-describedby');
  const byId = described ? chip.ownerDocument.getElementById(described) : null;
  return (byId && chip.contains(byId) ? byId : null) ?? chip.querySelector('[aria-label*="remove" i]');
}

function typingBoxOf(chip: Element): HTMLElement | null {
  const field = chip.closest(GMAIL_FIELD);
  return (field?.querySelector('input,textarea') as HTMLElement | null) ?? null;
}

function replaceTyped(doc: Document, box: TextBox, from: string, to: string): boolean {
  const at = box.value.toLowerCase().indexOf(from.toLowerCase());
  if (at < 0) return false;
  box.focus();
  box.setSelectionRange(at, at + from.length);
  typeText(doc, box, to);
  return box.value.toLowerCase().includes(to.toLowerCase());
}

function caretAtEnd(doc: Document, el: HTMLElement): void {
  el.focus();
  const range = doc.createRange();
  range.selectNodeContents(el);
  range.collapse(false);
  const selection = doc.getSelection();
  selection?.removeAllRanges();
  selection?.addRange(range);
}

/** Replaces one flagged recipient by its suggestion; true when the compose now shows the change. */
export function replaceRecipient(f: Flagged): boolean {
  const to = f.suggestion;
  const el = f.el;
  const doc = el.ownerDocument;
  if (!to || !el.isConnected) return false;
  if (f.typed && isTextBox(el)) return replaceTyped(doc, el, f.email, to);
  if (el.hasAttribute('data-hovercard-id')) {
    const box = typingBoxOf(el);
    const remove = removeControlOf(el);
    if (remove) pressButton(remove);
    if (el.isConnected) el.remove();
    if (box) typeText(doc, box, `${to},`);
    return box !== null;
  }
  const well = el.closest('[contenteditable="true"]') as HTMLElement | null;
  if (!well) return false;
  if (el !== well) {
    // The pill's mark goes with it (it sits right after the pill, in the well).
    const mark = el.nextElementSibling;
    if (mark?.localName === BADGE_TAG) mark.remove();
    el.remove();
  } else {
    // Typed text in the well itself: the address is replaced where it stands.
    const walker = doc.createTreeWalker(well, 4);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const value = node.textContent ?? '';
      const at = value.toLowerCase().indexOf(f.email.toLowerCase());
      if (at >= 0) {
        node.textContent = value.slice(0, at) + to + value.slice(at + f.email.length);
        return true;
      }
    }
    return false;
  }
  caretAtEnd(doc, well);
  typeText(doc, well, `${to}; `);
  return true;
}
