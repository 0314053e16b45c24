/**
 * Finds targets in a subtree, and the open shadow roots and frames below it: native
 * querySelectorAll passes for elements (find-targets.ts), one TreeWalker pass for plain-text
 * addresses. Our own marks and overlay are skipped.
 */
import { BADGE_TAG } from '@/lib/content/badge/mark-badge';
import { OVERLAY_TAG } from '@/lib/content/badge/sheet';
import { findTargets, isSmall } from '@/lib/content/extract/find-targets';
import { TARGET_SELECTOR, type Target } from '@/lib/content/extract/targets';
import { findTextTargets } from '@/lib/content/extract/text';

export { BADGE_TAG };

export interface ScanSink {
  target(el: Element): void;
  /** An element whose own text holds addresses. */
  text(el: Element, target: Target): void;
  /** An open shadow root (already scanned by the time this is called). */
  shadowRoot(root: ShadowRoot): void;
  frame(frame: HTMLIFrameElement | HTMLFrameElement): void;
  /** Runs a further pass later, as a task of its own (default: at once). */
  defer?(work: () => void): void;
}

type ScanRoot = Document | ShadowRoot | Element;

export function isOwnNode(node: Node): boolean {
  if (node.nodeType !== 1) return false;
  const name = (node as Element).localName;
  return name === BADGE_TAG || name === OVERLAY_TAG;
}

function isElement(node: ScanRoot): node is Element {
  return node.nodeType === 1;
}

function visitHost(el: Element, sink: ScanSink): void {
  const name = el.localName;
  if (name === 'iframe' || name === 'frame') sink.frame(el as HTMLIFrameElement);
  const shadow = el.shadowRoot;
  if (shadow && !isOwnNode(el)) {
    scanTree(shadow, sink);
    sink.shadowRoot(shadow);
  }
}

/**
 * Elements that can hold an open shadow root besides custom elements (the DOM standard's list for
 * attachShadow). Asked one tag at a time (a fast native query each), so the script looks at a
 * fraction of the page's elements instead of every one.
 */
const HOST_TAGS = [
  'div',
  'span',
  'article',
  'aside',
  'blockquote',
  'body',
  'footer',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'main',
  'nav',
  'p',
  'section',
];

/** Custom elements (a '-' in the name) under `root`: natively by XPath where it can, else by a look at each. */
function customElements(root: ScanRoot): Iterable<Element> {
  const doc = root.ownerDocument ?? (root as Document);
  if (root.nodeType !== 11 && typeof doc.evaluate === 'function') {
    try {
      const found = doc.evaluate('.//*[contains(local-name(), "-")]', root, null, 7, null);
      return Array.from({ length: found.snapshotLength }, (_, i) => found.snapshotItem(i) as Element);
    } catch {
      // Below: every element.
    }
  }
  return [...root.querySelectorAll('*')].filter((el) => el.localName.includes('-'));
}

const CAN_HOST = new Set(['iframe', 'frame', ...HOST_TAGS]);

/** Frames and open shadow roots below `root`. */
function visitHosts(root: ScanRoot, sink: ScanSink, small: boolean): void {
  if (small) {
    // One name read per element; only the elements that can host one are asked for a shadow root
    // (rows a page adds are mostly cells, links and buttons, which cannot).
    for (const el of (root as Element).getElementsByTagName('*')) {
      const name = el.localName;
      if (CAN_HOST.has(name) || name.includes('-')) visitHost(el, sink);
    }
    return;
  }
  for (const tag of ['iframe', 'frame']) for (const el of root.querySelectorAll(tag)) visitHost(el, sink);
  for (const tag of HOST_TAGS) {
    for (const el of root.querySelectorAll(tag)) if (el.shadowRoot) visitHost(el, sink);
  }
  for (const el of customElements(root)) if (el.shadowRoot) visitHost(el, sink);
}

/** Reports every target, shadow root and frame in `root` (including `root` itself). */
export function scanTree(root: ScanRoot, sink: ScanSink): void {
  const targets = new Set<Element>();
  // Asked once: each pass below takes another way through a small subtree (rows just added).
  const small = isSmall(root);
  if (isElement(root)) {
    if (isOwnNode(root)) return;
    if (root.matches(TARGET_SELECTOR)) {
      targets.add(root);
      sink.target(root);
    }
    visitHost(root, sink);
  }
  for (const el of findTargets(root, small)) {
    targets.add(el);
    sink.target(el);
  }
  // Shadow roots and frames, then plain text: each pass may be a task of its own on a big page.
  const defer = sink.defer ?? ((work: () => void) => work());
  defer(() => visitHosts(root, sink, small));
  defer(() =>
    findTextTargets(root, TARGET_SELECTOR, (el, target) => sink.text(el, target), { targets, small }),
  );
}
