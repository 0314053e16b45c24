import type { Alias, InlineConfig } from 'vite';
import { describe, expect, it } from 'vitest';
import { PAGE_BROWSER, pageScriptsBrowser } from './page-scripts-browser';

const POLYFILL = '@wxt-dev/webextension-polyfill/browser';
const configWith = (): InlineConfig => ({
  resolve: { alias: { 'wxt/browser': POLYFILL, '@': '/src' } },
});
/** What Vite resolves `id` to: the first alias that matches (string aliases match the id or its path prefix). */
function resolved(config: InlineConfig, id: string): string {
  const alias = config.resolve?.alias;
  const list: Alias[] = Array.isArray(alias)
    ? alias
    : Object.entries(alias ?? {}).map(([find, replacement]) => ({ find, replacement }));
  for (const { find, replacement } of list) {
    if (typeof find === 'string' ? id === find || id.startsWith(`${find}/`) : find.test(id)) {
      return typeof find === 'string' ? replacement + id.slice(find.length) : id.replace(find, replacement);
    }
  }
  return id;
}

describe('wxt/browser for the page scripts', () => {
  it('the content script and the on-demand script get the browser’s own API object', () => {
    for (const type of ['content-script', 'unlisted-script']) {
      const config = configWith();
      pageScriptsBrowser([{ type }], config);
      expect(resolved(config, 'wxt/browser')).toBe(PAGE_BROWSER);
      // Other aliases still apply, and nothing else named like it is caught.
      expect(resolved(config, '@/lib/x')).toBe('/src/lib/x');
      expect(resolved(config, 'wxt/browser-extra')).toBe('wxt/browser-extra');
    }
  });

  it('the background and the extension’s pages keep the polyfill', () => {
    for (const group of [[{ type: 'background' }], [{ type: 'popup' }, { type: 'options' }], []]) {
      const config = configWith();
      pageScriptsBrowser(group, config);
      expect(resolved(config, 'wxt/browser')).toBe(POLYFILL);
    }
  });
});
