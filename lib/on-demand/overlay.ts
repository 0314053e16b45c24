/**
 * One overlay root per document: a single host element with a closed shadow root, shown in the
 * browser's top layer (Popover API) while a popover is open, so nothing of the page or of other
 * marks paints over it. The panel is placed next to its badge by @floating-ui/dom (flip, shift,
 * size) and stays inside the viewport at every edge; it follows scrolling while open. Escape or a
 * press outside closes it; focus goes back to the badge.
 */
import { autoUpdate, computePosition, flip, offset, shift, size } from '@floating-ui/dom';
import { h, setStyle } from '@/lib/content/badge/dom';
import { OVERLAY_TAG } from '@/lib/content/badge/sheet';
import { isUserEvent } from '@/lib/content/marking/user-event';
import { uiLanguage } from '@/lib/shared/i18n';
import { DARK, LIGHT, type PopoverView, renderPopover } from './popover-view';

export { OVERLAY_TAG };

const MARGIN = 8;

interface Open {
  anchor: HTMLElement;
  /** Stops following the anchor (autoUpdate). */
  unfollow: () => void;
  stop: () => void;
  onClosed: () => void;
}

type PopoverHost = HTMLElement & { showPopover?: () => void; hidePopover?: () => void };

export class Overlay {
  private host: PopoverHost | null = null;
  private panel: HTMLElement | null = null;
  private current: Open | null = null;

  constructor(
    private readonly doc: Document,
    private readonly signal: AbortSignal,
  ) {
    signal.addEventListener('abort', () => this.host?.remove(), { once: true });
  }

  isOpenFor(anchor: Element): boolean {
    return this.current?.anchor === anchor;
  }

  /** Opens (or moves) the popover next to `anchor`. `onClosed` runs once when it closes. */
  open(anchor: HTMLElement, view: PopoverView, onClosed: () => void): void {
    this.close(false);
    const panel = this.ensurePanel();
    this.render(view);
    const host = this.host as PopoverHost;
    setStyle(host, { display: 'block' });
    if (!host.isConnected) this.doc.documentElement.append(host);
    try {
      host.showPopover?.();
    } catch {
      // Already shown, or the Popover API is missing: the host's z-index still applies.
    }
    const outside = (event: Event) => {
      // Only a person's press closes it (not the presses a Replace makes on the compose's controls).
      if (!isUserEvent(event)) return;
      const path = event.composedPath();
      if (!path.includes(host) && !path.includes(this.current?.anchor ?? anchor)) this.close(false);
    };
    const keys = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.stopPropagation();
      event.preventDefault();
      this.close(true);
    };
    const view_ = this.doc.defaultView;
    this.doc.addEventListener('pointerdown', outside, { capture: true, signal: this.signal });
    view_?.addEventListener('keydown', keys, { capture: true, signal: this.signal });
    const open: Open = {
      anchor,
      onClosed,
      unfollow: this.follow(anchor, panel),
      stop: () => {
        open.unfollow();
        this.doc.removeEventListener('pointerdown', outside, { capture: true });
        view_?.removeEventListener('keydown', keys, { capture: true });
      },
    };
    this.current = open;
    (panel.querySelector('button') ?? panel).focus({ preventScroll: true });
  }

  /** Moves the open popover to another anchor (its element was replaced on the page). */
  moveTo(anchor: HTMLElement): void {
    const open = this.current;
    if (!open || !this.panel || open.anchor === anchor) return;
    open.unfollow();
    open.anchor = anchor;
    open.unfollow = this.follow(anchor, this.panel);
  }

  /** Keeps the panel next to `anchor` while it is open (scrolling, resizing); returns the stop. */
  private follow(anchor: HTMLElement, panel: HTMLElement): () => void {
    const place = () => {
      void computePosition(anchor, panel, {
        strategy: 'fixed',
        placement: 'bottom-start',
        middleware: [
          offset(6),
          flip({ padding: MARGIN }),
          shift({ padding: MARGIN }),
          size({
            padding: MARGIN,
            apply({ availableWidth, availableHeight }) {
              setStyle(panel, {
                'max-width': `${Math.max(160, Math.min(360, availableWidth))}px`,
                'max-height': `${Math.max(120, availableHeight)}px`,
              });
            },
          }),
        ],
      }).then(({ x, y }) => setStyle(panel, { left: `${x}px`, top: `${y}px` }));
    };
    return autoUpdate(anchor, panel, place);
  }

  /** Redraws the open popover (its addresses changed state); focus stays on the same button. */
  update(view: PopoverView): void {
    if (!this.current || !this.panel) return;
    const root = this.panel.getRootNode() as ShadowRoot;
    const focused = root.activeElement?.textContent ?? null;
    this.render(view);
    const again = [...this.panel.querySelectorAll('button')].find((b) => b.textContent === focused);
    (again ?? this.panel.querySelector('button') ?? this.panel).focus({ preventScroll: true });
  }

  close(returnFocus: boolean): void {
    const open = this.current;
    if (!open) return;
    this.current = null;
    open.stop();
    try {
      this.host?.hidePopover?.();
    } catch {
      // Not shown as a popover.
    }
    if (this.host) setStyle(this.host, { display: 'none' });
    this.panel?.replaceChildren();
    open.onClosed();
    if (returnFocus && open.anchor.isConnected) open.anchor.focus({ preventScroll: true });
  }

  private render(view: PopoverView): void {
    const panel = this.ensurePanel();
    const dark = this.doc.defaultView?.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false;
    const palette = dark ? DARK : LIGHT;
    setStyle(panel, {
      background: palette.bg,
      color: palette.fg,
      border: `1px solid ${palette.border}`,
    });
    panel.replaceChildren(renderPopover(this.doc, palette, view));
    panel.setAttribute('aria-label', view.label);
  }

  private ensurePanel(): HTMLElement {
    if (this.panel) return this.panel;
    const host = this.doc.createElement(OVERLAY_TAG) as PopoverHost;
    setStyle(host, {
      all: 'initial',
      display: 'none',
      position: 'fixed',
      inset: 'auto',
      left: '0',
      top: '0',
      width: '0',
      height: '0',
      margin: '0',
      padding: '0',
      border: '0',
      overflow: 'visible',
      background: 'transparent',
      'z-index': '2147483647',
    });
    host.setAttribute('popover', 'manual');
    // Its words are in the UI language, whatever the page's.
    host.lang = uiLanguage();
    const root = host.attachShadow({ mode: 'closed' });
    const panel = h(this.doc, 'div', {
      all: 'initial',
      display: 'block',
      position: 'fixed',
      left: '0',
      top: '0',
      'box-sizing': 'border-box',
      width: 'max-content',
      'min-width': '200px',
      'max-width': '360px',
      overflow: 'auto',
      padding: '10px 12px',
      'border-radius': '8px',
      'box-shadow': '0 6px 24px rgba(0,0,0,.25)',
      font: '12px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif',
      'overflow-wrap': 'normal',
      'word-break': 'normal',
      hyphens: 'none',
    });
    panel.setAttribute('role', 'dialog');
    panel.tabIndex = -1;
    for (const type of ['click', 'mousedown', 'mouseup', 'pointerdown', 'pointerup', 'keyup', 'input']) {
      panel.addEventListener(type, (event) => event.stopPropagation(), { signal: this.signal });
    }
    panel.addEventListener(
      'keydown',
      (event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          this.close(true);
        }
        event.stopPropagation();
      },
      { signal: this.signal },
    );
    root.append(panel);
    this.host = host;
    this.panel = panel;
    return panel;
  }
}
