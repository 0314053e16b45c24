/**
 * What the content script takes up, and which addresses each element carries.
 * One element is one target; a target may carry several addresses (a mailto: with cc, a
 * multi-address input), and its mark shows the worst verdict among them.
 */
import { addressesInText, addressesOrWritten } from '../../shared/extract/address-list';
import { mailtoRecipients } from '../../shared/extract/mailto';

export type TargetKind = 'input' | 'mailto' | 'chip' | 'recipient-input' | 'message' | 'outlook';

export interface Target {
  kind: TargetKind;
  /** Candidate addresses as written on the page (not yet normalized or checked). */
  emails: string[];
}

const FIELDS = ['to', 'cc', 'bcc'];
const GMAIL_FIELDS = FIELDS.map((f) => `div[name="${f}"]`);
// Outlook labels its recipient wells "To", "Cc" and "Bcc"; the `i` variant covers other casings.
const OUTLOOK_WELLS = ['To', 'Cc', 'Bcc'].flatMap((f) => [`[aria-label="${f}"]`, `[aria-label="${f}" i]`]);

export const SELECTORS = {
  chip: GMAIL_FIELDS.map((w) => `${w} [data-hovercard-id]`).join(','),
  recipientInput: GMAIL_FIELDS.flatMap((w) => [`${w} input`, `${w} textarea`]).join(','),
  outlook: OUTLOOK_WELLS.flatMap((w) => [`${w} [title*="@"]`, `${w} [aria-label*="@"]`, `${w} span`]).join(
    ',',
  ),
  input:
    'input[type="email" i],input[name*="mail" i],input[id*="mail" i],input[autocomplete~="email" i],textarea[name*="mail" i]',
  mailto: 'a[href^="mailto:" i]',
  message: 'span[email]',
} as const;

/** One selector for every target kind, for a single querySelectorAll pass. */
export const TARGET_SELECTOR = Object.values(SELECTORS).join(',');

const TEXT_TYPES = new Set(['', 'email', 'text', 'search']);

function isTextInput(el: Element): el is HTMLInputElement | HTMLTextAreaElement {
  if (el.localName === 'textarea') return true;
  return el.localName === 'input' && TEXT_TYPES.has((el.getAttribute('type') ?? '').toLowerCase());
}

/** Addresses typed into a field: candidates, or the whole value when none can be read in it. */
export function inputAddresses(value: string): string[] {
  return addressesOrWritten(value);
}

/** The address an attribute carries; a value with '@' but no readable address is kept to be judged invalid. */
function attrAddress(el: Element, name: string): string[] {
  const value = el.getAttribute(name) ?? '';
  return value.includes('@') ? addressesOrWritten(value).slice(0, 1) : [];
}

function outlookAddresses(el: Element): string[] {
  for (const attr of ['title', 'aria-label']) {
    const found = addressesInText(el.getAttribute(attr) ?? '');
    if (found.length > 0) return found.slice(0, 1);
  }
  // A leaf whose text is just an address (an unresolved recipient shows it), unless a pill
  // around it already carries the address in an attribute.
  if (el.childElementCount > 0) return [];
  if (el.parentElement?.closest('[title*="@"],[aria-label*="@"]')) return [];
  const found = addressesInText(el.textContent ?? '');
  return found.length === 1 ? found : [];
}

/** The target an element is, or null when it is none (or carries no address yet). */
export function extractTarget(el: Element): Target | null {
  // Cheap tests on the tag and attributes first; `matches` only to confirm.
  const name = el.localName;
  if (name === 'a' && el.matches(SELECTORS.mailto)) {
    return { kind: 'mailto', emails: mailtoRecipients(el.getAttribute('href') ?? '') };
  }
  if (name === 'input' || name === 'textarea') return fieldTarget(el);
  if (el.hasAttribute('data-hovercard-id') && el.matches(SELECTORS.chip)) {
    const emails = attrAddress(el, 'data-hovercard-id');
    return emails.length > 0 ? { kind: 'chip', emails } : null;
  }
  if (name === 'span' && el.hasAttribute('email')) {
    const emails = attrAddress(el, 'email');
    return emails.length > 0 ? { kind: 'message', emails } : null;
  }
  if (el.matches(SELECTORS.outlook)) {
    const emails = outlookAddresses(el);
    return emails.length > 0 ? { kind: 'outlook', emails } : null;
  }
  return null;
}

function fieldTarget(el: Element): Target | null {
  if (!isTextInput(el)) return null;
  if (el.matches(SELECTORS.recipientInput))
    return { kind: 'recipient-input', emails: inputAddresses(el.value) };
  if (el.matches(SELECTORS.input)) return { kind: 'input', emails: inputAddresses(el.value) };
  return null;
}

/** Kinds whose address is typed by the user: verified on change or blur, not on sight. */
export function isEditable(kind: TargetKind): boolean {
  return kind === 'input' || kind === 'recipient-input';
}
