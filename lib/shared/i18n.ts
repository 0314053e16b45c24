/**
 * The one i18n of every context (popup, options, content script, background): the strings of
 * public/_locales through browser.i18n, with keys typed from the English catalog (a type-only
 * import: the catalog is not bundled).
 */
import { browser } from 'wxt/browser';
import type messages from '@/public/_locales/en/messages.json';

export type MessageKey = keyof typeof messages;

type GetMessage = (name: string, substitutions?: string[]) => string;

/** The localized text of `key` with $1..$9 filled; the key itself if the browser has no text for it. */
export function t(key: MessageKey, ...substitutions: (string | number)[]): string {
  try {
    const getMessage = browser.i18n.getMessage as GetMessage;
    return getMessage(key, substitutions.map(String)) || key;
  } catch {
    return key;
  }
}
