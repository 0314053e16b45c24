/**
 * Data with a lifetime (docs/design.md §4, RETENTION_DAYS): uploaded rows, results and finished
 * single tasks older than the retention are removed — by the service at start-up and then
 * periodically (server/app/app.ts), and by `npm run service:admin -- purge`.
 */
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
 * Removes the completed and failed files (with their rows and results) and the completed single
 * tasks last updated more than `days` days ago.
 */
export async function purgeOlderThan(store: Pick<Store, 'files' | 'tasks'>, days: number): Promise<Purged> {
  const before = retentionCutoff(days);
  const files = await store.files.purge(before);
  const tasks = await store.tasks.purge(before);
  return { files, tasks };
}
