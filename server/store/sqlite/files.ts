/**
 * Bulk files on SQLite: receiving an upload in blocks of batches, accepting it, listing, status,
 * results, deletion and purge.
 */
import { acceptedFileValues } from '../new-rows';
import type { FilePage, FileRow, FileStore, NewBatch, NewFile, ReceivingFile, ReceivingRow } from '../store';
import { deleteRefund, nowIso } from '../store';
import type { Db } from './db';
import { prepared } from './db';
import { giveCredits, takeCredits } from './keys';

/** Bulk files in SQLite; their rows and results live in `file_batches`. */
export class SqliteFileStore implements FileStore {
  constructor(private readonly db: Db) {
    db.function('vm_lower', { deterministic: true }, (s: unknown) =>
      typeof s === 'string' ? s.toLowerCase() : s,
    );
  }

  async receive(f: ReceivingFile): Promise<number> {
    const now = nowIso();
    // Placeholders until accept(): the name, mode and columns come with the end of the upload.
    const { lastInsertRowid } = prepared(
      this.db,
      `INSERT INTO bulk_files (id, key_id, file_name, state, mode, delimiter, newline, email_index,
           header_length, credit_usage, result_header, upload_owner, created_at, updated_at)
         VALUES (?, ?, '', 'receiving', '', ',', '\n', 0, 0, 0, '', ?, ?, ?)`,
    ).run(f.id, f.keyId, f.owner, now, now);
    return Number(lastInsertRowid);
  }

  async addBatches(id: string, seq: number, batches: readonly NewBatch[]): Promise<void> {
    const insert = prepared(
      this.db,
      `INSERT INTO file_batches (file_id, file_seq, first_row, row_count, input, state)
         VALUES (?, ?, ?, ?, ?, 'open')`,
    );
    this.db
      .transaction(() => {
        for (const b of batches) insert.run(id, seq, b.firstRow, b.rowCount, b.input);
      })
      .immediate();
  }

  async accept(id: string, f: NewFile): Promise<FileRow | null> {
    return this.db
      .transaction((): FileRow | null => {
        const row = prepared(this.db, 'SELECT key_id, state FROM bulk_files WHERE id = ?').get(id) as
          | { key_id: string; state: string }
          | undefined;
        if (row?.state !== 'receiving') throw new Error('the upload was removed while it arrived');
        const stored = prepared(this.db, 'SELECT COUNT(*) AS n FROM file_batches WHERE file_id = ?').get(
          id,
        ) as {
          n: number;
        };
        if (stored.n !== f.batchesTotal) {
          throw new Error(`the upload stored ${stored.n} batches of ${f.batchesTotal}`);
        }
        if (!takeCredits(this.db, row.key_id, f.credits)) return null;
        const now = nowIso();
        prepared(
          this.db,
          `UPDATE bulk_files SET file_name = ?, state = ?, mode = ?, email_index = ?, header_length = ?,
               credit_usage = ?, batches_total = ?, result_header = ?, upload_owner = NULL,
               created_at = ?, updated_at = ?
             WHERE id = ?`,
        ).run(...acceptedFileValues(f, now), now, id);
        return this.getSync(id);
      })
      .immediate();
  }

  async discard(id: string): Promise<void> {
    // Its batches go with it (ON DELETE CASCADE).
    prepared(this.db, "DELETE FROM bulk_files WHERE id = ? AND state = 'receiving'").run(id);
  }

  async receiving(): Promise<ReceivingRow[]> {
    return prepared(
      this.db,
      "SELECT id, upload_owner, created_at FROM bulk_files WHERE state = 'receiving'",
    ).all() as ReceivingRow[];
  }

  private getSync(id: string): FileRow | null {
    return (
      (prepared(this.db, "SELECT * FROM bulk_files WHERE id = ? AND state <> 'receiving'").get(id) as
        | FileRow
        | undefined) ?? null
    );
  }

  async getById(id: string): Promise<FileRow | null> {
    return this.getSync(id);
  }

  async get(keyId: string, id: string): Promise<FileRow | null> {
    const row = prepared(
      this.db,
      "SELECT * FROM bulk_files WHERE id = ? AND key_id = ? AND state <> 'receiving'",
    ).get(id, keyId);
    return (row as FileRow | undefined) ?? null;
  }

  async list(keyId: string, page: number, pageSize: number, search: string): Promise<FilePage> {
    const where = "key_id = ? AND state <> 'receiving' AND instr(vm_lower(file_name), ?) > 0";
    const needle = search.toLowerCase();
    const total = (
      prepared(this.db, `SELECT COUNT(*) AS n FROM bulk_files WHERE ${where}`).get(keyId, needle) as {
        n: number;
      }
    ).n;
    const rows = prepared(
      this.db,
      `SELECT * FROM bulk_files WHERE ${where} ORDER BY seq DESC LIMIT ? OFFSET ?`,
    ).all(keyId, needle, pageSize, (page - 1) * pageSize) as FileRow[];
    return { rows, total };
  }

  async fail(id: string, error: string): Promise<void> {
    this.db
      .transaction(() => {
        const row = this.getSync(id);
        if (!row || (row.state !== 'processing' && row.state !== 'pending')) return;
        prepared(
          this.db,
          "UPDATE bulk_files SET state = 'failed', credit_refund = credit_usage, error = ?, updated_at = ? WHERE id = ?",
        ).run(error, nowIso(), id);
        prepared(this.db, "DELETE FROM file_batches WHERE file_id = ? AND state = 'open'").run(id);
        giveCredits(this.db, row.key_id, row.credit_usage - row.credit_refund);
      })
      .immediate();
  }

  async delete(id: string, keyId: string | null): Promise<boolean> {
    return this.db
      .transaction((): boolean => {
        const row = this.getSync(id);
        if (!row || (keyId !== null && row.key_id !== keyId)) return false;
        // Its batches go with it (ON DELETE CASCADE).
        prepared(this.db, 'DELETE FROM bulk_files WHERE id = ?').run(id);
        giveCredits(this.db, row.key_id, deleteRefund(row));
        return true;
      })
      .immediate();
  }

  async purge(before: string): Promise<string[]> {
    const rows = prepared(
      this.db,
      "DELETE FROM bulk_files WHERE state IN ('completed', 'failed') AND updated_at < ? RETURNING id",
    ).all(before) as { id: string }[];
    return rows.map((r) => r.id);
  }

  async *resultChunks(id: string): AsyncIterable<string> {
    const file = this.getSync(id);
    if (!file) return;
    yield file.result_header;
    let after = -1;
    const page = prepared(
      this.db,
      `SELECT first_row, output FROM file_batches WHERE file_id = ? AND first_row > ?
         ORDER BY first_row LIMIT 50`,
    );
    for (;;) {
      const rows = page.all(id, after) as { first_row: number; output: string | null }[];
      if (rows.length === 0) return;
      for (const r of rows) yield r.output ?? '';
      after = rows[rows.length - 1]?.first_row ?? after;
    }
  }
}
