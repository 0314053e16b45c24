import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS } from './migrations';

export type Db = Database.Database;

/** Page size of a new database (SQLite's largest; the default is 4 KiB). */
export const PAGE_SIZE = 65536;

/** Opens (creating if needed) `verimark.sqlite` under `dataDir` in WAL mode and migrates it. */
export function openDatabase(dataDir: string): Db {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(join(dataDir, 'verimark.sqlite'));
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
