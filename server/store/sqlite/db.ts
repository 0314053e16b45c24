/**
 * The SQLite database of the default store: opened (created owner-only when new), tuned (WAL,
 * 64 KiB pages, secure_delete), migrated; statements compiled once per connection.
 */
import { closeSync, mkdirSync, openSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS } from './migrations';

export type Db = Database.Database;

/** Page size of a new database (SQLite's largest; the default is 4 KiB). */
export const PAGE_SIZE = 65536;

/** The database file's name under DATA_DIR (with `-wal` and `-shm` beside it while it is open). */
export const DATABASE_FILE = 'verimark.sqlite';

/**
 * Opens (creating if needed) `verimark.sqlite` under `dataDir` in WAL mode and migrates it. A new
 * data directory is made readable by its owner only (0700) and a new database file 0600: SQLite
 * gives its `-wal` and `-shm` files the database file's mode. Every connection deletes securely:
 * what a DELETE removes is overwritten with zeros, not only unlinked from its page (the freed
 * pages too), so deleted addresses do not stay readable in the file (docs/design.md §4).
 */
export function openDatabase(dataDir: string): Db {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const path = join(dataDir, DATABASE_FILE);
  // An empty file is an empty database; an existing file keeps its mode.
  closeSync(openSync(path, 'a', 0o600));
  const db = new Database(path);
  db.pragma('secure_delete = ON');
  // Only a new, empty database takes it (an existing one keeps its page size). Batches hold tens
  // of KB of rows each, written as overflow pages one syscall per page: 64 KiB pages write a
  // 25 MB upload's batches in a sixteenth of the calls (docs/benchmarks.md, upload acceptance).
  db.pragma(`page_size = ${PAGE_SIZE}`);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}

/**
 * After a deletion: the WAL, which still holds the pages as they were before the DELETE (and
 * secure_delete's zeroed ones after them), is copied into the database and truncated to nothing.
 * It waits (busy_timeout) for other processes' readers of the same file; should one outlast it,
 * what is left goes at the next checkpoint.
 */
export function truncateWal(db: Db): void {
  db.pragma('wal_checkpoint(TRUNCATE)');
}

/**
 * VACUUM INTO a new file at `path`, created 0600: a compact copy of the live rows only (nothing
 * deleted comes along), read in one transaction, so it finishes however often other processes
 * write (SQLite's online backup API starts again after each of their writes).
 */
export function backupInto(db: Db, path: string): void {
  // 'wx': refuses an existing file; VACUUM INTO writes into the empty one, keeping its mode.
  closeSync(openSync(path, 'wx', 0o600));
  try {
    db.prepare('VACUUM INTO ?').run(path);
  } catch (err) {
    rmSync(path, { force: true });
    throw err;
  }
}

export function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current >= MIGRATIONS.length) return;
  // A migration that rebuilds a table (4) drops the old one: with foreign keys on, that DROP would
  // delete the rows referencing it (ON DELETE CASCADE). The pragma only changes outside a
  // transaction; each migration checks the references are whole before it commits.
  const foreignKeys = db.pragma('foreign_keys', { simple: true }) as number;
  db.pragma('foreign_keys = OFF');
  try {
    for (let version = current; version < MIGRATIONS.length; version++) {
      db.transaction(() => {
        db.exec(MIGRATIONS[version] ?? '');
        const broken = db.pragma('foreign_key_check') as unknown[];
        if (broken.length > 0) throw new Error(`migration ${version + 1} broke ${broken.length} references`);
        db.pragma(`user_version = ${version + 1}`);
      }).immediate();
    }
  } finally {
    db.pragma(`foreign_keys = ${foreignKeys ? 'ON' : 'OFF'}`);
  }
}

const statements = new WeakMap<Db, Map<string, Database.Statement>>();

/** `db.prepare(sql)`, compiled once per database and reused (the store runs the same SQL often). */
export function prepared(db: Db, sql: string): Database.Statement {
  let cache = statements.get(db);
  if (!cache) {
    cache = new Map();
    statements.set(db, cache);
  }
  let statement = cache.get(sql);
  if (!statement) {
    statement = db.prepare(sql);
    cache.set(sql, statement);
  }
  return statement;
}
