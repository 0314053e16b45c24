/**
 * SPA navigations, noticed by the extension itself: `location.href` compared on the content
 * script's own timer. Never from events (`popstate`, `wxt:locationchange`, the Navigation API's
 * `navigatesuccess`): a page can dispatch those at will, and each would give it a fresh budget.
 * A page can still change its URL (history API) to get one, as it can by reloading; what a tab
 * may spend in all is capped by the background (lib/background/verify/content-verify.ts).
 */
export const LOCATION_CHECK_MS = 1000;

/** A check to call on a schedule: runs `listener` once per change of `location.href`. */
export function hrefWatcher(win: Window, listener: () => void): () => void {
  let last = win.location.href;
  return () => {
    const now = win.location.href;
    if (now === last) return;
    last = now;
    listener();
  };
}
