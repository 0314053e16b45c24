/**
 * The one i18n of every context (popup, options, content script, background): the strings of
 * public/_locales through browser.i18n, with keys typed from the English catalog (a type-only
 * import: the catalog is not bundled). Numbers are written as the UI language writes them.
 *
 * Counts: chrome.i18n has no plurals, so a message that shows a count is a pair of keys,
 * `<base>_one` and `<base>_other`, and `tn` picks one with Intl.PluralRules in the UI language
 * ("one" is 1 in English, German and Spanish, 0 and 1 in French; every other category takes
 * `_other`). The count is always $1. Every count the extension shows goes through `tn`
 * (docs/glossary.md; i18n-language.test.ts fails on a count message outside a pair).
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

/** Bases of the count messages: `<base>_one` and `<base>_other` both exist. */
export type CountKey = {
  [K in MessageKey]: K extends `${infer Base}_one`
    ? `${Base}_other` extends MessageKey
      ? Base
      : never
    : never;
}[MessageKey];

/** "one" or "other": the form of a count message `count` takes in the UI language. */
export function pluralForm(count: number, lang = uiLanguage()): 'one' | 'other' {
  let rules: Intl.PluralRules;
  try {
    rules = new Intl.PluralRules(lang);
  } catch {
    rules = new Intl.PluralRules('en');
  }
  return rules.select(count) === 'one' ? 'one' : 'other';
}

/** A count message: `<base>_one` or `<base>_other` for `count`, with the count as $1 (in the UI language's digits). */
export function tn(base: CountKey, count: number, ...substitutions: (string | number)[]): string {
  const key = `${base}_${pluralForm(count)}` as MessageKey;
  return t(key, count, ...substitutions);
}
