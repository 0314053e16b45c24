/** Desktop notifications: bulk files that finished, and context-menu verdicts. */
import { browser } from 'wxt/browser';
import { statusKey } from '@/lib/shared/badge-words';
import { t } from '@/lib/shared/i18n';
import { reasonSentence } from '@/lib/shared/reason-words';
import type { VerdictView } from '@/lib/shared/views';
import { type BulkJob, updateBulkJob } from '@/lib/storage/jobs';

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
function notifyBulkFinished(
  jobId: string,
  fileName: string,
  phase: 'completed' | 'failed',
  error: string | null,
) {
  if (phase === 'completed') {
    return notify(`bulk-${jobId}`, t('bg_bulk_completed_title'), t('bg_bulk_completed_click', fileName));
  }
  return notify(
    `bulk-${jobId}`,
    t('bg_bulk_failed_title'),
    t('bg_bulk_failed', fileName, error ?? t('bg_unknown_error')),
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

/** The verdict in the popup's words: "Undeliverable: The mail server says … Did you mean …?" */
export function notifyVerdict(view: VerdictView) {
  const status = t(statusKey(view.status));
  const reason = reasonSentence(view.reason);
  const suggestion = view.suggestion ? ` ${t('bg_did_you_mean', view.suggestion)}` : '';
  const text = reason ? t('bg_verdict', status, reason) : status;
  return notify(`verdict-${view.email}-${Date.now()}`, view.email, `${text}${suggestion}`);
}
