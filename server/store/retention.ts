/**
 * Data with a lifetime (docs/design.md §4, RETENTION_DAYS): uploaded rows, results and finished
 * single tasks older than the retention are removed — by the service at start-up and then
 * periodically (server/app/app.ts), and by `npm run service:admin -- purge`.
 */
import { rm } from 'node:fs/promises';
import { DataPaths } from '../paths';
import type { Store } from './store';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface Purged {
  files: number;
  tasks: number;
}

/** The ISO time before which finished work is removed, `days` before `now`. */
export function retentionCutoff(days: number, now = Date.now()): string {
  return new Date(now - days * DAY_MS).toISOString();
}

/**
 * Removes a deleted file's results from DATA_DIR/results, where files completed before results
 * moved into the database keep them (nothing there for the others).
 */
export async function removeResultFile(dataDir: string, fileId: string): Promise<void> {
  await rm(new DataPaths(dataDir).result(fileId), { force: true });
}

/**
 * Deletes one file (another key's, or none: false) with its rows and results, leaving nothing of
 * them readable on disk (Store.eraseDeleted). `keyId` null: any key's (the admin command).
 */
export async function deleteFile(
  store: Pick<Store, 'files' | 'eraseDeleted'>,
  dataDir: string,
  fileId: string,
  keyId: string | null,
): Promise<boolean> {
  if (!(await store.files.delete(fileId, keyId))) return false;
  await removeResultFile(dataDir, fileId);
  await store.eraseDeleted();
  return true;
}

/**
 * Removes the completed and failed files (with their rows and results) and the completed single
 * tasks last updated more than `days` days ago, leaving nothing of them readable on disk.
 */
export async function purgeOlderThan(
  store: Pick<Store, 'files' | 'tasks' | 'eraseDeleted'>,
  dataDir: string,
  days: number,
): Promise<Purged> {
  const before = retentionCutoff(days);
  const files = await store.files.purge(before);
  for (const id of files) await removeResultFile(dataDir, id);
  const tasks = await store.tasks.purge(before);
  if (files.length + tasks > 0) await store.eraseDeleted();
  return { files: files.length, tasks };
}
