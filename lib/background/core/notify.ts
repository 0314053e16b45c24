/** Desktop notifications: bulk files that finished, and context-menu verdicts. */
import { browser } from 'wxt/browser';
import { msg } from '../../shared/i18n';
import type { VerdictView } from '../../shared/messages';
import { type BulkJob, updateBulkJob } from '../../storage/jobs';

const ICON = 'icon/128.png';

export async function notify(id: string, title: string, message: string): Promise<void> {
  try {
    await browser.notifications.create(id, {
      type: 'basic',
      iconUrl: browser.runtime.getURL(`/${ICON}` as '/'),
      title,
      message,
    });
  } catch (err) {
    console.warn('[verimark] notification failed', err);
  }
}

/** One notification per job (its id names it, so a repeat replaces rather than adds). */
export function notifyBulkFinished(
  jobId: string,
  fileName: string,
  phase: 'completed' | 'failed',
  error: string | null,
) {
  if (phase === 'completed') {
    return notify(
      `bulk-${jobId}`,
      msg('bg_bulk_completed_title', 'Bulk verification finished'),
      msg('bg_bulk_completed', '$1 is verified. Open Verimark to download the results.', [fileName]),
    );
  }
  return notify(
    `bulk-${jobId}`,
    msg('bg_bulk_failed_title', 'Bulk verification failed'),
    msg('bg_bulk_failed', '$1 could not be verified: $2', [fileName, error ?? 'unknown error']),
  );
}

/**
 * Records that a bulk job completed or failed and notifies the first time only: the decision is
 * taken inside the job list's transaction, so overlapping polls or restarts never notify twice.
 */
export async function finishBulkJob(
  id: string,
  change: Partial<BulkJob> & { phase: 'completed' | 'failed' },
): Promise<void> {
  let first = false;
  const updated = await updateBulkJob(id, (current) => {
    first = !current.notified;
    return first ? { ...change, notified: true } : {};
  });
  if (updated && first) await notifyBulkFinished(id, updated.fileName, change.phase, updated.error);
}

export function notifyVerdict(view: VerdictView) {
  const reason = view.reason ? ` (${view.reason})` : '';
  const suggestion = view.suggestion
    ? ` ${msg('bg_did_you_mean', 'Did you mean $1?', [view.suggestion])}`
    : '';
  return notify(`verdict-${view.email}-${Date.now()}`, view.email, `${view.status}${reason}${suggestion}`);
}
