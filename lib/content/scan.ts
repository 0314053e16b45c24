/**
 * Finds targets in a subtree, and the open shadow roots and frames below it, in two native
 * querySelectorAll passes. Badges drawn by us are skipped.
 */
import { TARGET_SELECTOR } from './extract/targets';

export const BADGE_TAG = 'verimark-badge';

export interface ScanSink {
  target(el: Element): void;
  /** An open shadow root (already scanned by the time this is called). */
  shadowRoot(root: ShadowRoot): void;
  frame(frame: HTMLIFrameElement | HTMLFrameElement): void;
}

export type ScanRoot = Document | ShadowRoot | Element;

function isElement(node: ScanRoot): node is Element {
  return node.nodeType === 1;
}

function visitHost(el: Element, sink: ScanSink): void {
  const name = el.localName;
  if (name === 'iframe' || name === 'frame') sink.frame(el as HTMLIFrameElement);
  const shadow = el.shadowRoot;
  if (shadow && el.localName !== BADGE_TAG) {
    scanTree(shadow, sink);
    sink.shadowRoot(shadow);
  }
}

/** Reports every target, shadow root and frame in `root` (including `root` itself). */
export function scanTree(root: ScanRoot, sink: ScanSink): void {
  if (isElement(root)) {
    if (root.localName === BADGE_TAG) return;
    if (root.matches(TARGET_SELECTOR)) sink.target(root);
    visitHost(root, sink);
  }
  for (const el of root.querySelectorAll(TARGET_SELECTOR)) sink.target(el);
  for (const el of root.querySelectorAll('*')) {
    if (el.shadowRoot || el.localName === 'iframe' || el.localName === 'frame') visitHost(el, sink);
  }
}
