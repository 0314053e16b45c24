/**
 * The batch queue on SQLite: claims serialised by BEGIN IMMEDIATE (also across processes on one
 * file), leases, results committed at once.
 */
import type { BatchDone, BatchQueue, ClaimedBatch, FileRow } from '../store';
import { nowIso } from '../store';
import type { Db } from './db';
import { prepared } from './db';
import { giveCredits } from './keys';

interface BatchJoin {
  file_id: string;
  first_row: number;
  input: string;
  attempts: number;
  mode: FileRow['mode'];
  email_index: number;
  header_length: number;
}

/** The batch queue on SQLite: `BEGIN IMMEDIATE` serialises claims, also across processes. */
export class SqliteBatchQueue implements BatchQueue {
  constructor(private readonly db: Db) {}

  /**
   * A file still `receiving` (its upload not accepted yet) is passed over by its seq, which the
   * index holds: its batches ahead in the index cost no row reads (a join on the file's state
   * read every one of them, slow behind a 25 MB upload).
   */
  async claim(owner: string, leaseMs: number): Promise<ClaimedBatch | null> {
    return this.db
      .transaction((): ClaimedBatch | null => {
        const now = Date.now();
        const row = prepared(
          this.db,
          `SELECT b.file_id, b.first_row, b.input, b.attempts, f.mode, f.email_index, f.header_length
             FROM file_batches b JOIN bulk_files f ON f.id = b.file_id
            WHERE b.state = 'open'
              AND b.file_seq NOT IN (SELECT seq FROM bulk_files WHERE state = 'receiving')
              AND (b.lease_until IS NULL OR b.lease_until < ?)
            ORDER BY b.file_seq, b.first_row LIMIT 1`,
        ).get(now) as BatchJoin | undefined;
        if (!row) return null;
        prepared(
          this.db,
          `UPDATE file_batches SET lease_owner = ?, lease_until = ?, attempts = attempts + 1
             WHERE file_id = ? AND first_row = ?`,
        ).run(owner, now + leaseMs, row.file_id, row.first_row);
        prepared(
          this.db,
          "UPDATE bulk_files SET state = 'processing', updated_at = ? WHERE id = ? AND state = 'pending'",
        ).run(nowIso(), row.file_id);
        return {
          fileId: row.file_id,
          firstRow: row.first_row,
          rows: JSON.parse(row.input) as string[][],
          attempts: row.attempts + 1,
          mode: row.mode,
          emailIndex: row.email_index,
          headerLength: row.header_length,
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
          `UPDATE file_batches SET state = 'done', output = ?, input = '[]', lease_until = NULL
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

  async release(fileId: string, firstRow: number, owner: string): Promise<void> {
    prepared(
      this.db,
      `UPDATE file_batches SET lease_until = NULL, attempts = MAX(attempts - 1, 0)
         WHERE file_id = ? AND first_row = ? AND lease_owner = ? AND state = 'open'`,
    ).run(fileId, firstRow, owner);
  }
}
