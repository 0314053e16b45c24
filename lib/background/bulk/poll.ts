/**
 * Polls the status of bulk files that are queued or processing, records their phase and
 * progress, and notifies once when a file completes or fails.
 */

import type { ApiClient } from '@/lib/api/client';
import { ApiError } from '@/lib/api/errors';
import { isRefusal } from '@/lib/api/retry';
import { finishBulkJob } from '@/lib/background/core/notify';
import { getClient } from '@/lib/background/core/service';
import { updateBadge } from '@/lib/background/core/toolbar-badge';
import { t } from '@/lib/shared/i18n';
import type { BulkJobView } from '@/lib/shared/views';
import { type BulkJob, getJobs, updateBulkJob } from '@/lib/storage/jobs';

/** Our phase for a `data.status` (or file `state`) of any service. */
function phaseOf(status: string, downloadUrl = ''): BulkJobView['phase'] {
  const word = status.trim().toLowerCase();
  if (['completed', 'complete', 'done', 'finished', 'success'].includes(word) || downloadUrl !== '')
    return 'completed';
  if (['failed', 'error', 'cancelled', 'canceled'].includes(word)) return 'failed';
  if (['processing', 'running', 'in_progress'].includes(word)) return 'processing';
  return 'queued';
}

type Progress = Pick<BulkJob, 'progress' | 'done' | 'total'>;

/** Progress 0..1 and rows done of total from the file record's counts (they grow while processing). */
async function progressOf(client: ApiClient, job: BulkJob): Promise<Progress> {
  const unchanged = { progress: job.progress, done: job.done ?? null, total: job.total ?? null };
  try {
    const list = await client.listFiles({ page: 1, pageSize: 25, search: job.fileName });
    const record = list.files.find((file) => file._id === job.fileId);
    if (!record) return unchanged;
    const { deliverable, undeliverable, unknown, risky } = record.meta_data;
    const total = record.options.credit_usage;
    if (!total) return unchanged;
    const done = Math.min(total, deliverable + undeliverable + unknown + risky);
    return { progress: done / total, done, total };
  } catch {
    return unchanged;
  }
}

async function pollOne(client: ApiClient, job: BulkJob): Promise<void> {
  if (!job.fileId) return;
  let phase: BulkJobView['phase'];
  try {
    const status = await client.bulkStatus(job.fileId);
    phase = phaseOf(status.status, status.download_url);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    // The service does not know the file (any more): it is dropped from polling, and the user told.
    if (err.kind === 'not_found')
      return finishBulkJob(job.id, { phase: 'failed', error: err.message, errorKind: err.kind });
    // 401/402 mid-poll: the file stays queued (it is paid for); the popup shows why it is stuck.
    if (isRefusal(err)) await updateBulkJob(job.id, () => ({ error: err.message, errorKind: err.kind }));
    throw err;
  }
  if (phase === 'completed' || phase === 'failed') {
    const error = phase === 'failed' ? t('bg_bulk_service_failed') : null;
    return finishBulkJob(job.id, {
      phase,
      progress: phase === 'completed' ? 1 : job.progress,
      error,
      errorKind: null,
    });
  }
  const progress: Progress =
    phase === 'processing' ? await progressOf(client, job) : { progress: job.progress };
  // An overlapping poll may have finished the job meanwhile: never move it back.
  await updateBulkJob(job.id, (current) =>
    current.notified ? {} : { phase, ...progress, error: null, errorKind: null },
  );
}

/** One round over all running bulk files. Errors of one file do not stop the others. */
export async function pollBulkJobs(): Promise<void> {
  const jobs = (await getJobs()).filter(
    (job): job is BulkJob => job.kind === 'bulk' && (job.phase === 'queued' || job.phase === 'processing'),
  );
  if (jobs.length === 0) return;
  const client = await getClient();
  for (const job of jobs) {
    try {
      await pollOne(client, job);
    } catch (err) {
      console.warn('[verimark] bulk status', job.fileId, err);
    }
  }
  await updateBadge();
}
