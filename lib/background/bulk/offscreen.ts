/**
 * The offscreen document (Chrome MV3, `offscreen` permission): created on the first subset
 * download, reason BLOBS, and kept; Firefox's background page makes blob URLs itself.
 */
import { browser } from 'wxt/browser';
import { OFFSCREEN_PATH } from './offscreen-protocol';

let creating: Promise<void> | null = null;

async function exists(): Promise<boolean> {
  const contexts = await browser.runtime.getContexts({
    contextTypes: ['OFFSCREEN_DOCUMENT' as Browser.runtime.ContextType],
    documentUrls: [browser.runtime.getURL(OFFSCREEN_PATH)],
  });
  return contexts.length > 0;
}

export async function ensureOffscreen(): Promise<void> {
  if (await exists()) return;
  creating ??= browser.offscreen
    .createDocument({
      url: OFFSCREEN_PATH,
      reasons: ['BLOBS' as Browser.offscreen.Reason],
      justification: 'Make a blob URL of a results subset for the downloads API',
    })
    .catch(async (err: unknown) => {
      // Created meanwhile by another call: fine.
      if (!(await exists())) throw err;
    })
    .finally(() => {
      creating = null;
    });
  await creating;
}
