/**
 * Finds targets in a subtree, and the open shadow roots and frames below it: two native
 * querySelectorAll passes for elements, one TreeWalker pass for plain-text addresses. Our own
 * marks and overlay are skipped.
 */
import { BADGE_TAG } from './badge/badge';
import { OVERLAY_TAG } from './badge/sheet';
import { TARGET_SELECTOR, type Target } from './extract/targets';
import { findTextTargets } from './extract/text';

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

/** Reports every target, shadow root and frame in `root` (including `root` itself). */
export function scanTree(root: ScanRoot, sink: ScanSink): void {
  if (isElement(root)) {
    if (isOwnNode(root)) return;
    if (root.matches(TARGET_SELECTOR)) sink.target(root);
    visitHost(root, sink);
  }
  for (const el of root.querySelectorAll(TARGET_SELECTOR)) sink.target(el);
  // Shadow roots and frames, then plain text: each pass may be a task of its own on a big page.
  const defer = sink.defer ?? ((work: () => void) => work());
  defer(() => {
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot || el.localName === 'iframe' || el.localName === 'frame') visitHost(el, sink);
    }
  });
  defer(() => findTextTargets(root, TARGET_SELECTOR, (el, target) => sink.text(el, target)));
}
