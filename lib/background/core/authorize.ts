/**
 * Per-sender authorization of runtime messages. Extension pages (popup, options) may call
 * everything; content scripts only CONTENT_SCRIPT_MESSAGES; anything else is refused.
 * The decision rests on what the browser sets (the sender's extension id and its URL's origin),
 * never on data a page could write.
 */
import { browser } from 'wxt/browser';
import { ApiError } from '@/lib/api/errors';
import { CONTENT_SCRIPT_MESSAGES, type ProtocolMap } from '@/lib/shared/messages';

/** The parts of runtime.MessageSender that decide what a sender may do. */
export interface SenderInfo {
  id?: string;
  url?: string;
  tab?: { id?: number };
  /** 0 for a tab's top frame. */
  frameId?: number;
}

type SenderKind = 'extension_page' | 'content_script' | 'unknown';

const CONTENT_ALLOWED: ReadonlySet<string> = new Set(CONTENT_SCRIPT_MESSAGES);
/** Pages a content script may run in. */
const PAGE_PROTOCOLS = new Set(['http:', 'https:', 'file:']);

function parse(url: string | undefined): URL | null {
  try {
    return url ? new URL(url) : null;
  } catch {
    return null;
  }
}

/** Scheme and host: `URL.origin` is "null" for extension schemes in some engines. */
const originOf = (url: URL) => `${url.protocol}//${url.host}`;

export function senderKind(sender: SenderInfo | undefined): SenderKind {
  if (!sender || sender.id !== browser.runtime.id) return 'unknown';
  const url = parse(sender.url);
  if (!url) return 'unknown';
  const extension = new URL(browser.runtime.getURL('/'));
  if (originOf(url) === originOf(extension)) return 'extension_page';
  if (sender.tab && PAGE_PROTOCOLS.has(url.protocol)) return 'content_script';
  return 'unknown';
}

export function isAllowed(type: keyof ProtocolMap, sender: SenderInfo | undefined): boolean {
  const kind = senderKind(sender);
  if (kind === 'extension_page') return true;
  return kind === 'content_script' && CONTENT_ALLOWED.has(type);
}

/** Throws a `bad_request` ApiError when `sender` may not send `type`. */
export function authorize(type: keyof ProtocolMap, sender: SenderInfo | undefined): void {
  if (!isAllowed(type, sender)) {
    throw new ApiError('bad_request', `Message "${type}" is not allowed from this sender`);
  }
}
