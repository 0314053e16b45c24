/**
 * The offscreen document's one job (Chrome MV3): build a results subset and make a blob URL of
 * it for the downloads API, which the service worker cannot (no URL.createObjectURL there).
 * It answers only the extension's own background: never a content script, never another page.
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

async function answer(request: OffscreenRequest): Promise<OffscreenSubsetAnswer | { ok: true }> {
  if (request.verimarkOffscreen === 'revoke') {
    if (request.url.startsWith('blob:')) URL.revokeObjectURL(request.url);
    return { ok: true };
  }
  const built = await subsetBlob(request.url, request.subset);
  if (!built.ok) return built;
  return { ok: true, url: URL.createObjectURL(built.blob), rows: built.rows };
}

export function startSubsetPage(): void {
  browser.runtime.onMessage.addListener((message: unknown, sender: Sender) => {
    if (!isOffscreenRequest(message) || !fromBackground(sender)) return undefined;
    return answer(message);
  });
}
