/**
 * The SQLite schema as an append-only list of migrations (PRAGMA user_version counts those
 * applied).
 */
import * as sql from '../schema-sql';

/**
 * Schema migrations, applied in order; `PRAGMA user_version` records how many have run.
 * Append new entries, never edit old ones.
 */
export const MIGRATIONS: readonly string[] = [
  `
  ${sql.API_KEYS_TABLE}

  ${sql.singleTasksTable(null, 'state')}

  CREATE TABLE bulk_files (
    seq           INTEGER PRIMARY KEY AUTOINCREMENT,
    id            TEXT NOT NULL UNIQUE,
    ${sql.BULK_FILES_OWNER_COLUMNS}
    delimiter     TEXT NOT NULL,
    newline       TEXT NOT NULL,
    ${sql.BULK_FILES_COUNT_COLUMNS}
    out_bytes     INTEGER NOT NULL DEFAULT 0,
    attempts      INTEGER NOT NULL DEFAULT 0,
    error         TEXT,
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL
  );
  CREATE INDEX bulk_files_key ON bulk_files(key_id, seq DESC);
  CREATE INDEX bulk_files_open ON bulk_files(state) WHERE state IN ('pending', 'processing');
  `,
  // 2: batches any worker process can claim (with a lease), results kept in the database,
  // leases on single tasks, and settings shared by every process (the signing secret).
  // Files left open by the previous version (their rows on disk, not in batches) are failed
  // and refunded in full: the new workers only process batches.
  `
  ALTER TABLE single_tasks ADD COLUMN lease_owner TEXT;
  ALTER TABLE single_tasks ADD COLUMN lease_until INTEGER;
  ALTER TABLE bulk_files ADD COLUMN batches_total INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE bulk_files ADD COLUMN batches_done INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE bulk_files ADD COLUMN result_header TEXT NOT NULL DEFAULT '';

  ${sql.fileBatchesTable('INTEGER')}

  ${sql.SETTINGS_TABLE}

  UPDATE api_keys SET credits = credits + (
    SELECT COALESCE(SUM(f.credit_usage - f.credit_refund), 0) FROM bulk_files f
     WHERE f.key_id = api_keys.id AND f.state IN ('pending', 'processing'));
  UPDATE bulk_files SET state = 'failed', credit_refund = credit_usage,
      error = 'interrupted by a service upgrade; credits refunded, please upload again'
    WHERE state IN ('pending', 'processing');
  `,
  // 3: per-MX-host slots shared by every process on this file (server/store/sqlite/host-slots.ts);
  // Postgres keeps them as advisory locks instead.
  `
  CREATE TABLE host_slots (
    host        TEXT NOT NULL,
    slot        INTEGER NOT NULL,
    owner       TEXT NOT NULL,
    lease_until INTEGER NOT NULL,
    PRIMARY KEY (host, slot)
  ) WITHOUT ROWID;
  CREATE INDEX host_slots_owner ON host_slots(owner);
  `,
  // 4: the hidden `receiving` state (an upload's batches are stored while it arrives) and the
  // process receiving it. SQLite cannot alter a CHECK constraint, so bulk_files is rebuilt
  // (its rows only — batches stay where they are; migrate() runs this with foreign keys off, so
  // the DROP does not cascade to file_batches). The AUTOINCREMENT counter is carried over.
  `
  CREATE TABLE bulk_files_v4 (
    seq           INTEGER PRIMARY KEY AUTOINCREMENT,
    id            TEXT NOT NULL UNIQUE,
    key_id        TEXT NOT NULL REFERENCES api_keys(id),
    file_name     TEXT NOT NULL,
    state         TEXT NOT NULL CHECK (state IN (${sql.BULK_FILE_STATES})),
    type          TEXT NOT NULL DEFAULT 'api',
    service_name  TEXT NOT NULL DEFAULT 'verify_email',
    mode          TEXT NOT NULL,
    delimiter     TEXT NOT NULL,
    newline       TEXT NOT NULL,
    ${sql.BULK_FILES_COUNT_COLUMNS}
    out_bytes     INTEGER NOT NULL DEFAULT 0,
    attempts      INTEGER NOT NULL DEFAULT 0,
    error         TEXT,
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL,
    batches_total INTEGER NOT NULL DEFAULT 0,
    batches_done  INTEGER NOT NULL DEFAULT 0,
    result_header TEXT NOT NULL DEFAULT '',
    upload_owner  TEXT
  );
  INSERT INTO bulk_files_v4 (seq, id, key_id, file_name, state, type, service_name, mode, delimiter,
      newline, email_index, header_length, credit_usage, credit_refund, deliverable, undeliverable,
      unknown, risky, rows_done, out_bytes, attempts, error, created_at, updated_at, batches_total,
      batches_done, result_header)
    SELECT seq, id, key_id, file_name, state, type, service_name, mode, delimiter,
      newline, email_index, header_length, credit_usage, credit_refund, deliverable, undeliverable,
      unknown, risky, rows_done, out_bytes, attempts, error, created_at, updated_at, batches_total,
      batches_done, result_header
    FROM bulk_files;
  DELETE FROM sqlite_sequence WHERE name = 'bulk_files_v4';
  UPDATE sqlite_sequence SET name = 'bulk_files_v4' WHERE name = 'bulk_files';
  DROP TABLE bulk_files;
  ALTER TABLE bulk_files_v4 RENAME TO bulk_files;
  CREATE INDEX bulk_files_key ON bulk_files(key_id, seq DESC);
  CREATE INDEX bulk_files_open ON bulk_files(state) WHERE state IN ('pending', 'processing');
  CREATE INDEX bulk_files_receiving ON bulk_files(created_at) WHERE state = 'receiving';
  `,
  // 5: attempts on single tasks, so a task that keeps crashing its worker ends unknown (refunded)
  // instead of being claimed forever.
  `
  ALTER TABLE single_tasks ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
  `,
  // 6: batches handed out in turns between keys (server/store/sqlite/batches.ts): when a file
  // was last served, and the batches leased now found without reading the open ones.
  `
  ALTER TABLE bulk_files ADD COLUMN served_at INTEGER;
  ${sql.FAIR_CLAIM_INDEX}
  `,
  // 7: the deferred queue: a batch some of whose rows wait to be tried again (greylisting, a
  // connection limit) keeps what was decided (partial) and is not claimed before not_before.
  `
  ALTER TABLE file_batches ADD COLUMN partial TEXT;
  ALTER TABLE file_batches ADD COLUMN not_before INTEGER;
  `,
  // 8: address memory: addresses met with greylisting, verified again after the window, and the
  // verdict found then (server/jobs/revisits.ts).
  `
  CREATE TABLE address_memory (
    email       TEXT NOT NULL,
    mode        TEXT NOT NULL,
    due_at      INTEGER,
    tries       INTEGER NOT NULL DEFAULT 0,
    lease_owner TEXT,
    lease_until INTEGER,
    result      TEXT,
    decided_at  INTEGER,
    PRIMARY KEY (email, mode)
  );
  CREATE INDEX address_memory_due ON address_memory(due_at) WHERE due_at IS NOT NULL;
  `,
];
