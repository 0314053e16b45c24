/**
 * For unit tests: browser.i18n.getMessage answered from the real _locales/en catalog, with
 * named placeholders and $1..$9 substituted as the browsers do.
 */
import { vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import messages from '@/public/_locales/en/messages.json';

type Entry = { message: string; placeholders?: Record<string, { content: string }> };
const catalog = messages as Record<string, Entry>;

function fillPositional(text: string, subs: string[]): string {
  return text.replace(/\$(\d)/g, (_, n: string) => subs[Number(n) - 1] ?? '');
}

export function getMessage(name: string, substitutions?: string | string[]): string {
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

export function useCatalog(): void {
  vi.spyOn(fakeBrowser.i18n, 'getMessage').mockImplementation(
    getMessage as typeof fakeBrowser.i18n.getMessage,
  );
}
