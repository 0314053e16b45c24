import { defineConfig } from 'wxt';
import { inlineStylesheets } from './scripts/inline-stylesheets';
import { pageScriptsBrowser } from './scripts/page-scripts-browser';
import { plainDynamicImports } from './scripts/plain-dynamic-imports';

// Test builds (npm run build:test) carry static host permissions for loopback, because a
// headless browser cannot answer a permission prompt. Store builds never do.
const testBuild = process.env.VERIMARK_TEST_BUILD === '1';

/** What the sources zip holds, less SOURCES_EXCLUDED. */
export const SOURCES = [
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'wxt.config.ts',
  'LICENSE',
  'PRIVACY.md',
  'README.md',
  'docs/store/firefox.md',
  'entrypoints/**',
  'components/**',
  'lib/**',
  'public/**',
  'scripts/postinstall.mjs',
  'scripts/inline-stylesheets.ts',
  'scripts/page-scripts-browser.ts',
  'scripts/plain-dynamic-imports.ts',
  // Workspace packages: the contract the extension imports, and the service's manifest alone
  // (npm ci needs every workspace's package.json; the service's code is not part of the build).
  'contract/**',
  'server/package.json',
];

/** Never in the sources zip, whatever SOURCES says: tests and test helpers. */
export const SOURCES_EXCLUDED = ['**/*.test.ts', '**/*.test.tsx', '**/testing/**', '**/node_modules/**'];

export default defineConfig({
  modules: ['@wxt-dev/webextension-polyfill'],
  outDir: process.env.VERIMARK_OUT_DIR ?? '.output',
  // The content script and its on-demand script go without webextension-polyfill (lib/content/extension/browser.ts).
  hooks: { 'vite:build:extendConfig': pageScriptsBrowser },
  // The sources archive (for Firefox's review) holds what builds the extension and nothing else: an
  // allow-list, so no test, bench, service code, data or stray local file slips in. `npm run
  // store:check` rebuilds the store zips from it (docs/store/firefox.md, "Reviewer notes").
  zip: { includeSources: SOURCES, excludeSources: SOURCES_EXCLUDED },
  outDirTemplate: testBuild ? '{{browser}}-mv{{manifestVersion}}-test' : '{{browser}}-mv{{manifestVersion}}',
  vite: () => ({
    // The popup's CSS goes into popup.html (the page as Vite names it, before WXT moves it): its
    // first paint waits for no stylesheet (bench/popup-paint.ts).
    plugins: [inlineStylesheets(['entrypoints/popup/index.html']), plainDynamicImports()],
    // No module preloads: the popup's entry only imports the app (and the app its one shared
    // chunk); with plainDynamicImports, no preload helper either (most of the entry's size).
    // VERIMARK_SOURCEMAP=1: source maps, for scripts/bundle-parts.mjs (what a script is made of);
    // VERIMARK_NOMINIFY=1: readable function names in CPU profiles (bench/testing/profile-content.ts).
    build: {
      minify: process.env.VERIMARK_NOMINIFY !== '1',
      modulePreload: false,
      sourcemap: process.env.VERIMARK_SOURCEMAP === '1',
    },
    // Class fields assigned in constructors, not declared again (`marker;book;…` per class):
    // bytes the content script's budget does not have. TypeScript already refuses initializers
    // that read parameter properties, the one case where the two semantics differ.
    esbuild: {
      jsx: 'automatic',
      jsxImportSource: 'preact',
      tsconfigRaw: { compilerOptions: { useDefineForClassFields: false } },
    },
    resolve: {
      alias: { react: 'preact/compat', 'react-dom': 'preact/compat' },
    },
    define: { __VERIMARK_TEST_BUILD__: JSON.stringify(testBuild) },
  }),
  manifest: ({ browser, manifestVersion }) => ({
    name: 'Verimark',
    // chrome.alarms with a 30-second period (lib/background/core/poll-alarm.ts) needs Chrome 120.
    ...(browser === 'firefox' ? {} : { minimum_chrome_version: '120' }),
    description: '__MSG_extDescription__',
    default_locale: 'en',
    permissions: [
      'storage',
      'alarms',
      'notifications',
      'contextMenus',
      'downloads',
      'scripting',
      'activeTab',
      // Chrome only: its MV3 service worker cannot make blob URLs for subset downloads.
      ...(browser === 'firefox' ? [] : ['offscreen']),
    ],
    // Alt+Shift+V / Alt+Shift+E: taken by neither Chrome nor Firefox (nor their menus' access keys,
    // which use Alt alone); users change them at chrome://extensions/shortcuts or about:addons.
    commands: {
      [manifestVersion === 2 ? '_execute_browser_action' : '_execute_action']: {
        suggested_key: { default: 'Alt+Shift+V' },
      },
      'verify-selection': {
        suggested_key: { default: 'Alt+Shift+E' },
        description: '__MSG_cmd_verify_selection__',
      },
    },
    optional_host_permissions: ['https://*/*', 'http://*/*'],
    host_permissions: testBuild ? ['http://127.0.0.1/*', 'http://localhost/*'] : [],
    ...(browser === 'firefox'
      ? {
          browser_specific_settings: {
            gecko: {
              id: 'verimark@verimark.dev',
              // data_collection_permissions needs Firefox 140.
              strict_min_version: '140.0',
              // The API key is a credential sent off the device (to the service it was saved for).
              data_collection_permissions: {
                required: ['personallyIdentifyingInfo', 'websiteContent', 'authenticationInfo'],
              },
            },
            // Desktop only: no `gecko_android` (docs/store/firefox.md). Firefox for Android has no
            // context menus or keyboard commands; the background still starts without them.
          },
          // MV2 has no optional_host_permissions: origins asked at runtime (service URL, enabled sites) go here.
          optional_permissions: ['https://*/*', 'http://*/*'],
        }
      : {}),
  }),
});
