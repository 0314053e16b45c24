/**
 * Bulk uploads: the popup stages the CSV in IndexedDB when it is chosen and asks for an upload;
 * the background reads it and sends it, so closing the popup loses nothing. The upload spends
 * credits and is never repeated: one cut off by a worker stop is matched against the file list
 * (recoverInterruptedUploads), never re-sent.
 */

import type { FileRecord, Mode } from '@verimark/contract';
import { browser } from 'wxt/browser';
import type { ApiClient } from '@/lib/api/client';
import { ApiError } from '@/lib/api/errors';
import { finishBulkJob } from '@/lib/background/core/notify';
import { ensurePollAlarm } from '@/lib/background/core/poll-alarm';
import { getClient } from '@/lib/background/core/service';
import { updateBadge } from '@/lib/background/core/toolbar-badge';
import { t } from '@/lib/shared/i18n';
import type { BulkJobView } from '@/lib/shared/views';
import { addJob, type BulkJob, getJobs, toBulkView, updateBulkJob } from '@/lib/storage/jobs';
import { deleteUploadBlob, isUploadKey, sweepUploadBlobs, takeUploadBlob } from '@/lib/storage/upload-blobs';

interface UploadRequest {
  blobKey: string;
  fileName: string;
  emailColumn: string;
  mode: Mode;
}

const KEEPALIVE_MS = 20_000;
/** Uploads running in this worker. */
const activeUploads = new Set<string>();

/** Keeps an MV3 worker alive during a long upload (an extension API call resets its idle timer). */
async function keepAlive<T>(work: Promise<T>): Promise<T> {
  const timer = setInterval(() => {
    browser.runtime.getPlatformInfo().catch(() => undefined);
  }, KEEPALIVE_MS);
  try {
    return await work;
  } finally {
    clearInterval(timer);
  }
}

async function upload(job: BulkJob): Promise<void> {
  try {
    const file = await takeUploadBlob(job.blobKey);
    if (!file) throw new ApiError('bad_request', t('bg_upload_blob_missing'));
    const client = await getClient();
    const { fileId } = await keepAlive(
      client.verifyBulk({
        file,
        fileName: job.fileName,
        emailColumn: job.emailColumn || undefined,
        mode: job.mode,
      }),
    );
    await updateBulkJob(job.id, () => ({ fileId, phase: 'queued', progress: 0 }));
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const errorKind = err instanceof ApiError ? err.kind : 'server';
    await finishBulkJob(job.id, { phase: 'failed', error: message, errorKind });
  } finally {
    activeUploads.delete(job.id);
    await deleteUploadBlob(job.blobKey);
    await Promise.all([updateBadge(), ensurePollAlarm()]);
  }
}

/** Records the job, starts the upload and returns at once (the popup may close). */
export async function startBulkUpload(
  request: UploadRequest,
): Promise<{ view: BulkJobView; done: Promise<void> }> {
  if (!isUploadKey(request.blobKey)) throw new ApiError('bad_request', t('bg_upload_blob_missing'));
  const owner = (await getJobs()).find((job) => job.kind === 'bulk' && job.blobKey === request.blobKey);
  if (owner) throw new ApiError('bad_request', t('bg_upload_already'));
  const now = Date.now();
  const job: BulkJob = {
    kind: 'bulk',
    id: `bulk-${now.toString(36)}-${crypto.randomUUID().slice(0, 8)}`,
    fileId: null,
    fileName: request.fileName,
    phase: 'uploading',
    progress: null,
    error: null,
    createdAt: now,
    blobKey: request.blobKey,
    emailColumn: request.emailColumn,
    mode: request.mode,
    notified: false,
    updatedAt: now,
  };
  activeUploads.add(job.id);
  await addJob(job);
  await updateBadge();
  // A persistent (Firefox) background may not restart for days: tidy up here too.
  sweepAbandonedUploads(now).catch((err) => console.warn('[verimark] sweep staged uploads', err));
  return { view: toBulkView(job), done: upload(job) };
}

/** How far the service's clock may be behind ours when matching an interrupted upload. */
const CLOCK_SKEW_MS = 2 * 60_000;
/**
 * How long an interrupted upload is looked for in the file list before it is given up: a file
 * sent in full may still be being read (and charged) by the service when the worker restarts.
 */
export const RECHECK_FOR_MS = 10 * 60_000;

/**
 * Whether an interrupted upload reached the service: the id of the one file of the job's name
 * created since the upload began and followed by no other job; `null` when the whole list shows
 * none (yet); `undefined` when the list cannot tell (two candidates, a record without a date).
 */
async function findArrivedFile(
  client: ApiClient,
  job: BulkJob,
  followed: ReadonlySet<string>,
): Promise<string | null | undefined> {
  const list = await client.listFiles({ page: 1, pageSize: 50, search: job.fileName });
  const sameName = list.files.filter((file) => file.file_name === job.fileName && !followed.has(file._id));
  const createdAt = (file: FileRecord) => Date.parse(file.createdAt ?? '');
  if (sameName.some((file) => Number.isNaN(createdAt(file)))) return undefined;
  const since = sameName.filter((file) => createdAt(file) >= job.createdAt - CLOCK_SKEW_MS);
  if (since.length > 1) return undefined;
  if (since.length === 1) return since[0]?._id;
  // Only a complete list proves absence (its order is the service's business).
  return list.totalCount <= list.files.length ? null : undefined;
}

/**
 * After a worker restart, an upload that was under way may or may not have reached the service;
 * it is never sent twice. The file list decides, checked on every polling round: a file of that
 * name that arrived since is followed as if the upload had answered. For RECHECK_FOR_MS the job
 * waits (the service may still be reading the file); then it fails, saying to upload again when
 * the list showed no such file, or to check the file list when it could not tell.
 */
export async function recoverInterruptedUploads(now = Date.now()): Promise<void> {
  const jobs = await getJobs();
  const interrupted = jobs.filter(
    (job): job is BulkJob => job.kind === 'bulk' && job.phase === 'uploading' && !activeUploads.has(job.id),
  );
  if (interrupted.length === 0) return;
  const followed = new Set<string>();
  for (const job of jobs) if (job.kind === 'bulk' && job.fileId) followed.add(job.fileId);
  const client = await getClient().catch(() => null);
  for (const job of interrupted) {
    const fileId = client ? await findArrivedFile(client, job, followed).catch(() => undefined) : undefined;
    if (fileId) {
      followed.add(fileId);
      await updateBulkJob(job.id, () => ({ fileId, phase: 'queued', progress: 0 }));
      await deleteUploadBlob(job.blobKey);
      continue;
    }
    const since = job.interruptedAt ?? now;
    if (job.interruptedAt === undefined) await updateBulkJob(job.id, () => ({ interruptedAt: now }));
    if (now - since < RECHECK_FOR_MS) continue;
    const error = fileId === null ? t('bg_upload_not_received') : t('bg_upload_interrupted');
    await finishBulkJob(job.id, { phase: 'failed', error, errorKind: 'network' });
    await deleteUploadBlob(job.blobKey);
  }
}

/** Deletes files staged in the popup but never uploaded (it closed before "Upload"). */
export async function sweepAbandonedUploads(now = Date.now()): Promise<number> {
  const inUse = new Set<string>();
  for (const job of await getJobs())
    if (job.kind === 'bulk' && job.phase === 'uploading') inUse.add(job.blobKey);
  return sweepUploadBlobs(inUse, now);
}
