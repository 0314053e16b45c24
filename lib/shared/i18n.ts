/** Localized strings from _locales, with the English text as a fallback (tests, missing keys). */
import { browser } from 'wxt/browser';

export function msg(key: string, fallback: string, substitutions: string[] = []): string {
  let text = '';
  try {
    // Keys are checked at runtime (fallback below), so the untyped signature is used.
    const getMessage = browser.i18n?.getMessage as ((name: string, subs?: string[]) => string) | undefined;
    text = getMessage?.call(browser.i18n, key, substitutions) ?? '';
  } catch {
    text = '';
  }
  if (text) return text;
  return substitutions.reduce((out, value, index) => out.replace(`$${index + 1}`, value), fallback);
}
