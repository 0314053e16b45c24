/**
 * A compose window as the send guard sees it: its Send button, the compose around it and every
 * recipient in To, Cc and Bcc — chips and pills (lib/content/webmail/recipients.ts) and text typed
 * but not chipped yet. Selected by the hooks that stay stable across builds (roles, names, ids,
 * keyboard hints); class names are build hashes and are not relied on, but for Gmail's `aoO`.
 *
 * Send buttons, in any interface language (no label is read as words): Gmail's `div[role=button]`
 * of class `aoO` (the send button's class for a decade, gmail.js relies on it); Outlook on the web's
 * `button[data-testid=ComposeSendButton]`; or any button that says it is pressed with Ctrl/Cmd+Enter
 * — `aria-keyshortcuts` naming Enter, or a tooltip, label or title ending in the keyboard hint both
 * products print after Send: "‪(Ctrl-Enter)‬", "(Strg+Eingabe)", "(Ctrl-Entrée)", "(⌘Enter)". Other
 * hinted buttons name a letter or digit ("Bold (Ctrl-B)", "Numbered list (Ctrl-Shift-7)").
 * Outlook's wells are found by their groups (`[role=group][id$=_TO|_CC|_BCC]`), not their labels.
 */

import {
  asField,
  FIELDS,
  fieldOf,
  GMAIL_FIELD,
  OUTLOOK_GROUPS,
  type RecipientField,
  recipientsIn,
} from '@/lib/content/webmail/recipients';
import { addressesInText } from '@/lib/shared/extract/address-list';

export interface ComposeRecipient {
  /** The address as written on the page. */
  raw: string;
  /** The chip, pill or field that holds it. */
  el: Element;
  /** Typed text not turned into a chip yet (only well-formed addresses are taken from it). */
  typed: boolean;
  field: RecipientField | null;
}

/** Gmail's field wrappers and old textareas; Outlook's recipient groups. */
const FIELD_SELECTOR = [GMAIL_FIELD, ...FIELDS.map((f) => `textarea[name="${f}"]`), ...OUTLOOK_GROUPS].join(
  ',',
);
/** Where typed text waits: Gmail's typing box (new and old compose), Outlook's editable well. */
const TYPING_SELECTOR = [
  ...FIELDS.flatMap((f) => [`div[name="${f}"] input`, `div[name="${f}"] textarea`, `textarea[name="${f}"]`]),
].join(',');
const OUTLOOK_WELL_SELECTOR = OUTLOOK_GROUPS.map((g) => `${g} [contenteditable="true"]`).join(',');

/**
 * A label ending in Ctrl/Cmd plus a named key (not a letter, digit or symbol), bidi marks and
 * spaces after it allowed: "Senden ‪(Strg-Eingabetaste)‬", "Send (Ctrl+Enter)", "Envoyer (⌘Entrée)".
 */
const SEND_HINT = /\((?:ctrl|strg|cmd|control|⌘)[-+ ]*[^\s\d()+-]{2,}\)\W*$/i;

/** Whether a tooltip, label or title is a Send button's, in any language (see the top of this file). */
export function isSendLabel(label: string | null): boolean {
  return !!label && SEND_HINT.test(label);
}

/** Whether an element is a webmail Send button. */
export function isSendButton(el: Element): boolean {
  if (el.localName !== 'button' && el.getAttribute('role') !== 'button') return false;
  return (
    el.matches('.aoO,[data-testid="ComposeSendButton"],[aria-keyshortcuts*="enter" i]') ||
    ['data-tooltip', 'aria-label', 'title'].some((name) => isSendLabel(el.getAttribute(name)))
  );
}

/** The Send button an event went through (its composed path), or null. */
export function sendButtonOnPath(path: readonly EventTarget[]): Element | null {
  for (const node of path) {
    if ((node as Node).nodeType !== 1) continue;
    if (isSendButton(node as Element)) return node as Element;
  }
  return null;
}

/** The compose window around an element: its nearest ancestor holding a recipient field. */
export function composeOf(el: Element): Element | null {
  for (let node = el.parentElement; node; node = node.parentElement) {
    if (node.querySelector(FIELD_SELECTOR)) return node;
  }
  return null;
}

/** The Send button of a compose window. */
export function sendButtonIn(compose: Element): Element | null {
  for (const el of compose.querySelectorAll('button,[role="button"]')) if (isSendButton(el)) return el;
  return null;
}

function fieldOfTyping(el: Element): RecipientField | null {
  return asField(el.getAttribute('name')) ?? fieldOf(el);
}

/** Outlook's typed text: the well's own text outside its pills. */
function wellText(well: Element): string {
  let text = '';
  const walk = (node: Node) => {
    for (const child of node.childNodes) {
      if (child.nodeType === 3) text += ` ${child.textContent ?? ''}`;
      else if (child.nodeType === 1 && (child as Element).getAttribute('contenteditable') !== 'false')
        walk(child);
    }
  };
  walk(well);
  return text;
}

/** Every recipient of a compose window, chips first, then typed text. */
export function composeRecipients(compose: Element): ComposeRecipient[] {
  const out: ComposeRecipient[] = [];
  for (const r of recipientsIn(compose)) {
    for (const raw of r.emails) out.push({ raw, el: r.el, typed: false, field: r.field });
  }
  for (const el of compose.querySelectorAll(TYPING_SELECTOR)) {
    const value = (el as HTMLInputElement | HTMLTextAreaElement).value ?? '';
    for (const raw of addressesInText(value)) out.push({ raw, el, typed: true, field: fieldOfTyping(el) });
  }
  for (const well of compose.querySelectorAll(OUTLOOK_WELL_SELECTOR)) {
    for (const raw of addressesInText(wellText(well))) {
      out.push({ raw, el: well, typed: true, field: fieldOfTyping(well) });
    }
  }
  return out;
}
