/**
 * Deletes a person confirmed in the popup's Files list and may still undo: each waits in
 * extension-origin IndexedDB (a file's name is the person's data: never in storage.local, which
 * content scripts can read) until its undo window ends, so closing the popup or a stop of the
 * service worker keeps the decision. Every change is one read-modify-write (idb-keyval `update`).
 */
import { get, update } from 'idb-keyval';
import { idbStore } from './idb';

export interface FileDelete {
  fileId: string;
  fileName: string;
  /** The service the file is on: a delete is sent only there, with that service's key. */
  origin: string;
  /** When the undo window ends and the `DELETE` may be sent (ms since epoch). */
  dueAt: number;
  /** Failed sends so far (the service unreachable or refusing for now). */
  attempts: number;
}

const KEY = 'fileDeletes';

export async function getFileDeletes(): Promise<FileDelete[]> {
  return (await get<FileDelete[]>(KEY, idbStore('jobs'))) ?? [];
}

/** Adds (or replaces) the delete of `entry.fileId`. */
export async function putFileDelete(entry: FileDelete): Promise<void> {
  await update<FileDelete[]>(
    KEY,
    (all = []) => [...all.filter((item) => item.fileId !== entry.fileId), entry],
    idbStore('jobs'),
  );
}

/** Removes the delete of `fileId`; resolves with whether it was still waiting. */
export async function takeFileDelete(fileId: string): Promise<boolean> {
  let found = false;
  await update<FileDelete[]>(
    KEY,
    (all = []) =>
      all.filter((item) => {
        if (item.fileId !== fileId) return true;
        found = true;
        return false;
      }),
    idbStore('jobs'),
  );
  return found;
}

/** Removes and returns every delete due at `now`: each is sent once, by whoever took it. */
export async function takeDueFileDeletes(now = Date.now()): Promise<FileDelete[]> {
  let due: FileDelete[] = [];
  await update<FileDelete[]>(
    KEY,
    (all = []) => {
      due = all.filter((item) => item.dueAt <= now);
      return all.filter((item) => item.dueAt > now);
    },
    idbStore('jobs'),
  );
  return due;
}
