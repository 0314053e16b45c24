/** One file's record from the service's list (counts and credits), found by name and id. */
import type { FileRecord } from '@verimark/contract';
import { getClient } from '@/lib/background/core/service';

export async function getFile(input: { fileId: string; fileName: string }): Promise<FileRecord | null> {
  const client = await getClient();
  const list = await client.listFiles({ page: 1, pageSize: 25, search: input.fileName });
  return list.files.find((file) => file._id === input.fileId) ?? null;
}
