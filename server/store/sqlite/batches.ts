/**
 * The batch queue on SQLite: claims serialised by BEGIN IMMEDIATE (also across processes on one
 * file), leases, results committed at once or deferred with what was decided so far.
 */
import type { BatchDeferred, BatchDone, BatchQueue, ClaimedBatch, FileRow } from '../store';
import { nowIso } from '../store';
import type { Db } from './db';
import { prepared } from './db';
import { giveCredits } from './keys';

interface BatchJoin {
  file_id: string;
  first_row: number;
  input: string;
  partial: string | null;
  attempts: number;
  mode: FileRow['mode'];
  email_index: number;
  header_length: number;
}

/**
 * The files with work, in the order their keys get the next batch: fewest live leases, then
 * served longest ago (never first), then oldest file; each key's files in order. `@maxLeased`
 * -1: every key.
 */
const FILES_IN_TURN = `
  WITH work AS (
    SELECT seq, key_id, served_at FROM bulk_files WHERE state IN ('pending', 'processing')),
  live AS (
    SELECT file_seq, COUNT(*) AS n FROM file_batches INDEXED BY file_batches_leased
     WHERE state = 'open' AND lease_until >= @now GROUP BY file_seq),
  turns AS (
    SELECT w.key_id, COALESCE(SUM(l.n), 0) AS leased, MAX(w.served_at) AS served, MIN(w.seq) AS oldest
      FROM work w LEFT JOIN live l ON l.file_seq = w.seq GROUP BY w.key_id)
  SELECT w.seq FROM work w JOIN turns t ON t.key_id = w.key_id
   WHERE @maxLeased < 0 OR t.leased <= @maxLeased
   ORDER BY t.leased, t.served NULLS FIRST, t.oldest, w.seq`;

/**
 * A file's first open batch nobody holds a live lease on, with what the worker needs of the file.
 * A deferred batch (server/jobs/deferral.ts) is ready once its `not_before` has passed.
 */
const NEXT_BATCH = `
  SELECT b.file_id, b.first_row, b.input, b.partial, b.attempts, f.mode, f.email_index, f.header_length
    FROM file_batches b JOIN bulk_files f ON f.seq = b.file_seq
   WHERE b.file_seq = @seq AND b.state = 'open'
     AND (b.lease_until IS NULL OR b.lease_until < @now)
     AND (b.not_before IS NULL OR b.not_before <= @now)
   ORDER BY b.first_row LIMIT 1`;

/** The batch queue on SQLite: `BEGIN IMMEDIATE` serialises claims, also across processes. */
export class SqliteBatchQueue implements BatchQueue {
  constructor(private readonly db: Db) {}

  /**
   * Batches in turns between keys (docs/design.md §4, "Fair between keys"): the key holding the
   * fewest live leases (every process's), ties to the key served longest ago, then to the key
   * with the oldest file; then that key's files in order, each file's first open batch nobody
   * holds. Only `pending` and `processing` files take part (a `receiving` one is not accepted
   * yet). `maxKeyLeases`: only keys holding at most that many live leases (0: keys nobody serves).
   * Cost: the files with work and the live leases, by their indexes; the open batches are read
   * only from a chosen file's head.
   */
  async claim(
    owner: string,
    leaseMs: number,
    maxKeyLeases = Number.POSITIVE_INFINITY,
  ): Promise<ClaimedBatch | null> {
    return this.db
      .transaction((): ClaimedBatch | null => {
        const now = Date.now();
        const files = prepared(this.db, FILES_IN_TURN).all({
          now,
          maxLeased: Number.isFinite(maxKeyLeases) ? maxKeyLeases : -1,
        }) as { seq: number }[];
        const next = prepared(this.db, NEXT_BATCH);
        let row: BatchJoin | undefined;
        for (const { seq } of files) {
          row = next.get({ seq, now }) as BatchJoin | undefined;
          if (row) break;
        }
        if (!row) return null;
        prepared(
          this.db,
          `UPDATE file_batches SET lease_owner = ?, lease_until = ?, attempts = attempts + 1
             WHERE file_id = ? AND first_row = ?`,
        ).run(owner, now + leaseMs, row.file_id, row.first_row);
        prepared(
          this.db,
          // Later than every file with work was served (two claims may share a millisecond).
          `UPDATE bulk_files SET served_at = MAX(?, 1 + COALESCE((SELECT MAX(served_at) FROM bulk_files
                 WHERE state IN ('pending', 'processing')), 0)),
               state = CASE WHEN state = 'pending' THEN 'processing' ELSE state END,
               updated_at = CASE WHEN state = 'pending' THEN ? ELSE updated_at END
             WHERE id = ?`,
        ).run(now, nowIso(), row.file_id);
        return {
          fileId: row.file_id,
          firstRow: row.first_row,
          rows: JSON.parse(row.input) as string[][],
          attempts: row.attempts + 1,
          mode: row.mode,
          emailIndex: row.email_index,
          headerLength: row.header_length,
          partial: row.partial,
        };
      })
      .immediate();
  }

