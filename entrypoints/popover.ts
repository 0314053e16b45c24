import { OVERLAY_GLOBAL, type OverlayModule } from '@/lib/content/overlay/load';
import { Overlay } from '@/lib/content/overlay/overlay';

// Not in the manifest: the background injects this into the content script's world the first
// time a badge is opened (lib/content/overlay/load.ts), so the positioning library and the
// popover's code do not weigh on every page the marking script runs on.
export default defineUnlistedScript(() => {
  const module: OverlayModule = { createOverlay: (doc, signal) => new Overlay(doc, signal) };
  (globalThis as Record<string, unknown>)[OVERLAY_GLOBAL] = module;
});
