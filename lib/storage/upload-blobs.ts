/**
 * CSV files waiting to be uploaded, in their own extension-origin IndexedDB store. The popup
 * stages a file as soon as it is chosen (while the preflight runs), so pressing "Upload" only
 * sends a message naming it: closing the popup right after the click loses nothing. The
 * background uploads from here and deletes the entry; files chosen but never uploaded are
 * swept after a while.
 */
import { del, get, keys, set } from 'idb-keyval';
import { idbStore } from './idb';

const PREFIX = 'upload:';
/** A staged file that no job has taken after this long was abandoned (the popup closed). */
const ABANDONED_AFTER_MS = 6 * 60 * 60 * 1000;

const store = () => idbStore('uploads');

/** `upload:<ms since epoch, base 36>:<uuid>`: the key says when the file was staged. */
export function newUploadKey(now = Date.now()): string {
  return `${PREFIX}${now.toString(36)}:${crypto.randomUUID()}`;
}

export function isUploadKey(key: unknown): key is string {
  return typeof key === 'string' && /^upload:[0-9a-z]+:[0-9a-f-]{36}$/.test(key);
}

function stagedAt(key: string): number {
  return Number.parseInt(key.slice(PREFIX.length).split(':')[0] ?? '', 36);
}

/** Stores a chosen file; resolves with the key to upload it by. */
export async function stageUpload(blob: Blob, now = Date.now()): Promise<string> {
  const key = newUploadKey(now);
  await set(key, blob, store());
  return key;
}

export async function takeUploadBlob(blobKey: string): Promise<Blob | undefined> {
  const blob = await get<Blob>(blobKey, store());
  return blob instanceof Blob ? blob : undefined;
}

export async function deleteUploadBlob(blobKey: string): Promise<void> {
  await del(blobKey, store());
}

/**
 * Deletes staged files that no job refers to and that were staged more than `maxAgeMs` ago
 * (a popup still open with a file chosen keeps its file for that long). Returns how many went.
 */
export async function sweepUploadBlobs(
  inUse: ReadonlySet<string>,
  now = Date.now(),
  maxAgeMs = ABANDONED_AFTER_MS,
): Promise<number> {
  let removed = 0;
  for (const key of await keys(store())) {
    if (typeof key !== 'string' || inUse.has(key)) continue;
    const at = isUploadKey(key) ? stagedAt(key) : Number.NaN;
    // Keys of another shape were not written by this version: nothing will take them.
    if (Number.isFinite(at) && now - at < maxAgeMs) continue;
    await del(key, store());
    removed++;
  }
  // Builds before the uploads store kept staged files in idb-keyval's default store.
  for (const key of await keys()) {
    if (typeof key === 'string' && key.startsWith(PREFIX)) {
      await del(key);
      removed++;
    }
  }
  return removed;
}
