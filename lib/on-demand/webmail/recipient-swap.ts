/**
 * "Replace" and "Undo" for a compose recipient (Gmail chip, Outlook pill) from its badge's
 * popover. The chip is changed the way the user would change it, through the compose's own
 * controls (send-guard/replace.ts): its remove control is pressed (Outlook: the pill is taken
 * out) and the other address typed into the field with its separator (`,` in Gmail, `;` in
 * Outlook), so the webmail makes the new chip itself and its model of the recipients follows.
 * Undo is the same swap back, on the chip now carrying the new address (`findRecipient`). Text only: the address is typed, never written as HTML.
 */

import { GMAIL_FIELD, recipientOf, recipientsIn } from '@/lib/content/webmail/recipients';
import { replaceRecipient } from '@/lib/on-demand/send-guard/replace';

export interface RecipientSwap {
  /** The compose field holding the recipients: it stays on the page while chips come and go. */
  field: Element;
  /** The address the chip carried before, and the one typed in its place. */
  before: string;
  by: string;
}

/** The compose field a recipient chip or pill sits in (Gmail's `div[name]`, Outlook's well), or null. */
export function recipientFieldOf(el: Element): Element | null {
  const recipient = recipientOf(el);
  if (!recipient?.field || (recipient.kind !== 'chip' && recipient.kind !== 'outlook')) return null;
  return el.closest(GMAIL_FIELD) ?? el.closest('[contenteditable="true"]');
}

/** The chip or pill in `field` that carries `address` (compared ignoring case), or null. */
export function findRecipient(field: Element, address: string): Element | null {
  const wanted = address.toLowerCase();
  return recipientsIn(field).find((r) => r.emails.some((e) => e.toLowerCase() === wanted))?.el ?? null;
}

function swap(el: Element, from: string, to: string): boolean {
  return replaceRecipient({
    email: from,
    el,
    typed: false,
    status: 'undeliverable',
    reason: null,
    suggestion: to,
  });
}

/** Swaps the recipient `el` for `to`; what to undo, or null when the compose could not take it. */
export function swapRecipient(el: Element, to: string): RecipientSwap | null {
  const field = recipientFieldOf(el);
  const before = recipientOf(el)?.emails[0];
  if (!field || !before || !swap(el, before, to)) return null;
  return { field, before, by: to };
}
