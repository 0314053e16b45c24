import { UI_GLOBAL, type UiModule } from '@/lib/content/overlay/load';
import { Popovers } from '@/lib/on-demand/popovers';
import { followHeld } from '@/lib/on-demand/send-guard/held';

// Not in the manifest: the background injects this into the content script's world the first
// time a person needs it — a badge opened, a Send held back by the guard (lib/content/overlay/load.ts)
// — so the positioning library, the popover, Replace/Undo and the guard's dialog do not weigh on
// every page the marking script runs on.
export default defineUnlistedScript(() => {
  const module: UiModule = {
    createPopovers: (marker, book, signal) => new Popovers(marker, book, signal),
    followHeld,
  };
  (globalThis as Record<string, unknown>)[UI_GLOBAL] = module;
});
