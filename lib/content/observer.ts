/**
 * One shared MutationObserver for every root (the document, open shadow roots, same-origin frames).
 * Records are batched and handled at idle time; past a threshold of added nodes the batch
 * becomes a full rescan, which is cheaper than walking thousands of small additions.
 */
import { isOwnNode } from './scan';
import { idleBatch } from './scheduler';

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

export interface Batch {
  added: Element[];
  changed: Element[];
  rescan: boolean;
  /** Nodes of the page (not only our badges) were added or removed: badges may have moved. */
  moved: boolean;
}

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
      characterData: true,
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
      const pageNodes = (nodes: NodeList) => Array.from(nodes).some((node) => !isOwnNode(node));
      if (pageNodes(record.removedNodes)) {
        this.moved = true;
        relevant = true;
      }
      if (!pageNodes(record.addedNodes)) continue;
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
