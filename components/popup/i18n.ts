/** Every popup string comes from _locales through the i18n API. */
import { browser } from 'wxt/browser';

type GetMessage = (name: string, substitutions?: string[]) => string;

/** The localized text of `key` (popup_* in public/_locales/en/messages.json), with $1..$9 filled. */
export function t(key: string, ...substitutions: (string | number)[]): string {
  const getMessage = browser.i18n.getMessage as GetMessage;
  return getMessage(key, substitutions.map(String)) || key;
}
