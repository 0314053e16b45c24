/** "Check this page": inject the content script once into a tab (activeTab), whatever the enabled sites. */
import { browser } from 'wxt/browser';
import { ApiError } from '@/lib/api/errors';
import type { SenderInfo } from '@/lib/background/core/authorize';
import { CHECK_ONCE_FLAG } from '@/lib/shared/messages';
import { CONTENT_SCRIPT_FILE } from './content-scripts';

export async function checkThisPage(tabId: number): Promise<{ injected: boolean }> {
  // Both injections share the extension's isolated world: the flag tells the script it runs once.
  await browser.scripting.executeScript({
    target: { tabId },
    func: (flag: string) => {
      (globalThis as Record<string, unknown>)[flag] = true;
    },
    args: [CHECK_ONCE_FLAG],
  });
  await browser.scripting.executeScript({ target: { tabId }, files: [CONTENT_SCRIPT_FILE] });
  return { injected: true };
}

/** The popover's script, injected into the frame of the content script that asks (its first open badge). */
const POPOVER_SCRIPT_FILE = '/popover.js';

export async function loadPopover(sender: SenderInfo): Promise<{ loaded: boolean }> {
  const tabId = sender.tab?.id;
  if (tabId === undefined) throw new ApiError('bad_request', 'loadPopover needs a tab');
  await browser.scripting.executeScript({
    target: { tabId, frameIds: [sender.frameId ?? 0] },
    files: [POPOVER_SCRIPT_FILE],
  });
  return { loaded: true };
}
