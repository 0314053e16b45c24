/**
 * When each tab spent credits within the content-script spend window, by tab id (see
 * lib/background/verify/content-verify.ts). In session storage, not memory: an MV3 worker stops
 * after 30 s idle, and a page waiting that long must not get a fresh allowance. Session storage
 * is cleared when the browser quits and is not readable by content scripts.
 */
import { storage } from 'wxt/utils/storage';
import { serialEditor } from './serial-edit';

export const spentItem = storage.defineItem<Record<string, number[]>>('session:contentSpends', {
  fallback: {},
});

/** Every change of the spends, one at a time (serial-edit.ts). */
export const spentEditor = serialEditor(spentItem);
