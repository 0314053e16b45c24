/**
 * The content script's context, in place of WXT's ContentScriptContext (wxt.config.ts points
 * `wxt/utils/content-script-context` here for the content script only, scripts/page-scripts-browser.ts):
 * the part this script uses — an abort signal, `isInvalid` (the extension was reloaded or
 * removed: `runtime.id` is gone) and `setInterval` — without WXT's location watcher, logger and
 * helpers this script never calls. As WXT's does, a newer instance of the same script in the
 * same document stops the older one (an event on the document, named for this extension).
 */
import { browser } from './browser';

export class ContentScriptContext {
  private readonly controller = new AbortController();

  constructor(name: string) {
    const type = `${browser.runtime?.id}:${name}:started`;
    const id = Math.random();
    const doc = document;
    doc.dispatchEvent(new CustomEvent(type, { detail: id }));
    doc.addEventListener(
      type,
      (event) => {
        if ((event as CustomEvent).detail !== id) this.controller.abort();
      },
      { signal: this.signal },
    );
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get isInvalid(): boolean {
    if (browser.runtime?.id == null) this.controller.abort();
    return this.signal.aborted;
  }

  get isValid(): boolean {
    return !this.isInvalid;
  }

  setInterval(handler: () => void, timeout: number): number {
    const id = setInterval(() => {
      if (this.isValid) handler();
    }, timeout) as unknown as number;
    this.signal.addEventListener('abort', () => clearInterval(id));
    return id;
  }
}
