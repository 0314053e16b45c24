/**
 * One shared MutationObserver for every root (the document, open shadow roots, same-origin frames).
 * Records are batched and handled at idle time; past a threshold of added nodes the batch
 * becomes a full rescan, which is cheaper than walking thousands of small additions.
 */
import { BADGE_TAG } from './scan';
import { idleBatch } from './scheduler';

export const WATCHED_ATTRIBUTES = [
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

export interface Batch {
  added: Element[];
  changed: Element[];
  rescan: boolean;
  /** Nodes of the page (not only our badges) were added or removed: badges may have moved. */
  moved: boolean;
}

const isBadge = (node: Node) => node.nodeType === 1 && (node as Element).localName === BADGE_TAG;

export class TreeWatcher {
  private readonly observer: MutationObserver;
  private readonly added = new Set<Element>();
  private readonly changed = new Set<Element>();
  private rescan = false;
  private moved = false;
  private readonly request: () => void;

  constructor(
    win: Window,
    signal: AbortSignal,
    private readonly onBatch: (batch: Batch) => void,
    private readonly threshold = 2000,
  ) {
    this.request = idleBatch(win, signal, () => this.flush());
    this.observer = new MutationObserver((records) => this.record(records));
    signal.addEventListener('abort', () => this.observer.disconnect(), { once: true });
  }

  observe(root: Document | ShadowRoot): void {
    this.observer.observe(root, {
      childList: true,
      subtree: true,
      attributes: true,
      attributeFilter: WATCHED_ATTRIBUTES,
    });
  }

  /** Asks for a full rescan at the next idle time (e.g. after an SPA navigation). */
  requestRescan(): void {
    this.rescan = true;
    this.request();
  }

  private record(records: MutationRecord[]): void {
    let relevant = false;
    for (const record of records) {
      if (record.type === 'attributes') {
        const target = record.target as Element;
        if (target.localName !== BADGE_TAG) {
          this.changed.add(target);
          relevant = true;
        }
        continue;
      }
      // Inserting or removing our own badges is no news: it must not cause another pass.
      const pageNodes = (nodes: NodeList) => Array.from(nodes).some((node) => !isBadge(node));
      if (pageNodes(record.removedNodes)) {
        this.moved = true;
        relevant = true;
      }
      if (!pageNodes(record.addedNodes)) continue;
      this.moved = true;
      relevant = true;
      if (this.rescan) continue;
      for (const node of record.addedNodes)
        if (node.nodeType === 1 && !isBadge(node)) this.added.add(node as Element);
      if (this.added.size > this.threshold) {
        this.rescan = true;
        this.added.clear();
      }
    }
    if (relevant) this.request();
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
