/**
 * One shared MutationObserver for every root (the document, open shadow roots, same-origin frames).
 * The page's additions are handled in the observer's own callback, right after the page's task
 * and before the browser renders it: marks for new rows land in the same style and layout pass as
 * the rows themselves instead of costing the page a pass of their own. Past a threshold of added
 * nodes the batch becomes a full rescan at idle time, which is cheaper than walking thousands of
 * small additions. Our own writes are made with the observer paused (`quiet`), so they cost no
 * records at all.
 */

import { idleBatch } from './idle-work';
import { isOwnNode } from './scan';

const WATCHED_ATTRIBUTES = [
  'href',
  'data-hovercard-id',
  'email',
  'title',
  'aria-label',
  'value',
  'type',
  'name',
  'id',
  'autocomplete',
];

const OPTIONS: MutationObserverInit = {
  childList: true,
  subtree: true,
  attributes: true,
  attributeFilter: WATCHED_ATTRIBUTES,
  characterData: true,
};

export interface Batch {
  added: Element[];
  changed: Element[];
  rescan: boolean;
  /** Nodes of the page (not only our badges) were added or removed: badges may have moved. */
  moved: boolean;
}

/** True when a node list holds a node of the page (not one of our own). */
function hasPageNode(nodes: NodeList): boolean {
  for (let i = 0; i < nodes.length; i++) if (!isOwnNode(nodes[i] as Node)) return true;
  return false;
}

function isLive(root: Document | ShadowRoot): boolean {
  return root.nodeType === 9
    ? (root as Document).defaultView !== null
    : (root as ShadowRoot).host.isConnected;
}

export class TreeWatcher {
  private readonly observer: MutationObserver;
  private readonly roots = new Set<Document | ShadowRoot>();
  private readonly added = new Set<Element>();
  private readonly changed = new Set<Element>();
  private rescan = false;
  private moved = false;
  private readonly request: () => void;

  constructor(
    win: Window,
    private readonly signal: AbortSignal,
    private readonly onBatch: (batch: Batch) => void,
    private readonly threshold = 2000,
  ) {
    this.request = idleBatch(win, signal, () => this.flush());
    this.observer = new MutationObserver((records) => this.record(records));
    signal.addEventListener('abort', () => this.observer.disconnect(), { once: true });
  }

  /** Watches `root` (once: a root already watched is left as it is). */
  observe(root: Document | ShadowRoot): void {
    if (this.signal.aborted || this.roots.has(root)) return;
    this.roots.add(root);
    this.observer.observe(root, OPTIONS);
  }

  /**
   * The watched roots still on the page; the others are forgotten (a shadow root whose host left
   * the page, the document of a removed or navigated frame). One that comes back is found again
   * by the scan of what was added, and watched again.
   */
  liveRoots(): (Document | ShadowRoot)[] {
    for (const root of this.roots) if (!isLive(root)) this.roots.delete(root);
    return [...this.roots];
  }

  /** Asks for a full rescan at the next idle time (e.g. after an SPA navigation). */
  requestRescan(): void {
    this.rescan = true;
    this.request();
  }

  /**
   * Runs `work` (our own writes: badges, status attributes) unobserved. What the page changed
   * before is handled first, as it would have been.
   */
  quiet(work: () => void): void {
    const pending = this.observer.takeRecords();
    this.observer.disconnect();
    try {
      work();
    } finally {
      if (!this.signal.aborted) for (const root of this.liveRoots()) this.observer.observe(root, OPTIONS);
      if (pending.length > 0) this.record(pending);
    }
  }

  private record(records: MutationRecord[]): void {
    let relevant = false;
    for (const record of records) {
      if (record.type === 'characterData') {
        // A text changed: its element is read again (plain-text addresses).
        const parent = record.target.parentElement;
        if (parent && !this.rescan && (record.target as Text).data.includes('@')) {
          this.added.add(parent);
          relevant = true;
        }
        continue;
      }
      if (record.type === 'attributes') {
        const target = record.target as Element;
        if (!isOwnNode(target)) {
          this.changed.add(target);
          relevant = true;
        }
        continue;
      }
      // Inserting or removing our own badges is no news: it must not cause another pass.
      if (record.removedNodes.length > 0 && hasPageNode(record.removedNodes)) {
        this.moved = true;
        relevant = true;
      }
      if (record.addedNodes.length === 0 || !hasPageNode(record.addedNodes)) continue;
      this.moved = true;
      relevant = true;
      if (this.rescan) continue;
      for (const node of record.addedNodes) {
        if (node.nodeType === 1 && !isOwnNode(node)) this.added.add(node as Element);
        else if (node.nodeType === 3 && (node as Text).data.includes('@') && node.parentElement)
          this.added.add(node.parentElement);
      }
      if (this.added.size > this.threshold) {
        this.rescan = true;
        this.added.clear();
      }
    }
    if (!relevant) return;
    // A flood waits for idle time and a full rescan; anything smaller is handled now.
    if (this.rescan) this.request();
    else this.flush();
  }

  private flush(): void {
    const batch: Batch = {
      added: [...this.added],
      changed: [...this.changed],
      rescan: this.rescan,
      moved: this.moved || this.rescan,
    };
    this.added.clear();
    this.changed.clear();
    this.rescan = false;
    this.moved = false;
    this.onBatch(batch);
  }
}
