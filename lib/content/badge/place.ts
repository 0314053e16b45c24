/**
 * Puts a badge host right after its target and nudges it (transform only, so nothing reflows)
 * to the target's right edge: inside the box for fields, just after it for links and chips.
 * Reads of every queued badge happen before any write, once per animation frame.
 */
import { setStyle } from './dom';

const SIZE = 16;

interface Placed {
  target: Element;
  host: HTMLElement;
}

export class Placer {
  private readonly live = new Set<Placed>();
  private readonly queued = new Set<Placed>();
  private readonly offsets = new WeakMap<HTMLElement, { x: number; y: number }>();
  private frame = 0;

  constructor(
    private readonly win: Window,
    private readonly signal: AbortSignal,
  ) {
    win.addEventListener('resize', () => this.replaceAll(), { signal, passive: true });
    // Stopping takes this instance's badges off the page (another instance may be starting).
    signal.addEventListener(
      'abort',
      () => {
        win.cancelAnimationFrame(this.frame);
        for (const { host } of this.live) host.remove();
        this.live.clear();
      },
      { once: true },
    );
  }

  attach(target: Element, host: HTMLElement): void {
    if (!target.parentNode) return;
    target.after(host);
    const placed = { target, host };
    this.live.add(placed);
    this.queue(placed);
  }

  /** Re-measures every badge (after a resize or a batch of page changes). */
  replaceAll(): void {
    for (const placed of this.live) this.queue(placed);
  }

  private queue(placed: Placed): void {
    this.queued.add(placed);
    if (this.frame || this.signal.aborted) return;
    this.frame = this.win.requestAnimationFrame(() => this.flush());
  }

  private flush(): void {
    this.frame = 0;
    const moves: { host: HTMLElement; x: number; y: number }[] = [];
    for (const placed of this.queued) {
      const { target, host } = placed;
      if (!target.isConnected || !host.isConnected) {
        host.remove();
        this.live.delete(placed);
        continue;
      }
      const rects = target.getClientRects();
      const rect = rects[rects.length - 1];
      if (!rect) continue;
      const here = host.getBoundingClientRect();
      const applied = this.offsets.get(host) ?? { x: 0, y: 0 };
      const field = target.localName === 'input' || target.localName === 'textarea';
      const wantX = field ? rect.right - SIZE - 4 : rect.right + 2;
      const wantY = rect.top + (rect.height - SIZE) / 2;
      moves.push({
        host,
        x: Math.round(wantX - (here.left - applied.x)),
        y: Math.round(wantY - (here.top - applied.y)),
      });
    }
    this.queued.clear();
    for (const { host, x, y } of moves) {
      this.offsets.set(host, { x, y });
      setStyle(host, { transform: `translate(${x}px, ${y}px)`, left: 'auto', top: 'auto' });
    }
  }
}
