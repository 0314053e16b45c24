/**
 * Bulk files on Postgres: receiving an upload in blocks of batches, accepting it, listing, status,
 * results, deletion and purge.
 */
import { acceptedFileValues } from '../new-rows';
import type { FilePage, FileRow, FileStore, NewBatch, NewFile, ReceivingFile, ReceivingRow } from '../store';
import { deleteRefund, nowIso } from '../store';
import { giveCredits, takeCredits } from './keys';
import { inTransaction, type Pool } from './pool';

/** Batches inserted per statement at upload. */
const INSERT_CHUNK = 200;

/** Bulk files in Postgres; their rows and results live in `file_batches`. */
export class PgFileStore implements FileStore {
  constructor(private readonly pool: Pool) {}

  async receive(f: ReceivingFile): Promise<number> {
    const now = nowIso();
    // Placeholders until accept(): the name, mode and columns come with the end of the upload.
    const { rows } = await this.pool.query<{ seq: number }>(
      `INSERT INTO bulk_files (id, key_id, file_name, state, mode, email_index, header_length, credit_usage,
           batches_total, result_header, upload_owner, created_at, updated_at)
         VALUES ($1, $2, '', 'receiving', '', 0, 0, 0, 0, '', $3, $4, $4) RETURNING seq`,
      [f.id, f.keyId, f.owner, now],
    );
    return (rows[0] as { seq: number }).seq;
  }

  async addBatches(id: string, seq: number, batches: readonly NewBatch[]): Promise<void> {
    // One statement per INSERT_CHUNK batches; each is atomic, and a file is only ever read once
    // accept() has counted its batches, so no transaction is needed around them.
    for (let at = 0; at < batches.length; at += INSERT_CHUNK) {
      const chunk = batches.slice(at, at + INSERT_CHUNK);
      await this.pool.query(
        `INSERT INTO file_batches (file_id, file_seq, first_row, row_count, input, state)
           SELECT $1, $2, u.first_row, u.row_count, u.input, 'open'
             FROM unnest($3::int[], $4::int[], $5::text[]) AS u(first_row, row_count, input)`,
        [id, seq, chunk.map((b) => b.firstRow), chunk.map((b) => b.rowCount), chunk.map((b) => b.input)],
      );
    }
  }

  accept(id: string, f: NewFile): Promise<FileRow | null> {
    return inTransaction(this.pool, async (client) => {
      const { rows } = await client.query<{ key_id: string; state: string }>(
        'SELECT key_id, state FROM bulk_files WHERE id = $1 FOR UPDATE',
        [id],
      );
      const row = rows[0];
      if (row?.state !== 'receiving') throw new Error('the upload was removed while it arrived');
      const stored = await client.query<{ n: number }>(
        'SELECT COUNT(*)::int AS n FROM file_batches WHERE file_id = $1',
        [id],
      );
      const n = stored.rows[0]?.n ?? 0;
      if (n !== f.batchesTotal) throw new Error(`the upload stored ${n} batches of ${f.batchesTotal}`);
      if (!(await takeCredits(client, row.key_id, f.credits))) return null;
      const updated = await client.query<FileRow>(
        `UPDATE bulk_files SET file_name = $1, state = $2, mode = $3, email_index = $4, header_length = $5,
             credit_usage = $6, batches_total = $7, result_header = $8, upload_owner = NULL,
             created_at = $9, updated_at = $9
           WHERE id = $10 RETURNING *`,
        [...acceptedFileValues(f, nowIso()), id],
      );
      return updated.rows[0] ?? null;
    });
  }

  async discard(id: string): Promise<void> {
    // Its batches go with it (ON DELETE CASCADE).
    await this.pool.query("DELETE FROM bulk_files WHERE id = $1 AND state = 'receiving'", [id]);
  }

  async receiving(): Promise<ReceivingRow[]> {
    const { rows } = await this.pool.query<ReceivingRow>(
      "SELECT id, upload_owner, created_at FROM bulk_files WHERE state = 'receiving'",
    );
    return rows;
  }

  async getById(id: string): Promise<FileRow | null> {
    const { rows } = await this.pool.query<FileRow>(
      "SELECT * FROM bulk_files WHERE id = $1 AND state <> 'receiving'",
      [id],
    );
    return rows[0] ?? null;
  }

  async get(keyId: string, id: string): Promise<FileRow | null> {
    const { rows } = await this.pool.query<FileRow>(
      "SELECT * FROM bulk_files WHERE id = $1 AND key_id = $2 AND state <> 'receiving'",
      [id, keyId],
    );
    return rows[0] ?? null;
  }

  async list(keyId: string, page: number, pageSize: number, search: string): Promise<FilePage> {
    const where = "key_id = $1 AND state <> 'receiving' AND strpos(lower(file_name), $2) > 0";
    const needle = search.toLowerCase();
    const count = await this.pool.query<{ n: number }>(
      `SELECT COUNT(*)::int AS n FROM bulk_files WHERE ${where}`,
      [keyId, needle],
    );
    const { rows } = await this.pool.query<FileRow>(
      `SELECT * FROM bulk_files WHERE ${where} ORDER BY seq DESC LIMIT $3 OFFSET $4`,
      [keyId, needle, pageSize, (page - 1) * pageSize],
    );
    return { rows, total: count.rows[0]?.n ?? 0 };
  }

  async fail(id: string, error: string): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      const { rows } = await client.query<FileRow>('SELECT * FROM bulk_files WHERE id = $1 FOR UPDATE', [id]);
      const row = rows[0];
      if (!row || (row.state !== 'processing' && row.state !== 'pending')) return;
      await client.query(
        `UPDATE bulk_files SET state = 'failed', credit_refund = credit_usage, error = $1, updated_at = $2
           WHERE id = $3`,
        [error, nowIso(), id],
      );
      await client.query("DELETE FROM file_batches WHERE file_id = $1 AND state = 'open'", [id]);
      await giveCredits(client, row.key_id, row.credit_usage - row.credit_refund);
    });
  }

  delete(id: string, keyId: string | null): Promise<boolean> {
    return inTransaction(this.pool, async (client) => {
      const { rows } = await client.query<FileRow>(
        "SELECT * FROM bulk_files WHERE id = $1 AND state <> 'receiving' FOR UPDATE",
        [id],
      );
      const row = rows[0];
      if (!row || (keyId !== null && row.key_id !== keyId)) return false;
      // Its batches go with it (ON DELETE CASCADE).
      await client.query('DELETE FROM bulk_files WHERE id = $1', [id]);
      await giveCredits(client, row.key_id, deleteRefund(row));
      return true;
    });
  }

  async purge(before: string): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>(
      "DELETE FROM bulk_files WHERE state IN ('completed', 'failed') AND updated_at < $1 RETURNING id",
      [before],
    );
    return rows.map((r) => r.id);
  }

  async *resultChunks(id: string): AsyncIterable<string> {
    const file = await this.getById(id);
    if (!file) return;
    yield file.result_header;
    let after = -1;
    for (;;) {
      const { rows } = await this.pool.query<{ first_row: number; output: string | null }>(
        `SELECT first_row, output FROM file_batches WHERE file_id = $1 AND first_row > $2
           ORDER BY first_row LIMIT 50`,
        [id, after],
      );
      if (rows.length === 0) return;
      for (const r of rows) yield r.output ?? '';
      after = rows[rows.length - 1]?.first_row ?? after;
    }
  }
}
