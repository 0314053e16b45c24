/**
 * CSV files waiting to be uploaded. The popup stores the Blob under a key and asks the
 * background to upload it (`startBulkUpload`), so an upload survives the popup closing.
 * They live in idb-keyval's default store of the extension origin.
 */
import { del, get, set } from 'idb-keyval';

export async function putUploadBlob(blobKey: string, blob: Blob): Promise<void> {
  await set(blobKey, blob);
}

export async function takeUploadBlob(blobKey: string): Promise<Blob | undefined> {
  const blob = await get<Blob>(blobKey);
  return blob instanceof Blob ? blob : undefined;
}

export async function deleteUploadBlob(blobKey: string): Promise<void> {
  await del(blobKey);
}
