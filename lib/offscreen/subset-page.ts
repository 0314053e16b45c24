/**
 * The offscreen document's one job (Chrome MV3): build a results subset and make a blob URL of
 * it for the downloads API, which the service worker cannot (no URL.createObjectURL there).
 * It answers only the extension's own background: never a content script, never another page.
 * It lets go of what it made on its own (SubsetUrls): each blob URL after a minute at most, and
 * the whole document once none is left.
 */
import { browser } from 'wxt/browser';
import { subsetBlob } from '@/lib/background/bulk/subset-blob';
import { isOffscreenRequest, type OffscreenRequest, type OffscreenSubsetAnswer } from './protocol';

interface Sender {
  id?: string;
  tab?: unknown;
  url?: string;
}

/** The background service worker: this extension, no tab, at the extension's own origin. */
export function fromBackground(sender: Sender): boolean {
  if (sender.id !== browser.runtime.id || sender.tab !== undefined) return false;
  const own = new URL(browser.runtime.getURL('/'));
  try {
    const url = new URL(sender.url ?? '');
    return url.protocol === own.protocol && url.host === own.host;
  } catch {
    return false;
  }
}

/** A blob URL is let go this long after it was handed out, whatever the service worker does. */
export const SUBSET_URL_LIFETIME_MS = 60_000;
/** With no blob URL left, the document closes itself after this pause (a new request keeps it open). */
export const IDLE_CLOSE_MS = 2_000;

/**
 * The blob URLs this document made, each revoked when the background says its download is over
 * or after SUBSET_URL_LIFETIME_MS at most (the downloads API reads a blob URL as the download
 * starts, and a worker stopped meanwhile, e.g. behind a Save dialog, never says). Once none is
 * left the document closes itself, so a subset (up to 25 MB of addresses) never outlives its
 * download here either.
 */
export class SubsetUrls {
  private readonly urls = new Map<string, ReturnType<typeof setTimeout>>();
  private idle: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly close: () => void,
    private readonly lifetimeMs = SUBSET_URL_LIFETIME_MS,
  ) {}

  /** Work is coming: the document stays open for it. */
  busy(): void {
    clearTimeout(this.idle);
    this.idle = undefined;
  }

  make(blob: Blob): string {
    this.busy();
    const url = URL.createObjectURL(blob);
    this.urls.set(
      url,
      setTimeout(() => this.revoke(url), this.lifetimeMs),
    );
    return url;
  }

  revoke(url: string): void {
    const timer = this.urls.get(url);
    if (timer === undefined) return;
    clearTimeout(timer);
    this.urls.delete(url);
    URL.revokeObjectURL(url);
    this.settle();
  }

  /** Closes the document after IDLE_CLOSE_MS once nothing is held (and no request is running). */
  settle(): void {
    if (this.urls.size > 0 || this.idle !== undefined) return;
    this.idle = setTimeout(() => {
      this.idle = undefined;
      if (this.urls.size === 0) this.close();
    }, IDLE_CLOSE_MS);
  }

  get size(): number {
    return this.urls.size;
  }
}

async function answer(
  request: OffscreenRequest,
  urls: SubsetUrls,
): Promise<OffscreenSubsetAnswer | { ok: true }> {
  if (request.verimarkOffscreen === 'revoke') {
    urls.revoke(request.url);
    return { ok: true };
  }
  urls.busy();
  const built = await subsetBlob(request.url, request.subset);
  if (!built.ok) {
    urls.settle();
    return built;
  }
  return { ok: true, url: urls.make(built.blob), rows: built.rows };
}

export function startSubsetPage(urls = new SubsetUrls(() => window.close())): SubsetUrls {
  browser.runtime.onMessage.addListener((message: unknown, sender: Sender) => {
    if (!isOffscreenRequest(message) || !fromBackground(sender)) return undefined;
    return answer(message, urls);
  });
  return urls;
}
