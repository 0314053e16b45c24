/**
 * The popover's code is a second script (entrypoints/popover.ts), injected by the background into
 * this content script's world on the first badge opened: it shares the world's globals, not the
 * page's. Types only are imported here, so nothing of it weighs on the marking script.
 */
import { sendMessage } from '@/lib/shared/messages';
import type { PopoverView } from './popover-view';

export const OVERLAY_GLOBAL = '__verimarkOverlay';

export interface OverlayApi {
  isOpenFor(anchor: Element): boolean;
  open(anchor: HTMLElement, view: PopoverView, onClosed: () => void): void;
  update(view: PopoverView): void;
  close(returnFocus: boolean): void;
}

export interface OverlayModule {
  createOverlay(doc: Document, signal: AbortSignal): OverlayApi;
}

function loaded(): OverlayModule | null {
  return ((globalThis as Record<string, unknown>)[OVERLAY_GLOBAL] as OverlayModule | undefined) ?? null;
}

let loading: Promise<OverlayModule> | null = null;

export function loadOverlay(): Promise<OverlayModule> {
  const ready = loaded();
  if (ready) return Promise.resolve(ready);
  loading ??= sendMessage('loadPopover')
    .then(() => {
      const module = loaded();
      if (!module) throw new Error('popover script did not load');
      return module;
    })
    .finally(() => {
      loading = null;
    });
  return loading;
}
