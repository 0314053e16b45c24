import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

/**
 * This process as the owner of what it has under way in the database (an upload still
 * `receiving`): host, pid and a random tag (pids repeat across machines and restarts).
 * server/app/receiving-cleanup.ts reads the host and pid back to tell a dead owner.
 */
export const PROCESS_NAME = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;

/** The host and pid of a PROCESS_NAME (or of a Workers owner, same form); null when not of that form. */
export function ownerOf(name: string): { host: string; pid: number } | null {
  const parts = name.split(':');
  if (parts.length < 3) return null;
  const pid = Number(parts[parts.length - 2]);
  if (!Number.isInteger(pid) || pid <= 0) return null;
  return { host: parts.slice(0, -2).join(':'), pid };
}
