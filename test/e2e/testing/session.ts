/**
 * End-to-end harness: real Chromium and Firefox with the `npm run build:test` extension loaded.
 * Every session must be closed (`close()` never throws and kills the browser if it hangs); any
 * browser still alive when the test process exits is killed with its process group.
 */
import type { Browser, Page } from 'puppeteer-core';
import { type ChromiumOptions, launchChromiumSession } from './chromium';
import { type FirefoxOptions, launchFirefoxSession } from './firefox';

export { extensionDir } from './paths';

export interface ExtensionSession {
  browserName: 'chromium' | 'firefox';
  browser: Browser;
  /** chrome-extension://<id>/ or moz-extension://<uuid>/ */
  extensionBaseUrl: string;
  /** Where the browser saves downloads (preset, never prompts). */
  downloadDir: string;
  /** Opens an extension page in a new tab, e.g. 'popup.html', 'options.html', once loaded. */
  openExtensionPage(path: string): Promise<Page>;
  /** Sets the service URL and API key through the options page UI (docs/design.md §5). */
  configure(serviceUrl: string, apiKey: string): Promise<void>;
  /** Chromium only: stops the extension's service worker, as the browser does when idle. */
  stopServiceWorker?(): Promise<void>;
  close(): Promise<void>;
}

export function launchChromium(opts?: ChromiumOptions): Promise<ExtensionSession> {
  return launchChromiumSession(opts);
}

export function launchFirefox(opts?: FirefoxOptions): Promise<ExtensionSession> {
  return launchFirefoxSession(opts);
}
