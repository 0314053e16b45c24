/**
 * The one i18n of every context (popup, options, content script, background): the strings of
 * public/_locales through browser.i18n, with keys typed from the English catalog (a type-only
 * import: the catalog is not bundled). Numbers are written as the UI language writes them.
 */
import { browser } from 'wxt/browser';
import type messages from '@/public/_locales/en/messages.json';

export type MessageKey = keyof typeof messages;

type GetMessage = (name: string, substitutions?: string[]) => string;

/** The browser's UI language (the one browser.i18n picked the strings for), e.g. "de" or "en-US". */
export function uiLanguage(): string {
  try {
    return browser.i18n.getUILanguage() || 'en';
  } catch {
    return 'en';
  }
}

/**
 * The localized text of `key` with $1..$9 filled by these strings; the key itself if the browser
 * has no text for it. The marking script's own lookup (its words hold no numbers); `t` for the rest.
 */
export function message(key: MessageKey, ...substitutions: string[]): string {
  try {
    return (browser.i18n.getMessage as GetMessage)(key, substitutions) || key;
  } catch {
    return key;
  }
}

/** `message` with numbers among the substitutions written in the UI language ("1.234" in German). */
export function t(key: MessageKey, ...substitutions: (string | number)[]): string {
  const lang = uiLanguage();
  return message(key, ...substitutions.map((s) => (typeof s === 'number' ? s.toLocaleString(lang) : s)));
}
