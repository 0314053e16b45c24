/**
 * Recipients and senders in webmail markup, by the hooks that stay stable across builds (class
 * names are build hashes and change). Used by the marks and, later, by the send guard.
 *
 * Gmail (compose since the 2021 redesign): each recipient is a chip
 * `div[role=option][data-hovercard-id="<address>"][data-name]` inside the field wrapper
 * `div[name=to|cc|bcc]`; the typing box is an `input[peoplekit-id]` (older compose: the
 * `textarea[name=to|cc|bcc]` itself). Senders in an opened message: `span[email]`.
 * Outlook on the web: the wells sit in `[role=group][id$=_TO|_CC|_BCC]` (their labels, "To",
 * "An", "À", "Para"…, are the interface language's and not read); a resolved recipient is
 * `span._EType_RECIPIENT_ENTITY` (or any pill) carrying the address in `aria-label` or `title`.
 */
import { addressesInText, addressesOrWritten } from '@/lib/shared/extract/address-list';

export type RecipientField = 'to' | 'cc' | 'bcc';
type RecipientKind = 'chip' | 'recipient-input' | 'outlook' | 'message';

export interface Recipient {
  kind: RecipientKind;
  /** Addresses as written (not normalized): one for a chip or pill, any number in a field. */
  emails: string[];
  /** The compose field it belongs to; null for a sender in a message. */
  field: RecipientField | null;
}

export const FIELDS: readonly RecipientField[] = ['to', 'cc', 'bcc'];
const GMAIL_WRAPPERS = FIELDS.map((f) => `div[name="${f}"]`);
/** Gmail's compose field wrappers, `div[name=to|cc|bcc]`, as one selector. */
export const GMAIL_FIELD = GMAIL_WRAPPERS.join(',');

/** `name` when it is a compose field's (to, cc, bcc), else null. */
export function asField(name: string | null | undefined): RecipientField | null {
  return name && (FIELDS as readonly string[]).includes(name) ? (name as RecipientField) : null;
}
/** Outlook's recipient groups, `[role=group][id$=_TO|_CC|_BCC]`. */
export const OUTLOOK_GROUPS = FIELDS.map((f) => `[role="group"][id$="_${f.toUpperCase()}"]`);

const RECIPIENT_SELECTORS = {
  chip: [
    'div[role="option"][data-hovercard-id]',
    ...GMAIL_WRAPPERS.map((w) => `${w} [data-hovercard-id]`),
  ].join(','),
  recipientInput: [
    ...FIELDS.map((f) => `textarea[name="${f}"]`),
    ...GMAIL_WRAPPERS.flatMap((w) => [`${w} input`, `${w} textarea`]),
    'input[peoplekit-id]',
  ].join(','),
  outlook: [
    'span._EType_RECIPIENT_ENTITY',
    ...OUTLOOK_GROUPS.flatMap((w) => [`${w} [title*="@"]`, `${w} [aria-label*="@"]`, `${w} span`]),
  ].join(','),
  message: 'span[email]',
} as const;

/** Every recipient and sender hook, for one querySelectorAll pass. */
export const RECIPIENT_SELECTOR = Object.values(RECIPIENT_SELECTORS).join(',');

/**
 * The same hooks split for a fast scan (extract/find-targets.ts): those that stand alone, and
 * those that hold only inside a compose field ([wrapper, what inside it]). Matching a descendant
 * combinator over a whole page costs more than everything else the scan does; finding the few
 * wrappers first does not.
 */
export const RECIPIENT_ALONE = [
  'div[role="option"][data-hovercard-id]',
  ...FIELDS.map((f) => `textarea[name="${f}"]`),
  'input[peoplekit-id]',
  'span._EType_RECIPIENT_ENTITY',
  RECIPIENT_SELECTORS.message,
].join(',');
export const RECIPIENT_SCOPED: readonly (readonly [wrapper: string, inner: string])[] = [
  [GMAIL_FIELD, '[data-hovercard-id],input,textarea'],
  [OUTLOOK_GROUPS.join(','), '[title*="@"],[aria-label*="@"],span'],
];

/** The compose field (To, Cc, Bcc) an element sits in, or null. */
export function fieldOf(el: Element): RecipientField | null {
  const own = asField(el.getAttribute('name')?.toLowerCase());
  if (own && el.localName === 'textarea') return own;
  const wrapper = el.closest(GMAIL_FIELD);
  if (wrapper) return wrapper.getAttribute('name') as RecipientField;
  return asField(el.closest('[role="group"][id]')?.id.split('_').pop()?.toLowerCase());
}

/** The address an attribute carries; a value with '@' but no readable address is kept to be judged invalid. */
function attrAddress(el: Element, name: string): string[] {
  const value = el.getAttribute(name) ?? '';
  return value.includes('@') ? addressesOrWritten(value).slice(0, 1) : [];
}

function outlookAddresses(el: Element): string[] {
  for (const attr of ['aria-label', 'title']) {
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

/**
 * The recipient (chip, pill) or sender an element is, or null. Typing boxes are not read here
 * (their value is the user's, see `isRecipientInput`).
 */
export function recipientOf(el: Element): Recipient | null {
  if (el.hasAttribute('data-hovercard-id') && el.matches(RECIPIENT_SELECTORS.chip)) {
    const emails = attrAddress(el, 'data-hovercard-id');
    return emails.length > 0 ? { kind: 'chip', emails, field: fieldOf(el) } : null;
  }
  if (el.localName === 'span' && el.hasAttribute('email')) {
    const emails = attrAddress(el, 'email');
    return emails.length > 0 ? { kind: 'message', emails, field: null } : null;
  }
  if (el.matches(RECIPIENT_SELECTORS.outlook)) {
    const emails = outlookAddresses(el);
    return emails.length > 0 ? { kind: 'outlook', emails, field: fieldOf(el) } : null;
  }
  return null;
}

/** A compose field's typing box (Gmail's To/Cc/Bcc input or textarea). */
export function isRecipientInput(el: Element): boolean {
  return (
    (el.localName === 'input' || el.localName === 'textarea') &&
    el.matches(RECIPIENT_SELECTORS.recipientInput)
  );
}

/** Every resolved recipient (chips, pills) under `root`, e.g. one compose window, in page order. */
export function recipientsIn(root: ParentNode): (Recipient & { el: Element })[] {
  const out: (Recipient & { el: Element })[] = [];
  for (const el of root.querySelectorAll(`${RECIPIENT_SELECTORS.chip},${RECIPIENT_SELECTORS.outlook}`)) {
    // Our own marks in a well carry the address in their label too.
    if (el.localName.startsWith('verimark')) continue;
    const found = recipientOf(el);
    if (found && found.kind !== 'message') out.push({ ...found, el });
  }
  return out;
}
