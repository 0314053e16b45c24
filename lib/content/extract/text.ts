/**
 * Addresses written as plain text (a CRM cell, "Bob Martin <bob@example.com>" in a message).
 * A TreeWalker visits the text nodes of a subtree; only those with an '@' cost more than a
 * look. Scripts, styles, editable regions, targets of other kinds and our own UI are skipped.
 * The element holding the text is the target; its badge follows its last address.
 */
import { addressesInText } from '@/lib/shared/extract/address-list';
import { isSmall } from './find-targets';
import type { Target } from './targets';

/** Where text is never read: code and styles, what the user edits, our own elements. */
const SKIP_TAGS = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'textarea',
  'select',
  'title',
  'verimark-badge',
  'verimark-overlay',
]);
const EDITABLE = new Set(['', 'true', 'plaintext-only']);
const SKIP = `${[...SKIP_TAGS].join(',')},[contenteditable=""],[contenteditable="true"],[contenteditable="plaintext-only"]`;

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

/** XPath's ordered snapshot type (XPathResult.ORDERED_NODE_SNAPSHOT_TYPE). */
const SNAPSHOT = 7;

/**
 * The text nodes of `root` holding an '@', in document order. Chromium filters them natively with
 * XPath: only those become script objects (a TreeWalker hands every text node of the page to the
 * script), and not those inside a `mailto:` link (the link is the target: a CRM table's thousand
 * addresses are such). A TreeWalker where XPath is missing or cannot start at `root` (a shadow root).
 */
function* textsWithAt(doc: Document, root: Node, small: boolean): Generator<Text> {
  // A small subtree (rows just added) is walked: starting XPath costs more than its few texts.
  if (!small && root.nodeType !== 11 && typeof doc.evaluate === 'function') {
    let snapshot: XPathResult | null = null;
    try {
      snapshot = doc.evaluate(
        './/text()[contains(., "@")][not(ancestor::a[starts-with(translate(@href, "MAILTO", "mailto"), "mailto:")])]',
        root,
        null,
        SNAPSHOT,
        null,
      );
    } catch {
      snapshot = null;
    }
    if (snapshot) {
      for (let i = 0; i < snapshot.snapshotLength; i++) yield snapshot.snapshotItem(i) as Text;
      return;
    }
  }
  const walker = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode())
    if ((node as Text).data.includes('@')) yield node as Text;
}

/** The elements of `root` (itself included) that match `selector`. */
function matching(root: Node, selector: string): Set<Element> {
  const all = new Set((root as ParentNode).querySelectorAll(selector));
  if (root.nodeType === 1 && (root as Element).matches(selector)) all.add(root as Element);
  return all;
}

/**
 * Calls `visit` once per element of `root` (itself included) whose own text holds an address.
 * `otherTargets` is the selector of the other kinds (their text is theirs). What the caller knows
 * already: `targets`, the elements of `root` matching it (one lookup per ancestor instead of a
 * selector match), and whether `root` is small (find-targets.ts).
 */
export function findTextTargets(
  root: Node,
  otherTargets: string,
  visit: (el: Element, target: Target) => void,
  known: { targets?: ReadonlySet<Element>; small?: boolean } = {},
): void {
  const doc = root.ownerDocument ?? (root as Document);
  if (doc.designMode === 'on') return;
  const targets = known.targets ?? matching(root, otherTargets);
  // What lies above the scanned subtree is the same for all its text: asked once.
  let outside: boolean | undefined;
  const readableOutside = () => {
    if (outside === undefined) {
      const above = root.nodeType === 1 ? (root as Element).parentElement : null;
      outside = !above || (above.closest(SKIP) === null && above.closest(otherTargets) === null);
    }
    return outside;
  };
  const readable = (parent: Element) => {
    for (let el: Element | null = parent; el; el = el.parentElement) {
      if (SKIP_TAGS.has(el.localName) || targets.has(el)) return false;
      const editable = el.getAttribute('contenteditable');
      if (editable !== null && EDITABLE.has(editable.toLowerCase())) return false;
      if (el === root) return readableOutside();
    }
    return true;
  };
  let last: Element | null = null;
  for (const node of textsWithAt(doc, root, known.small ?? isSmall(root))) {
    const parent = node.parentElement;
    if (!parent || parent === last) continue;
    last = parent;
    if (!readable(parent)) continue;
    const target = textTarget(parent);
    if (target) visit(parent, target);
  }
}
