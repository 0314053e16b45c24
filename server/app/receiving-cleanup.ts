/**
 * Files left `receiving` by an upload whose process died mid-upload (its batches stored, never
 * accepted): removed at start-up and now and then after. Several processes may share the
 * database (docs/design.md, "Scaling out"), so a receiving file is removed only when no live
 * process can still be receiving it: it is older than any request can last, or its owner ran on
 * this host and is gone (no process with its pid, or this process now has its pid).
 */
import type { FastifyBaseLogger } from 'fastify';
import { localPid, PROCESS_OWNER, pidAlive } from '../store/ids';
import type { FileStore, ReceivingRow } from '../store/store';

/** Whether no live process can own this receiving file; `maxAgeMs`: longer than any upload request. */
export function isOrphan(row: ReceivingRow, now: number, maxAgeMs: number): boolean {
  const created = Date.parse(row.created_at);
  if (!(created > now - maxAgeMs)) return true;
  if (row.upload_owner === PROCESS_OWNER) return false;
  // Another host's process is judged by age alone: its pids mean nothing here.
  const pid = row.upload_owner ? localPid(row.upload_owner) : null;
  if (pid === null) return false;
  // Our own pid under another name: a previous process that had it (a restarted container's pid 1).
  return pid === process.pid || !pidAlive(pid);
}

/** Removes the orphaned receiving files (with their batches); how many. */
export async function removeOrphanUploads(
  files: FileStore,
  maxAgeMs: number,
  log: FastifyBaseLogger,
): Promise<number> {
  const now = Date.now();
  const orphans = (await files.receiving()).filter((row) => isOrphan(row, now, maxAgeMs));
  for (const row of orphans) await files.discard(row.id);
  if (orphans.length > 0)
    log.info({ files: orphans.length }, 'removed uploads left unfinished by a stopped process');
  return orphans.length;
}
