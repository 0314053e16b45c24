/**
 * What the marking script does not carry: the code that runs only after a person acts — a badge's
 * popover (with @floating-ui/dom), Replace/Undo of fields and compose recipients, and the send
 * guard's dialog with its Replace. It is a second script (entrypoints/popover.ts), injected by the
 * background into this content script's world the first time it is needed (a badge opened, a Send
 * held back): it shares the world's globals, not the page's. Types only are imported here, so
 * nothing of it weighs on the marking script (docs/benchmarks.md: the content script's size).
 */

import type { Badge } from '@/lib/content/badge/mark-badge';
import { sendMessage } from '@/lib/content/extension/wire';
import type { AddressBook } from '@/lib/content/marking/address-book';
import type { Marker } from '@/lib/content/marking/marker';
import type { GuardUi } from '@/lib/content/send-guard/guard';

export const UI_GLOBAL = '__verimarkUi';

/** The badges' popovers of one content script (lib/on-demand/popovers.ts). */
export interface PopoversApi {
  /** A person activated a badge: open its popover, or close it when it is already open. */
  toggle(el: Element, badge: Badge): void;
  /** The element was redrawn: refresh its popover if it is the open one. */
  rendered(el: Element): void;
}

/** What the on-demand script hands the marking script. */
export interface UiModule extends GuardUi {
  createPopovers(marker: () => Marker, book: AddressBook, signal: AbortSignal): PopoversApi;
}

function loaded(): UiModule | null {
  return ((globalThis as Record<string, unknown>)[UI_GLOBAL] as UiModule | undefined) ?? null;
}

let loading: Promise<UiModule> | null = null;

/** The on-demand script's module, injected first if it is not there yet. */
export function loadUi(): Promise<UiModule> {
  const ready = loaded();
  if (ready) return Promise.resolve(ready);
  loading ??= sendMessage('loadPopover')
    .then(() => {
      const module = loaded();
      if (!module) throw new Error('on-demand script did not load');
      return module;
    })
    .finally(() => {
      loading = null;
    });
  return loading;
}

/**
 * The marking script's side of the popovers: nothing until a badge is first opened, then the
 * on-demand script's Popovers, to which every later call goes.
 */
export class LazyPopovers {
  private popovers: PopoversApi | null = null;

  constructor(
    private readonly marker: () => Marker,
    private readonly book: AddressBook,
    private readonly signal: AbortSignal,
  ) {}

  async toggle(el: Element, badge: Badge): Promise<void> {
    if (!this.popovers) {
      const ui = await loadUi();
      if (this.signal.aborted) return;
      this.popovers ??= ui.createPopovers(this.marker, this.book, this.signal);
    }
    this.popovers.toggle(el, badge);
  }

  rendered(el: Element): void {
    this.popovers?.rendered(el);
  }
}
