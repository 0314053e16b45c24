/**
 * Identifiers: file and task ids, API keys and their hashes, and a process's name as the owner of
 * leases and slots.
 */
import { createHash, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

/** A 24-hex-digit identifier (the shape of the commercial service's `_id`s). */
export function newId(): string {
  return randomBytes(12).toString('hex');
}

/** A new API key: `vm_` and 32 random bytes in base64url. */
export function newApiKey(): string {
  return `vm_${randomBytes(32).toString('base64url')}`;
}

/** Keys are high-entropy random strings, so a plain SHA-256 is a sound one-way store. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/**
 * A process's name as the owner of leases (tasks, batches) and host slots: host, pid and a
 * random tag (pids repeat across machines and restarts). A new one per call, so two owners in
 * one process (two stores, as in tests) stay apart.
 */
export function ownerName(): string {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
}

/** This process as the owner of what it has under way across requests (an upload still receiving). */
export const PROCESS_OWNER = ownerName();

/** The pid of an owner named by ownerName() on this machine; null for one on another machine (or not of that form). */
export function localPid(owner: string): number | null {
  const here = `${hostname()}:`;
  if (!owner.startsWith(here)) return null;
  const pid = Number(owner.slice(here.length).split(':')[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

/** Whether a process with this pid runs on this machine (EPERM: it runs, as another user). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
