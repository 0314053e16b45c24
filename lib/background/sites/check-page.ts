/** "Check this page": inject the content script once into a tab (activeTab), whatever the enabled sites. */
import { browser } from 'wxt/browser';
import { CHECK_ONCE_FLAG } from '../../shared/messages';
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
