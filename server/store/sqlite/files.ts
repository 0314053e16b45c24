import { newFileValues } from '../new-rows';
import type { FilePage, FileRow, FileStore, NewBatches, NewFile } from '../store';
import { nowIso } from '../store';
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

  async create(f: NewFile, batches: NewBatches): Promise<FileRow | null> {
    return this.db
      .transaction((): FileRow | null => {
        if (!takeCredits(this.db, f.keyId, f.credits)) return null;
        const now = nowIso();
        const { lastInsertRowid } = prepared(
          this.db,
          `INSERT INTO bulk_files (id, key_id, file_name, state, mode, delimiter, newline, email_index,
               header_length, credit_usage, batches_total, result_header, created_at, updated_at)
             VALUES (?, ?, ?, ?, ?, ',', '\n', ?, ?, ?, ?, ?, ?, ?)`,
        ).run(...newFileValues(f, batches, now), now);
        const insert = prepared(
          this.db,
          `INSERT INTO file_batches (file_id, file_seq, first_row, row_count, input, state)
             VALUES (?, ?, ?, ?, ?, 'open')`,
        );
        for (const b of batches) insert.run(f.id, lastInsertRowid, b.firstRow, b.rowCount, b.input);
        return this.getSync(f.id);
      })
      .immediate();
  }

  private getSync(id: string): FileRow | null {
    return (
      (prepared(this.db, 'SELECT * FROM bulk_files WHERE id = ?').get(id) as FileRow | undefined) ?? null
    );
  }

  async getById(id: string): Promise<FileRow | null> {
    return this.getSync(id);
  }

  async get(keyId: string, id: string): Promise<FileRow | null> {
    const row = prepared(this.db, 'SELECT * FROM bulk_files WHERE id = ? AND key_id = ?').get(id, keyId);
    return (row as FileRow | undefined) ?? null;
  }

  async list(keyId: string, page: number, pageSize: number, search: string): Promise<FilePage> {
    const where = 'key_id = ? AND instr(vm_lower(file_name), ?) > 0';
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
        prepared(this.db, 'DELETE FROM file_batches WHERE file_id = ?').run(id);
        giveCredits(this.db, row.key_id, row.credit_usage - row.credit_refund);
      })
      .immediate();
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
