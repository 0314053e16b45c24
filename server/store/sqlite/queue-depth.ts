/**
 * The queue's depth on SQLite (files by state, pending tasks), for /metrics.
 */
import type { QueueDepth } from '../store';
import { type Db, prepared } from './db';

/** Unfinished work in the database: files by state, single tasks pending (for /metrics). */
export function queueDepth(db: Db): QueueDepth {
  const files = prepared(
    db,
    "SELECT state, COUNT(*) AS n FROM bulk_files WHERE state IN ('pending', 'processing') GROUP BY state",
  ).all() as { state: 'pending' | 'processing'; n: number }[];
  const tasks = prepared(db, "SELECT COUNT(*) AS n FROM single_tasks WHERE state = 'pending'").get() as {
    n: number;
  };
  const depth: QueueDepth = { files: { pending: 0, processing: 0 }, tasks: { pending: tasks.n } };
  for (const row of files) depth.files[row.state] = row.n;
  return depth;
}
