/**
 * Addresses written as plain text (a CRM cell, "Bob Martin <bob@example.com>" in a message).
 * A TreeWalker visits the text nodes of a subtree; only those with an '@' cost more than a
 * look. Scripts, styles, editable regions, targets of other kinds and our own UI are skipped.
 * The element holding the text is the target; its badge follows its last address.
 */
import { addressesInText } from '@/lib/shared/extract/address-list';
import type { Target } from './targets';

/** Where text is never read: code and styles, what the user edits, our own elements. */
const SKIP =
  'script,style,noscript,template,textarea,select,title,verimark-badge,verimark-overlay,[contenteditable=""],[contenteditable="true"],[contenteditable="plaintext-only"]';

function readable(parent: Element, otherTargets: string): boolean {
  if (parent.closest(SKIP)) return false;
  if ((parent as HTMLElement).isContentEditable) return false;
  // Text inside a link, chip or pill that is already a target of its own.
  return parent.closest(otherTargets) === null;
}

/** The plain-text target an element is: addresses in its own text nodes, or null. */
export function textTarget(el: Element): Target | null {
  const emails: string[] = [];
  let after: ChildNode | null = null;
  for (let node = el.firstChild; node; node = node.nextSibling) {
    if (node.nodeType !== 3) continue;
    const data = (node as Text).data;
    if (!data.includes('@')) continue;
    const found = addressesInText(data).filter((a) => /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(a));
    if (found.length === 0) continue;
    for (const email of found) if (!emails.includes(email)) emails.push(email);
    after = node as ChildNode;
  }
  return after && emails.length > 0 ? { kind: 'text', emails, after } : null;
}

/**
 * Calls `visit` once per element of `root` (itself included) whose own text holds an address.
 * `otherTargets` is the selector of the other kinds (their text is theirs).
 */
export function findTextTargets(
  root: Node,
  otherTargets: string,
  visit: (el: Element, target: Target) => void,
): void {
  const doc = root.ownerDocument ?? (root as Document);
  const walker = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  let last: Element | null = null;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!(node as Text).data.includes('@')) continue;
    const parent = node.parentElement;
    if (!parent || parent === last) continue;
    last = parent;
    if (!readable(parent, otherTargets)) continue;
    const target = textTarget(parent);
    if (target) visit(parent, target);
  }
}
