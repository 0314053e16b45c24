/**
 * The batch queue on Postgres: workers claim open batches with a lease (FOR UPDATE SKIP LOCKED)
 * and commit their results, or defer them with what was decided so far.
 */
import type { BatchDeferred, BatchDone, BatchQueue, ClaimedBatch, FileRow } from '../store';
import { nowIso } from '../store';
import { giveCredits } from './keys';
import { inTransaction, leaseSql, type Pool } from './pool';

/**
 * The files with work, in the order their keys get the next batch: fewest live leases (every
 * process's), then served longest ago (never first), then oldest file; each key's files in
 * order. `$1` -1: every key, else only keys holding at most that many live leases.
 */
const FILES_IN_TURN = `
  WITH work AS (
    SELECT seq, key_id, served_at FROM bulk_files WHERE state IN ('pending', 'processing')),
  live AS (
    SELECT file_seq, count(*) AS n FROM file_batches
     WHERE state = 'open' AND lease_until >= now() GROUP BY file_seq),
  turns AS (
    SELECT w.key_id, COALESCE(sum(l.n), 0) AS leased, max(w.served_at) AS served, min(w.seq) AS oldest
      FROM work w LEFT JOIN live l ON l.file_seq = w.seq GROUP BY w.key_id)
  SELECT w.seq FROM work w JOIN turns t ON t.key_id = w.key_id
   WHERE $1::int < 0 OR t.leased <= $1::int
   ORDER BY t.leased, t.served NULLS FIRST, t.oldest, w.seq`;

/**
 * Leases a file's first open batch nobody holds a live lease on; a batch another process is
 * claiming at this moment is skipped (SKIP LOCKED), not waited for; a deferred batch
 * (server/jobs/deferral.ts) is ready once its `not_before` has passed.
 */
const LEASE_NEXT_BATCH = `
  WITH next AS (
    SELECT b.file_id, b.first_row FROM file_batches b
     WHERE b.file_seq = $3 AND b.state = 'open'
       AND (b.lease_until IS NULL OR b.lease_until < now())
       AND (b.not_before IS NULL OR b.not_before <= now())
     ORDER BY b.first_row LIMIT 1 FOR UPDATE SKIP LOCKED)
  UPDATE file_batches b SET lease_owner = $1, lease_until = ${leaseSql(2)}, attempts = b.attempts + 1
    FROM next WHERE b.file_id = next.file_id AND b.first_row = next.first_row
  RETURNING b.file_id, b.first_row, b.input, b.partial, b.attempts`;

/**
 * The batch queue on Postgres: batches in turns between keys (docs/design.md §4, "Fair between
 * keys"), each claimed `FOR UPDATE SKIP LOCKED`, so any number of workers claim distinct batches
 * without waiting on each other; the lease (database clock) is renewed while the batch is
 * worked on.
 */
export class PgBatchQueue implements BatchQueue {
  constructor(private readonly pool: Pool) {}

  /** As the SQLite queue's claim: the next key in turn, then its oldest file's next batch. */
  claim(
    owner: string,
    leaseMs: number,
    maxKeyLeases = Number.POSITIVE_INFINITY,
  ): Promise<ClaimedBatch | null> {
    return inTransaction(this.pool, async (client) => {
      const files = await client.query<{ seq: number }>(FILES_IN_TURN, [
        Number.isFinite(maxKeyLeases) ? maxKeyLeases : -1,
      ]);
      let batch:
        | { file_id: string; first_row: number; input: string; partial: string | null; attempts: number }
        | undefined;
      for (const { seq } of files.rows) {
        const leased = await client.query<NonNullable<typeof batch>>(LEASE_NEXT_BATCH, [owner, leaseMs, seq]);
        batch = leased.rows[0];
        if (batch) break;
      }
      if (!batch) return null;
      const file = await client.query<Pick<FileRow, 'mode' | 'email_index' | 'header_length'>>(
        `UPDATE bulk_files SET served_at = clock_timestamp(), state = CASE WHEN state = 'pending' THEN 'processing' ELSE state END,
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
        partial: batch.partial,
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
        `UPDATE file_batches SET state = 'done', output = $4, input = '[]', partial = NULL, lease_until = NULL
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

  async defer({ fileId, firstRow, owner, partial, delayMs }: BatchDeferred): Promise<boolean> {
    const result = await this.pool.query(
      `UPDATE file_batches SET partial = $1, not_before = now() + $2 * interval '1 millisecond',
           lease_owner = NULL, lease_until = NULL, attempts = 0
         WHERE file_id = $3 AND first_row = $4 AND lease_owner = $5 AND state = 'open'`,
      [partial, delayMs, fileId, firstRow, owner],
    );
    return result.rowCount === 1;
  }

  async release(fileId: string, firstRow: number, owner: string): Promise<void> {
    await this.pool.query(
      `UPDATE file_batches SET lease_until = NULL, attempts = GREATEST(attempts - 1, 0)
         WHERE file_id = $1 AND first_row = $2 AND lease_owner = $3 AND state = 'open'`,
      [fileId, firstRow, owner],
    );
  }
}
