/**
 * Delete in the popup's Files list (docs/design.md §3 "Beyond the contract"). The popup only
 * asks; the background owns the undo window: a confirmed delete waits `deleteTiming.undoMs` in IndexedDB
 * (lib/storage/file-deletes.ts), a timer in this worker sends it on time, and an alarm sends it
 * when the worker was stopped first (a worker start sends what is due, too). A service without
 * the route (the commercial one: 404/405) is remembered per origin and Delete is not offered.
 */
import { PATHS } from '@verimark/contract';
import { browser } from 'wxt/browser';
import { ApiError } from '@/lib/api/errors';
import { getClient } from '@/lib/background/core/service';
import type { FileDeleteView } from '@/lib/shared/views';
import { originOfUrl } from '@/lib/storage/api-key';
import {
  type FileDelete,
  getFileDeletes,
  putFileDelete,
  takeDueFileDeletes,
  takeFileDelete,
} from '@/lib/storage/file-deletes';
import { getJobs, removeJob } from '@/lib/storage/jobs';
import {
  isRouteMissing,
  isRouteOffered,
  markRouteMissing,
  markRouteOffered,
} from '@/lib/storage/missing-routes';
import { getSettings } from '@/lib/storage/settings';
import { deleteUploadBlob } from '@/lib/storage/upload-blobs';

export const DELETE_ALARM = 'verimark-file-delete';
/** `undoMs`: how long "Deleted — Undo" shows before the `DELETE` is sent (tests shorten it). */
export const deleteTiming = { undoMs: 8_000 };
/** A send that failed (service away, 5xx) is tried again this much later, up to MAX_ATTEMPTS. */
const RETRY_MS = 60_000;
const MAX_ATTEMPTS = 5;

const currentOrigin = async () => originOfUrl((await getSettings()).serviceUrl);

/**
 * Whether the configured service deletes files. Asked once per service and session with a
 * `DELETE` of an id no service issues: our service answers 404 `File not found`, a service
 * without the route 404 with another body or 405. Unreachable or unconfigured: not offered, and
 * not remembered (asked again next time).
 */
export async function fileDeleteOffered(): Promise<{ offered: boolean }> {
  try {
    const client = await getClient();
    const origin = await currentOrigin();
    // Missing wins: a send that found the route gone marks it so after the probe found it.
    if (await isRouteMissing(origin, PATHS.bulkFile)) return { offered: false };
    if (await isRouteOffered(origin, PATHS.bulkFile)) return { offered: true };
    const outcome = await client.deleteFile(`verimark-probe-${crypto.randomUUID()}`);
    if (outcome === 'unsupported') {
      await markRouteMissing(origin, PATHS.bulkFile);
      return { offered: false };
    }
    await markRouteOffered(origin, PATHS.bulkFile);
    return { offered: true };
  } catch (err) {
    console.warn('[verimark] cannot tell whether the service deletes files', err);
    return { offered: false };
  }
}

let timer: ReturnType<typeof setTimeout> | undefined;

/** Sets the timer and the alarm for the earliest waiting delete, or clears both when none waits. */
async function arm(now = Date.now()): Promise<void> {
  const waiting = await getFileDeletes();
  if (timer !== undefined) clearTimeout(timer);
  timer = undefined;
  if (waiting.length === 0) {
    await browser.alarms.clear(DELETE_ALARM);
    return;
  }
  const next = Math.min(...waiting.map((entry) => entry.dueAt));
  timer = setTimeout(() => void sendDueFileDeletes(), Math.max(0, next - now));
  // A stopped worker loses the timer; the alarm wakes it (Chrome may run it up to 30 s late).
  await browser.alarms.create(DELETE_ALARM, { when: Math.max(next, now + 1_000) });
}

const views = async (origin: string): Promise<FileDeleteView[]> =>
  (await getFileDeletes())
    .filter((entry) => entry.origin === origin)
    .map(({ fileId, dueAt }) => ({ fileId, dueAt }));

function fileIdOf(data: unknown): string {
  const fileId = (data as { fileId?: unknown } | null)?.fileId;
  if (typeof fileId !== 'string' || fileId === '' || fileId.length > 200) {
    throw new ApiError('bad_request', 'A file is named by its id');
  }
  return fileId;
}

/** "Delete" confirmed: the delete waits out the undo window, then the background sends it. */
export async function scheduleFileDelete(data: { fileId: string; fileName: string }, now = Date.now()) {
  const fileId = fileIdOf(data);
  const fileName = typeof data.fileName === 'string' ? data.fileName : '';
  const origin = await currentOrigin();
  if ((await fileDeleteOffered()).offered) {
    await putFileDelete({ fileId, fileName, origin, dueAt: now + deleteTiming.undoMs, attempts: 0 });
    await arm(now);
  }
  return views(origin);
}

export async function undoFileDelete(data: { fileId: string }): Promise<{ undone: boolean }> {
  const undone = await takeFileDelete(fileIdOf(data));
  await arm();
  return { undone };
}

export async function listFileDeletes(): Promise<FileDeleteView[]> {
  return views(await currentOrigin());
}

/** What this browser keeps of a deleted file: its upload's row (with the staged CSV, if any). */
async function forgetFile(fileId: string): Promise<void> {
  for (const job of await getJobs()) {
    if (job.kind !== 'bulk' || job.fileId !== fileId) continue;
    await removeJob(job.id);
    await deleteUploadBlob(job.blobKey);
  }
}

async function send(entry: FileDelete, now: number): Promise<void> {
  // The saved key belongs to the current service only: a delete for another one cannot be sent.
  if (entry.origin !== (await currentOrigin())) return;
  try {
    const outcome = await (await getClient()).deleteFile(entry.fileId);
    if (outcome === 'unsupported') await markRouteMissing(entry.origin, PATHS.bulkFile);
    else await forgetFile(entry.fileId);
  } catch (err) {
    console.warn('[verimark] file delete failed', err);
    if (entry.attempts + 1 < MAX_ATTEMPTS) {
      await putFileDelete({ ...entry, attempts: entry.attempts + 1, dueAt: now + RETRY_MS });
    }
  }
}

/** Sends every delete whose undo window is over (each is taken once, so a timer and the alarm never both send it). */
export async function sendDueFileDeletes(now = Date.now()): Promise<void> {
  for (const entry of await takeDueFileDeletes(now)) await send(entry, now);
  await arm(now);
}
