/**
 * Keyboard commands (manifest `commands`, wxt.config.ts). Opening the popup is the browser's own
 * `_execute_action` (`_execute_browser_action` in Firefox MV2); "verify the selected text" reads
 * the selection of the active tab (the command grants activeTab) and verifies it as the context
 * menu does, with the verdict as a notification.
 */
import { browser } from 'wxt/browser';
import { MENU_ID, onMenuClick } from './context-menu';

export const VERIFY_SELECTION_COMMAND = 'verify-selection';

/** The selected text of a tab, from whichever frame holds a selection ('' when none can be read). */
export async function selectionOf(tabId: number): Promise<string> {
  try {
    const results = await browser.scripting.executeScript({
      target: { tabId, allFrames: true },
      func: () => globalThis.getSelection?.()?.toString() ?? '',
    });
    for (const { result } of results) {
      if (typeof result === 'string' && result.trim() !== '') return result;
    }
  } catch (err) {
    // A page the extension may not script (the browser's own pages, the store).
    console.warn('[verimark] selection could not be read', err);
  }
  return '';
}

async function activeTabId(tab?: { id?: number }): Promise<number | undefined> {
  if (tab?.id !== undefined) return tab.id;
  const [active] = await browser.tabs.query({ active: true, currentWindow: true });
  return active?.id;
}

export async function onCommand(command: string, tab?: { id?: number }): Promise<void> {
  if (command !== VERIFY_SELECTION_COMMAND) return;
  const tabId = await activeTabId(tab);
  const selectionText = tabId === undefined ? '' : await selectionOf(tabId);
  // The same path as the context menu: one address out of the text, or "no address" said.
  await onMenuClick({ menuItemId: MENU_ID, selectionText });
}
