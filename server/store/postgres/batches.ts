/**
 * The batch queue on Postgres: workers claim open batches with a lease (FOR UPDATE SKIP LOCKED)
 * and commit their results.
 */
import type { BatchDone, BatchQueue, ClaimedBatch, FileRow } from '../store';
import { nowIso } from '../store';
import { giveCredits } from './keys';
import { inTransaction, leaseSql, type Pool } from './pool';

/**
 * The batch queue on Postgres: `SELECT … FOR UPDATE SKIP LOCKED` picks the oldest open batch
 * whose lease is free or expired (of a file not still `receiving`), so any number of workers
 * claim distinct batches without waiting on each other; the lease (database clock) is renewed
 * while the batch is worked on.
 */
export class PgBatchQueue implements BatchQueue {
  constructor(private readonly pool: Pool) {}

  claim(owner: string, leaseMs: number): Promise<ClaimedBatch | null> {
    return inTransaction(this.pool, async (client) => {
      const { rows } = await client.query<{
        file_id: string;
        first_row: number;
        input: string;
        attempts: number;
      }>(
        `WITH next AS (
           SELECT file_id, first_row FROM file_batches
            WHERE state = 'open' AND (lease_until IS NULL OR lease_until < now())
              AND file_seq NOT IN (SELECT seq FROM bulk_files WHERE state = 'receiving')
            ORDER BY file_seq, first_row LIMIT 1 FOR UPDATE SKIP LOCKED)
         UPDATE file_batches b SET lease_owner = $1, lease_until = ${leaseSql(2)}, attempts = b.attempts + 1
           FROM next WHERE b.file_id = next.file_id AND b.first_row = next.first_row
         RETURNING b.file_id, b.first_row, b.input, b.attempts`,
        [owner, leaseMs],
      );
      const batch = rows[0];
      if (!batch) return null;
      const file = await client.query<Pick<FileRow, 'mode' | 'email_index' | 'header_length'>>(
        `UPDATE bulk_files SET state = CASE WHEN state = 'pending' THEN 'processing' ELSE state END,
             updated_at = CASE WHEN state = 'pending' THEN $2 ELSE updated_at END
           WHERE id = $1 RETURNING mode, email_index, header_length`,
        [batch.file_id, nowIso()],
      );
      const f = file.rows[0];
      if (!f) return null;
      return {
        fileId: batch.file_id,
        firstRow: batch.first_row,
        rows: JSON.parse(batch.input) as string[][],
        attempts: batch.attempts,
        mode: f.mode,
        emailIndex: f.email_index,
        headerLength: f.header_length,
      };
    });
  }

  async renew(fileId: string, firstRow: number, owner: string, leaseMs: number): Promise<boolean> {
    const result = await this.pool.query(
      `UPDATE file_batches SET lease_until = ${leaseSql(4)}
         WHERE file_id = $1 AND first_row = $2 AND lease_owner = $3 AND state = 'open'`,
      [fileId, firstRow, owner, leaseMs],
    );
    return result.rowCount === 1;
  }

  commit({ fileId, firstRow, owner, output, counts }: BatchDone): Promise<boolean> {
    return inTransaction(this.pool, async (client) => {
      const done = await client.query(
        `UPDATE file_batches SET state = 'done', output = $4, input = '[]', lease_until = NULL
           WHERE file_id = $1 AND first_row = $2 AND lease_owner = $3 AND state = 'open'`,
        [fileId, firstRow, owner, output],
      );
      if (done.rowCount !== 1) return false;
      const rows = counts.deliverable + counts.undeliverable + counts.unknown + counts.risky;
      const now = nowIso();
      const updated = await client.query<FileRow>(
        `UPDATE bulk_files SET batches_done = batches_done + 1, rows_done = rows_done + $2,
             deliverable = deliverable + $3, undeliverable = undeliverable + $4, unknown = unknown + $5,
             risky = risky + $6, updated_at = $7
           WHERE id = $1 RETURNING *`,
        [fileId, rows, counts.deliverable, counts.undeliverable, counts.unknown, counts.risky, now],
      );
      const file = updated.rows[0];
      if (file && file.batches_done >= file.batches_total && file.state === 'processing') {
        await client.query(
          "UPDATE bulk_files SET state = 'completed', credit_refund = unknown, updated_at = $2 WHERE id = $1",
          [fileId, now],
        );
        await giveCredits(client, file.key_id, file.unknown);
      }
      return true;
    });
  }

  async release(fileId: string, firstRow: number, owner: string): Promise<void> {
    await this.pool.query(
      `UPDATE file_batches SET lease_until = NULL, attempts = GREATEST(attempts - 1, 0)
         WHERE file_id = $1 AND first_row = $2 AND lease_owner = $3 AND state = 'open'`,
      [fileId, firstRow, owner],
    );
  }
}
