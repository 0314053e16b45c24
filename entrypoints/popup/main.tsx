/**
 * The popup's entry, kept tiny: popup.html already holds the header as the app first renders it
 * (and its CSS inline), so the browser paints that at once; the app's code is fetched and run
 * only after that first frame, then takes the header over.
 */
import { uiLanguage } from '@/lib/shared/i18n';

// The page speaks the UI language (the one browser.i18n picked its strings for).
document.documentElement.lang = uiLanguage();
const root = document.getElementById('app');

let started = false;
function start(): void {
  if (started || !root) return;
  started = true;
  void import('./mount').then(({ mount }) => mount(root));
}

// A task queued from a frame's callback runs once that frame is painted.
requestAnimationFrame(() => setTimeout(start));
// A page opened in the background gets no frames: start anyway.
setTimeout(start, 100);
