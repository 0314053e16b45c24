/**
 * A Vite build plugin: with `build.modulePreload: false` Vite still wraps every dynamic import in
 * its preload helper, which then preloads nothing (its list is always empty) but still ships
 * (a large share of the popup's tiny entry). This gives the helper the body it has in that case:
 * run the import.
 */
import type { Plugin } from 'vite';

/** Vite's own id for the helper module (vite/dist/node: preloadHelperId). */
const HELPER_ID = '\0vite/preload-helper.js';

export function plainDynamicImports(): Plugin {
  return {
    name: 'verimark:plain-dynamic-imports',
    apply: 'build',
    enforce: 'pre',
    load(id) {
      if (id === HELPER_ID) return 'export const __vitePreload = (load) => load();';
      return null;
    },
  };
}
