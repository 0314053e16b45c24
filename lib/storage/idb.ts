/**
 * The extension's IndexedDB stores (idb-keyval). IndexedDB of the extension origin is not
 * reachable from content scripts, which run with the page's origin.
 */
import { createStore } from 'idb-keyval';

type Store = ReturnType<typeof createStore>;
const stores = new Map<string, Store>();

/** One database per concern, created lazily. */
export function idbStore(name: 'secrets' | 'verdicts' | 'jobs' | 'uploads'): Store {
  let store = stores.get(name);
  if (!store) {
    store = createStore(`verimark-${name}`, name);
    stores.set(name, store);
  }
  return store;
}
