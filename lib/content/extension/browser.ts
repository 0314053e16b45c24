/**
 * `wxt/browser` for the scripts that run in web pages — the content script and its on-demand
 * script (wxt.config.ts points `wxt/browser` here for them; everything else keeps
 * webextension-polyfill): the browser's own extension API object, without the polyfill (a
 * large share of a content script that must stay small). They need no promise wrapper: they call
 * only synchronous APIs (runtime.id, runtime.getURL, i18n.getMessage, and WXT's context checks
 * runtime.id) and send their messages through @webext-core/messaging, which calls
 * `chrome.runtime` itself. Firefox has `browser` (promises), Chrome `chrome` (promises in MV3,
 * except that a runtime.onMessage listener cannot answer by returning one: answer through
 * @webext-core/messaging, as lib/shared/page-messages.ts does).
 */
import type { browser as polyfilled } from 'wxt/browser';

type Browser = typeof polyfilled;

const global = globalThis as unknown as { browser?: Browser; chrome?: Browser };

export const browser: Browser = (global.browser?.runtime?.id ? global.browser : global.chrome) as Browser;
