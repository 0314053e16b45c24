/**
 * Per-sender authorization of runtime messages. Extension pages (popup, options) may call
 * everything; content scripts only CONTENT_SCRIPT_MESSAGES; anything else is refused.
 */
import { browser } from 'wxt/browser';
import { ApiError } from '../api/errors';
import { CONTENT_SCRIPT_MESSAGES, type ProtocolMap } from '../messages';

/** The parts of runtime.MessageSender that decide what a sender may do. */
export interface SenderInfo {
  id?: string;
  url?: string;
  tab?: unknown;
}

export type SenderKind = 'extension_page' | 'content_script' | 'unknown';

const CONTENT_ALLOWED: ReadonlySet<string> = new Set(CONTENT_SCRIPT_MESSAGES);

export function senderKind(sender: SenderInfo | undefined): SenderKind {
  if (!sender) return 'unknown';
  if (sender.id !== undefined && sender.id !== browser.runtime.id) return 'unknown';
  const extensionOrigin = browser.runtime.getURL('/');
  const fromExtension = typeof sender.url === 'string' && sender.url.startsWith(extensionOrigin);
  if (fromExtension) return 'extension_page';
  if (sender.tab) return 'content_script';
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
