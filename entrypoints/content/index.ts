// biome-ignore-all assist/source/organizeImports: the bundle's module order follows these imports, and this order compresses best (test/e2e/bundle-size.test.ts).
import { startMarking } from '@/lib/content/marking/controller';
import { backgroundApi, contentConfig, isOneShot } from '@/lib/content/extension/messaging';
import { hrefWatcher, LOCATION_CHECK_MS } from '@/lib/content/marking/navigation';
import { loadUi } from '@/lib/content/overlay/load';
import { listenToPopup } from '@/lib/content/extension/page-actions';
import { startSendGuard } from '@/lib/content/send-guard/guard';
import { useBadgeWords } from '@/lib/content/badge/words';

const DEFAULT_BUDGET = 25;
const INVALIDATION_CHECK_MS = 2000;

// Not in the manifest: the background registers this script for the sites the user enabled
// (lib/background/sites/content-scripts.ts), and "Check this page" injects it once through activeTab.
export default defineContentScript({
  registration: 'runtime',
  async main(ctx) {
    const config = await contentConfig();
    const oneShot = isOneShot();
    if (ctx.isInvalid || !(config?.enabled || oneShot)) return;
    // Chrome tells a content script nothing when its extension reloads; WXT notices on its own
    // timers (ctx.isValid checks runtime.id), so keep one cheap timer running to notice it.
    ctx.setInterval(() => undefined, INVALIDATION_CHECK_MS);
    useBadgeWords(config?.badgeWords);
    const { book } = startMarking({
      win: window,
      signal: ctx.signal,
      api: backgroundApi,
      budget: config?.autoVerifyBudget ?? DEFAULT_BUDGET,
      sendersOnSight: config?.sendersOnSight,
      // Same-origin frames are covered by the top document's marker: only it answers the popup.
      onStarted: (marker, book) => {
        if (window === window.top) listenToPopup(marker, book, ctx.signal);
      },
      // Our own comparison of location.href, never page-dispatchable events (lib/content/marking/navigation.ts).
      onLocationChange: (listener) => {
        ctx.setInterval(hrefWatcher(window, listener), LOCATION_CHECK_MS);
      },
    });
    // Gmail / Outlook compose: Send is held back when a recipient is undeliverable (lib/content/send-guard).
    if (config?.sendGuard && !oneShot) {
      startSendGuard({
        win: window,
        signal: ctx.signal,
        book,
        options: () => ({ warnRisky: config.sendGuardRisky }),
        ui: loadUi,
      });
    }
  },
});
