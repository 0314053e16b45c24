/**
 * A storage item edited one change at a time: each edit reads the stored value, changes it and
 * writes it back before the next edit reads, so parallel requests (a page's many messages) cannot
 * lose each other's changes. One editor per item, made next to the item (content-found.ts,
 * content-spends.ts, page-allowances.ts); every change of the item goes through it.
 */
import type { WxtStorageItem } from 'wxt/utils/storage';

export interface SerialEditor<T> {
  /** Runs `change` on a copy of the stored value, writes the copy back, and resolves with `change`'s result. */
  edit<R>(change: (value: T) => R): Promise<R>;
  /** The stored value once the edits queued before this call are written. */
  read(): Promise<T>;
}

export function serialEditor<T>(
  item: Pick<WxtStorageItem<T, Record<string, unknown>>, 'getValue' | 'setValue'>,
): SerialEditor<T> {
  let queue: Promise<unknown> = Promise.resolve();
  return {
    edit(change) {
      const run = queue.then(async () => {
        // A copy: an empty item reads as the item's fallback object, which must stay as it is.
        const value = structuredClone(await item.getValue());
        const result = change(value);
        await item.setValue(value);
        return result;
      });
      queue = run.catch(() => undefined);
      return run;
    },
    async read() {
      await queue;
      return item.getValue();
    },
  };
}
