import { newFileValues } from '../new-rows';
import type { FilePage, FileRow, FileStore, NewBatch, NewBatches, NewFile } from '../store';
import { nowIso } from '../store';
import { giveCredits, takeCredits } from './keys';
import { inTransaction, type Pool } from './pool';

/** Batches inserted per statement at upload. */
const INSERT_CHUNK = 200;

/** Bulk files in Postgres; their rows and results live in `file_batches`. */
export class PgFileStore implements FileStore {
  constructor(private readonly pool: Pool) {}

  create(f: NewFile, batches: NewBatches): Promise<FileRow | null> {
    return inTransaction(this.pool, async (client) => {
      if (!(await takeCredits(client, f.keyId, f.credits))) return null;
      const now = nowIso();
      const { rows } = await client.query<FileRow>(
        `INSERT INTO bulk_files (id, key_id, file_name, state, mode, email_index, header_length, credit_usage,
             batches_total, result_header, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11) RETURNING *`,
        newFileValues(f, batches, now),
      );
      const file = rows[0] as FileRow;
      const insert = (chunk: NewBatch[]) =>
        client.query(
          `INSERT INTO file_batches (file_id, file_seq, first_row, row_count, input, state)
             SELECT $1, $2, u.first_row, u.row_count, u.input, 'open'
               FROM unnest($3::int[], $4::int[], $5::text[]) AS u(first_row, row_count, input)`,
          [
            f.id,
            file.seq,
            chunk.map((b) => b.firstRow),
            chunk.map((b) => b.rowCount),
            chunk.map((b) => b.input),
          ],
        );
      let chunk: NewBatch[] = [];
      for (const batch of batches) {
        chunk.push(batch);
        if (chunk.length < INSERT_CHUNK) continue;
        await insert(chunk);
        chunk = [];
      }
      if (chunk.length > 0) await insert(chunk);
      return file;
    });
  }

  async getById(id: string): Promise<FileRow | null> {
    const { rows } = await this.pool.query<FileRow>('SELECT * FROM bulk_files WHERE id = $1', [id]);
    return rows[0] ?? null;
  }

  async get(keyId: string, id: string): Promise<FileRow | null> {
    const { rows } = await this.pool.query<FileRow>(
      'SELECT * FROM bulk_files WHERE id = $1 AND key_id = $2',
      [id, keyId],
    );
    return rows[0] ?? null;
  }

  async list(keyId: string, page: number, pageSize: number, search: string): Promise<FilePage> {
    const where = 'key_id = $1 AND strpos(lower(file_name), $2) > 0';
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
      await client.query('DELETE FROM file_batches WHERE file_id = $1', [id]);
      await giveCredits(client, row.key_id, row.credit_usage - row.credit_refund);
    });
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
