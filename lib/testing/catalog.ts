/**
 * Test setup (vitest setupFiles of the unit and integration projects): WXT's fake browser has no
 * i18n, so browser.i18n.getMessage answers from the real _locales/en catalog, with named
 * placeholders and $1..$9 substituted as the browsers do. Installed before any test module loads,
 * so strings computed at import time are translated too.
 */
import { fakeBrowser } from 'wxt/testing/fake-browser';
import messages from '@/public/_locales/en/messages.json';

type Entry = { message: string; placeholders?: Record<string, { content: string }> };
const catalog = messages as Record<string, Entry>;

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
