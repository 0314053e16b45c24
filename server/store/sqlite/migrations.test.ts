/**
 * SQLite migrations on a database in use: migration 4 rebuilds bulk_files keeping its rows,
 * batches and counter.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase } from './db';
import { MIGRATIONS } from './migrations';

const dir = mkdtempSync(join(tmpdir(), 'verimark-migrate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('migration 4 (the receiving state) on a database in use', () => {
  it('rebuilds bulk_files keeping its rows, their batches and the file counter', () => {
    const path = join(dir, 'verimark.sqlite');
    const old = new Database(path);
    old.pragma('foreign_keys = ON');
    for (const [version, sql] of MIGRATIONS.slice(0, 3).entries()) {
      old.exec(sql);
      old.pragma(`user_version = ${version + 1}`);
    }
    old.exec(`
      INSERT INTO api_keys (id, key_hash, key_prefix, credits, created_at) VALUES ('k', 'h', 'p', 5, 'now');
      INSERT INTO bulk_files (seq, id, key_id, file_name, state, mode, delimiter, newline, email_index,
          header_length, credit_usage, batches_total, result_header, created_at, updated_at)
        VALUES (7, 'f', 'k', 'a.csv', 'processing', 'non_catch_all', ',', '\n', 0, 1, 2, 2, 'Email', 't', 't');
      INSERT INTO file_batches (file_id, file_seq, first_row, row_count, input, state)
        VALUES ('f', 7, 0, 1, '[["a@x.test"]]', 'done'), ('f', 7, 1, 1, '[["b@x.test"]]', 'open');
    `);
    // A file deleted once moved the counter past the rows left: it must not go back.
    old.exec(
      "INSERT INTO bulk_files (seq, id, key_id, file_name, state, mode, delimiter, newline, email_index, header_length, credit_usage, created_at, updated_at) VALUES (9, 'gone', 'k', 'b.csv', 'failed', 'power', ',', '\n', 0, 1, 0, 't', 't')",
    );
    old.exec("DELETE FROM bulk_files WHERE id = 'gone'");
    old.close();

    const db = openDatabase(dir);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(
      db.prepare("SELECT seq, state, file_name, upload_owner FROM bulk_files WHERE id = 'f'").get(),
    ).toEqual({
      seq: 7,
      state: 'processing',
      file_name: 'a.csv',
      upload_owner: null,
    });
    expect(db.prepare("SELECT COUNT(*) AS n FROM file_batches WHERE file_id = 'f'").get()).toEqual({ n: 2 });
    db.exec(`INSERT INTO bulk_files (id, key_id, file_name, state, mode, delimiter, newline, email_index,
        header_length, credit_usage, created_at, updated_at)
      VALUES ('r', 'k', '', 'receiving', '', ',', '\n', 0, 0, 0, 't', 't')`);
    expect(db.prepare("SELECT seq FROM bulk_files WHERE id = 'r'").get()).toEqual({ seq: 10 });
    expect(() => db.exec("UPDATE bulk_files SET state = 'lost' WHERE id = 'r'")).toThrow(/CHECK/);
    // The references still hold: deleting a file takes its batches.
    db.exec("DELETE FROM bulk_files WHERE id = 'f'");
    expect(db.prepare('SELECT COUNT(*) AS n FROM file_batches').get()).toEqual({ n: 0 });
    migrate(db);
    db.close();
  });
});
