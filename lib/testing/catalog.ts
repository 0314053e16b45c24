/**
 * Test setup (vitest setupFiles of the unit and integration projects): WXT's fake browser has no
 * i18n, so browser.i18n.getMessage answers from the real _locales/en catalog, with named
 * placeholders and $1..$9 substituted as the browsers do. Installed before any test module loads,
 * so strings computed at import time are translated too. `useLocale('de')` switches to another
 * language's catalog (and UI language) for one test.
 */
import { fakeBrowser } from 'wxt/testing/fake-browser';
import de from '@/public/_locales/de/messages.json';
import en from '@/public/_locales/en/messages.json';
import es from '@/public/_locales/es/messages.json';
import fr from '@/public/_locales/fr/messages.json';

type Entry = { message: string; placeholders?: Record<string, { content: string }> };
const catalogs = { en, de, fr, es } as unknown as Record<string, Record<string, Entry>>;
let catalog = catalogs.en as Record<string, Entry>;

function fillPositional(text: string, subs: string[]): string {
  return text.replace(/\$(\d)/g, (_, n: string) => subs[Number(n) - 1] ?? '');
}

function getMessage(name: string, substitutions?: string | string[]): string {
  const entry = catalog[name];
  if (!entry) return '';
  const subs =
    substitutions === undefined ? [] : Array.isArray(substitutions) ? substitutions : [substitutions];
  const named = entry.message.replace(/\$([A-Za-z0-9_]+)\$/g, (_, key: string) => {
    const content = entry.placeholders?.[key.toLowerCase()]?.content ?? '';
    return fillPositional(content, subs);
  });
  return fillPositional(named, subs);
}

fakeBrowser.i18n.getMessage = getMessage as typeof fakeBrowser.i18n.getMessage;

/** Answers from `lang`'s catalog, with getUILanguage saying `lang`, until the returned undo runs. */
export function useLocale(lang: 'en' | 'de' | 'fr' | 'es'): () => void {
  const i18n = fakeBrowser.i18n as { getUILanguage: () => string };
  const language = i18n.getUILanguage;
  catalog = catalogs[lang] as Record<string, Entry>;
  i18n.getUILanguage = () => lang;
  return () => {
    catalog = catalogs.en as Record<string, Entry>;
    i18n.getUILanguage = language;
  };
}
