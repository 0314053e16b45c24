import type { Mode, ServerFileRecord, Verdict } from '../../lib/api/contract';
import type { Db } from './db';
import { nowIso, prepared } from './db';
import { giveCredits, takeCredits } from './keys';

export interface FileRow {
  seq: number;
  id: string;
  key_id: string;
  file_name: string;
  state: ServerFileRecord['state'];
  type: 'api' | 'website';
  service_name: string;
  mode: Mode;
  delimiter: string;
  newline: string;
  email_index: number;
  header_length: number;
  credit_usage: number;
  credit_refund: number;
  deliverable: number;
  undeliverable: number;
  unknown: number;
  risky: number;
  rows_done: number;
  out_bytes: number;
  attempts: number;
  error: string | null;
  created_at: string;
  updated_at: string;
}

export interface NewFile {
  id: string;
  keyId: string;
  fileName: string;
  mode: Mode;
  delimiter: string;
  newline: string;
  emailIndex: number;
  headerLength: number;
  credits: number;
}

export type VerdictCounts = Record<Verdict, number>;

/** One committed step of a file's processing: rows done, output bytes appended, verdicts. */
export interface Progress {
  rows: number;
  bytes: number;
  counts: VerdictCounts;
}

/** Durable bulk-file jobs. Credits are taken at upload and refunded at completion or failure. */
export class FileStore {
  constructor(private readonly db: Db) {
    db.function('vm_lower', { deterministic: true }, (s: unknown) =>
      typeof s === 'string' ? s.toLowerCase() : s,
    );
  }

  /** Takes the file's credits and inserts it in one transaction; null when the balance is short. */
  create(f: NewFile): FileRow | null {
    return this.db
      .transaction((): FileRow | null => {
        if (!takeCredits(this.db, f.keyId, f.credits)) return null;
        const now = nowIso();
        prepared(
          this.db,
          `INSERT INTO bulk_files (id, key_id, file_name, state, mode, delimiter, newline, email_index,
               header_length, credit_usage, created_at, updated_at)
             VALUES (?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?, ?)`,
        ).run(
          f.id,
          f.keyId,
          f.fileName,
          f.mode,
          f.delimiter,
          f.newline,
          f.emailIndex,
          f.headerLength,
          f.credits,
          now,
          now,
        );
        return this.getById(f.id);
      })
      .immediate();
  }

  getById(id: string): FileRow | null {
    return (
      (prepared(this.db, 'SELECT * FROM bulk_files WHERE id = ?').get(id) as FileRow | undefined) ?? null
    );
  }

  /** A file of this key, or null (another key's file is reported as absent). */
  get(keyId: string, id: string): FileRow | null {
    const row = prepared(this.db, 'SELECT * FROM bulk_files WHERE id = ? AND key_id = ?').get(id, keyId);
    return (row as FileRow | undefined) ?? null;
  }

  /** Newest first; `search` is a literal, case-insensitive substring of the file name. */
  list(keyId: string, page: number, pageSize: number, search: string): { rows: FileRow[]; total: number } {
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

  /** Ids of files still to be (or being) processed, oldest first. */
  openIds(): string[] {
    const rows = prepared(
      this.db,
      "SELECT id FROM bulk_files WHERE state IN ('pending', 'processing') ORDER BY seq",
    ).all() as { id: string }[];
    return rows.map((r) => r.id);
  }

  /** Marks a run of the file as started and counts the attempt. */
  start(id: string): FileRow | null {
    prepared(
      this.db,
      `UPDATE bulk_files SET state = 'processing', attempts = attempts + 1, updated_at = ?
         WHERE id = ? AND state IN ('pending', 'processing')`,
    ).run(nowIso(), id);
    return this.getById(id);
  }

  commit(id: string, p: Progress): void {
    prepared(
      this.db,
      `UPDATE bulk_files SET rows_done = rows_done + ?, out_bytes = out_bytes + ?,
           deliverable = deliverable + ?, undeliverable = undeliverable + ?, unknown = unknown + ?,
           risky = risky + ?, attempts = 0, updated_at = ?
         WHERE id = ? AND state = 'processing'`,
    ).run(
      p.rows,
      p.bytes,
      p.counts.deliverable,
      p.counts.undeliverable,
      p.counts.unknown,
      p.counts.risky,
      nowIso(),
      id,
    );
  }

  /** Completes the file and refunds its unknown results, once. */
  complete(id: string): void {
    this.db
      .transaction(() => {
        const row = this.getById(id);
        if (row?.state !== 'processing') return;
        prepared(
          this.db,
          "UPDATE bulk_files SET state = 'completed', credit_refund = unknown, updated_at = ? WHERE id = ?",
        ).run(nowIso(), id);
        giveCredits(this.db, row.key_id, row.unknown);
      })
      .immediate();
  }

  /** Fails the file and refunds every credit it took, once. */
  fail(id: string, error: string): void {
    this.db
      .transaction(() => {
        const row = this.getById(id);
        if (!row || (row.state !== 'processing' && row.state !== 'pending')) return;
        prepared(
          this.db,
          "UPDATE bulk_files SET state = 'failed', credit_refund = credit_usage, error = ?, updated_at = ? WHERE id = ?",
        ).run(error, nowIso(), id);
        giveCredits(this.db, row.key_id, row.credit_usage - row.credit_refund);
      })
      .immediate();
  }
}

/** The record of spec §2.4. */
export function toFileRecord(row: FileRow): ServerFileRecord {
  return {
    _id: row.id,
    file_name: row.file_name,
    state: row.state,
    type: row.type,
    service_name: row.service_name,
    options: { credit_usage: row.credit_usage, credit_refund: row.credit_refund },
    meta_data: {
      deliverable: row.deliverable,
      undeliverable: row.undeliverable,
      unknown: row.unknown,
      risky: row.risky,
    },
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
