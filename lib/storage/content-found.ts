/**
 * The addresses each content script registered as found on its page, by `tabId:frameId`, with
 * the frame's origin (see lib/background/verify/content-found.ts). In session storage, not
 * memory: an MV3 worker stops after 30 s idle and must not forget them. Session storage is
 * cleared when the browser quits and is not readable by content scripts.
 */
import { storage } from 'wxt/utils/storage';
import { serialEditor } from './serial-edit';

export interface FrameFound {
  origin: string;
  emails: string[];
}

export const foundItem = storage.defineItem<Record<string, FrameFound>>('session:contentFound', {
  fallback: {},
});

/** Every change of the found sets, one at a time (serial-edit.ts). */
export const foundEditor = serialEditor(foundItem);
