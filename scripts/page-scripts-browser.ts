/**
 * A WXT hook (vite:build:extendConfig): the scripts that run in web pages — content scripts and
 * unlisted scripts (the on-demand popover script) — get `wxt/browser` from lib/content/extension/browser.ts
 * (the browser's own API object) instead of webextension-polyfill, which the
 * @wxt-dev/webextension-polyfill module sets for every build. The background and the extension's
 * pages keep the polyfill. Why it is safe for page scripts: lib/content/extension/browser.ts.
 */
import { fileURLToPath } from 'node:url';
import type { Alias, AliasOptions, InlineConfig } from 'vite';

export const PAGE_BROWSER = fileURLToPath(new URL('../lib/content/extension/browser.ts', import.meta.url));
/** The content script's own slim context (lib/content/extension/context.ts), in place of WXT's. */
const CONTENT_CONTEXT = fileURLToPath(new URL('../lib/content/extension/context.ts', import.meta.url));

const PAGE_SCRIPT_TYPES = new Set(['content-script', 'unlisted-script']);

function aliasList(alias: AliasOptions | undefined): Alias[] {
  if (!alias) return [];
  if (Array.isArray(alias)) return [...alias];
  return Object.entries(alias).map(([find, replacement]) => ({ find, replacement }));
}

/**
 * Puts the page scripts' `wxt/browser` (and the content script's context) first: Vite takes the
 * first alias that matches.
 */
export function pageScriptsBrowser(entrypoints: readonly { type: string }[], config: InlineConfig): void {
  if (entrypoints.length === 0 || !entrypoints.every((e) => PAGE_SCRIPT_TYPES.has(e.type))) return;
  config.resolve ??= {};
  const contexts = entrypoints.every((e) => e.type === 'content-script')
    ? [{ find: /^wxt\/utils\/content-script-context$/, replacement: CONTENT_CONTEXT }]
    : [];
  config.resolve.alias = [
    { find: /^wxt\/browser$/, replacement: PAGE_BROWSER },
    ...contexts,
    ...aliasList(config.resolve.alias),
  ];
}
