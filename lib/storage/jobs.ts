/**
 * The persisted job list: single tasks being polled and bulk files being uploaded or processed.
 * It lives in extension-origin IndexedDB; every change is one read-modify-write transaction
 * (idb-keyval `update`), so concurrent handlers cannot lose each other's writes.
 */

import type { Mode } from '@verimark/contract';
import { get, update } from 'idb-keyval';
import type { BulkJobView } from '@/lib/shared/views';
import { idbStore } from './idb';

export interface SingleJob {
  kind: 'single';
  id: string;
  taskId: string;
  email: string;
  mode: Mode;
  createdAt: number;
  /** Polling gives up after this time (ms since epoch). */
  deadline: number;
}

export interface BulkJob extends BulkJobView {
  kind: 'bulk';
  blobKey: string;
  emailColumn: string;
  mode: Mode;
  /** Set once the completion/failure notification was shown. */
  notified: boolean;
  /** When a worker start found this upload cut off (recoverInterruptedUploads). */
  interruptedAt?: number;
  updatedAt: number;
}

type Job = SingleJob | BulkJob;

const KEY = 'jobs';
/** Finished bulk jobs stay listed this long. */
const FINISHED_KEEP_MS = 7 * 24 * 3_600_000;

export const isRunning = (job: Job) =>
  job.kind === 'single' || (job.phase !== 'completed' && job.phase !== 'failed');

export async function getJobs(): Promise<Job[]> {
  return (await get<Job[]>(KEY, idbStore('jobs'))) ?? [];
}

export async function addJob(job: Job): Promise<void> {
  await update<Job[]>(
    KEY,
    (jobs = []) => [...jobs.filter((item) => item.id !== job.id), job],
    idbStore('jobs'),
  );
}

export async function removeJob(id: string): Promise<void> {
  await update<Job[]>(KEY, (jobs = []) => jobs.filter((job) => job.id !== id), idbStore('jobs'));
}

/** Applies `change` to the bulk job `id` and returns the result (undefined when it is gone). */
export async function updateBulkJob(
  id: string,
  change: (job: BulkJob) => Partial<BulkJob>,
): Promise<BulkJob | undefined> {
  let result: BulkJob | undefined;
  await update<Job[]>(
    KEY,
    (jobs = []) =>
      jobs.map((job) => {
        if (job.id !== id || job.kind !== 'bulk') return job;
        result = { ...job, ...change(job), updatedAt: Date.now() };
        return result;
      }),
    idbStore('jobs'),
  );
  return result;
}

/** Drops finished bulk jobs older than FINISHED_KEEP_MS. */
export async function pruneJobs(now = Date.now()): Promise<void> {
  await update<Job[]>(
    KEY,
    (jobs = []) =>
      jobs.filter((job) => job.kind === 'single' || isRunning(job) || now - job.updatedAt < FINISHED_KEEP_MS),
    idbStore('jobs'),
  );
}

export function toBulkView(job: BulkJob): BulkJobView {
  const { id, fileId, fileName, phase, progress, error, createdAt } = job;
  const rows = { done: job.done ?? null, total: job.total ?? null };
  return {
    id,
    fileId,
    fileName,
    phase,
    progress,
    error,
    errorKind: job.errorKind ?? null,
    ...rows,
    createdAt,
  };
}

/** Removes a finished bulk job from the list (a running one stays: it is still paid for and polled). */
export async function dismissJob(id: string): Promise<void> {
  await update<Job[]>(
    KEY,
    (jobs = []) => jobs.filter((job) => job.id !== id || isRunning(job)),
    idbStore('jobs'),
  );
}
