/**
 * What the content script takes up, and which addresses each element carries.
 * One element is one target; a target may carry several addresses (a mailto: with cc, a
 * multi-address input, a paragraph), and its mark shows the worst verdict among them.
 */

import { isRecipientInput, RECIPIENT_SELECTOR, recipientOf } from '@/lib/content/webmail/recipients';
import { addressesOrWritten, exactAddresses } from '@/lib/shared/extract/address-list';
import { mailtoRecipients } from '@/lib/shared/extract/mailto';

export type TargetKind = 'input' | 'mailto' | 'chip' | 'recipient-input' | 'message' | 'outlook' | 'text';

export interface Target {
  kind: TargetKind;
  /** Candidate addresses as written on the page (not yet normalized or checked). */
  emails: string[];
  /** The node the badge follows when it is not the element itself (plain text: its last address). */
  after?: ChildNode;
}

/** The stand-alone selectors of fields and links (find-targets.ts scans with them). */
export const ELEMENT_SELECTORS = {
  input:
    'input[type="email" i],input[name*="mail" i],input[id*="mail" i],input[autocomplete~="email" i],textarea[name*="mail" i]',
  mailto: 'a[href^="mailto:" i]',
} as const;

/** One selector for every element kind, for a single querySelectorAll pass (plain text is walked apart). */
export const TARGET_SELECTOR = [ELEMENT_SELECTORS.input, ELEMENT_SELECTORS.mailto, RECIPIENT_SELECTOR].join(
  ',',
);

/** `a[href^="mailto:" i]` on the attribute's value. */
const MAILTO = /^mailto:/i;

const TEXT_TYPES = new Set(['', 'email', 'text', 'search']);

function isTextInput(el: Element): el is HTMLInputElement | HTMLTextAreaElement {
  if (el.localName === 'textarea') return true;
  return el.localName === 'input' && TEXT_TYPES.has((el.getAttribute('type') ?? '').toLowerCase());
}

/** Addresses typed into a field: candidates, or the whole value when none can be read in it. */
export function inputAddresses(value: string): string[] {
  return addressesOrWritten(value);
}

/** The target an element is, or null when it is none (or carries no address yet). */
export function extractTarget(el: Element): Target | null {
  // Cheap tests on the tag and attributes first; `matches` only to confirm.
  const name = el.localName;
  if (name === 'a') {
    // ELEMENT_SELECTORS.mailto, read in script: the href is needed anyway.
    const href = el.getAttribute('href');
    if (href !== null && MAILTO.test(href)) return { kind: 'mailto', emails: mailtoRecipients(href) };
  }
  if (name === 'input' || name === 'textarea') return fieldTarget(el);
  const recipient = recipientOf(el);
  return recipient ? { kind: recipient.kind, emails: recipient.emails } : null;
}

function fieldTarget(el: Element): Target | null {
  if (!isTextInput(el)) return null;
  if (isRecipientInput(el)) return { kind: 'recipient-input', emails: inputAddresses(el.value) };
  // An email field's text is its addresses, each exactly one (a compose typing box holds what is being typed).
  if (el.matches(ELEMENT_SELECTORS.input)) return { kind: 'input', emails: exactAddresses(el.value) };
  return null;
}

/** Kinds whose address is typed by the user: verified on change or blur, not on sight. */
export function isEditable(kind: TargetKind): boolean {
  return kind === 'input' || kind === 'recipient-input';
}
