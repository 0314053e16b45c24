/**
 * A notification's click opens what it speaks of (docs/design.md §5): a finished file's results
 * download; a failed file and a verdict open the popup (the action's popup where the browser lets
 * the extension open it, else the popup page in a tab).
 */
import { browser } from 'wxt/browser';
import { downloadResults } from '@/lib/background/bulk/downloads';
import { getJobs } from '@/lib/storage/jobs';

const POPUP_PATH = '/popup.html';

/** Opens the toolbar popup, or the popup page in a tab where the browser refuses that. */
export async function openPopup(): Promise<void> {
  const action = (browser.action ?? browser.browserAction) as { openPopup?: () => Promise<void> } | undefined;
  try {
    if (typeof action?.openPopup === 'function') {
      await action.openPopup();
      return;
    }
  } catch {
    // No focused window, or no user gesture in this browser's view: the page in a tab instead.
  }
  await browser.tabs.create({ url: browser.runtime.getURL(POPUP_PATH) });
}

/** The completed bulk job a notification id (`bulk-<job id>`) names, if any. */
async function completedFile(notificationId: string) {
  if (!notificationId.startsWith('bulk-')) return null;
  const id = notificationId.slice('bulk-'.length);
  const job = (await getJobs()).find((j) => j.kind === 'bulk' && j.id === id);
  return job?.kind === 'bulk' && job.phase === 'completed' && job.fileId ? job : null;
}

export async function onNotificationClicked(notificationId: string): Promise<void> {
  await browser.notifications.clear(notificationId).catch(() => false);
  const file = await completedFile(notificationId);
  if (file?.fileId) {
    try {
      await downloadResults({ fileId: file.fileId, fileName: file.fileName });
      return;
    } catch (err) {
      console.warn('[verimark] download from a notification failed', err);
    }
  }
  await openPopup();
}