  async renew(fileId: string, firstRow: number, owner: string, leaseMs: number): Promise<boolean> {
    const result = prepared(
      this.db,
      `UPDATE file_batches SET lease_until = ?
         WHERE file_id = ? AND first_row = ? AND lease_owner = ? AND state = 'open'`,
    ).run(Date.now() + leaseMs, fileId, firstRow, owner);
    return result.changes === 1;
  }

  async commit({ fileId, firstRow, owner, output, counts }: BatchDone): Promise<boolean> {
    return this.db
      .transaction((): boolean => {
        const done = prepared(
          this.db,
          `UPDATE file_batches SET state = 'done', output = ?, input = '[]', partial = NULL, lease_until = NULL
             WHERE file_id = ? AND first_row = ? AND lease_owner = ? AND state = 'open'`,
        ).run(output, fileId, firstRow, owner);
        if (done.changes !== 1) return false;
        const rows = counts.deliverable + counts.undeliverable + counts.unknown + counts.risky;
        const now = nowIso();
        prepared(
          this.db,
          `UPDATE bulk_files SET batches_done = batches_done + 1, rows_done = rows_done + ?,
               deliverable = deliverable + ?, undeliverable = undeliverable + ?, unknown = unknown + ?,
               risky = risky + ?, updated_at = ?
             WHERE id = ?`,
        ).run(rows, counts.deliverable, counts.undeliverable, counts.unknown, counts.risky, now, fileId);
        const file = prepared(this.db, 'SELECT * FROM bulk_files WHERE id = ?').get(fileId) as FileRow;
        if (file.batches_done >= file.batches_total && file.state === 'processing') {
          prepared(
            this.db,
            "UPDATE bulk_files SET state = 'completed', credit_refund = unknown, updated_at = ? WHERE id = ?",
          ).run(now, fileId);
          giveCredits(this.db, file.key_id, file.unknown);
        }
        return true;
      })
      .immediate();
  }

  async defer({ fileId, firstRow, owner, partial, delayMs }: BatchDeferred): Promise<boolean> {
    const result = prepared(
      this.db,
      `UPDATE file_batches SET partial = ?, not_before = ?, lease_owner = NULL, lease_until = NULL,
           attempts = 0
         WHERE file_id = ? AND first_row = ? AND lease_owner = ? AND state = 'open'`,
    ).run(partial, Date.now() + delayMs, fileId, firstRow, owner);
    return result.changes === 1;
  }

  async release(fileId: string, firstRow: number, owner: string): Promise<void> {
    prepared(
      this.db,
      `UPDATE file_batches SET lease_until = NULL, attempts = MAX(attempts - 1, 0)
         WHERE file_id = ? AND first_row = ? AND lease_owner = ? AND state = 'open'`,
    ).run(fileId, firstRow, owner);
  }
}
