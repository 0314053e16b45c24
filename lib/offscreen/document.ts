/**
 * The offscreen document (Chrome MV3, `offscreen` permission): created for a subset download,
 * reason BLOBS, and closed once no download needs its blob URLs any more; Firefox's background
 * page makes blob URLs itself.
 */
import { browser } from 'wxt/browser';
import { OFFSCREEN_PATH } from './protocol';

let creating: Promise<void> | null = null;
/** Subsets whose blob URL is still in use (in this worker's life). */
let inUse = 0;

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

/** Opens the document (if needed) for one subset; `releaseOffscreen` when its download is over. */
export async function holdOffscreen(): Promise<void> {
  inUse += 1;
  try {
    await ensureOffscreen();
  } catch (err) {
    inUse -= 1;
    throw err;
  }
}

/** One subset is done with the document; the last one closes it (its blob URLs go with it). */
export async function releaseOffscreen(): Promise<void> {
  inUse = Math.max(0, inUse - 1);
  if (inUse > 0 || creating || !(await exists())) return;
  await browser.offscreen.closeDocument().catch(() => undefined);
}
