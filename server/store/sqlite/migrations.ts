/**
 * Schema migrations, applied in order; `PRAGMA user_version` records how many have run.
 * Append new entries, never edit old ones.
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE api_keys (
    id          TEXT PRIMARY KEY,
    key_hash    TEXT NOT NULL UNIQUE,
    key_prefix  TEXT NOT NULL,
    label       TEXT NOT NULL DEFAULT '',
    credits     INTEGER NOT NULL CHECK (credits >= 0),
    expires_at  TEXT,
    revoked_at  TEXT,
    created_at  TEXT NOT NULL
  );

  CREATE TABLE single_tasks (
    id          TEXT PRIMARY KEY,
    key_id      TEXT NOT NULL REFERENCES api_keys(id),
    email       TEXT NOT NULL,
    mode        TEXT NOT NULL,
    state       TEXT NOT NULL CHECK (state IN ('pending', 'completed')),
    result      TEXT,
    credits_refunded INTEGER NOT NULL DEFAULT 0,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
  );
  CREATE INDEX single_tasks_pending ON single_tasks(state) WHERE state = 'pending';

  CREATE TABLE bulk_files (
    seq           INTEGER PRIMARY KEY AUTOINCREMENT,
    id            TEXT NOT NULL UNIQUE,
    key_id        TEXT NOT NULL REFERENCES api_keys(id),
    file_name     TEXT NOT NULL,
    state         TEXT NOT NULL CHECK (state IN ('pending', 'processing', 'completed', 'failed')),
    type          TEXT NOT NULL DEFAULT 'api',
    service_name  TEXT NOT NULL DEFAULT 'verify_email',
    mode          TEXT NOT NULL,
    delimiter     TEXT NOT NULL,
    newline       TEXT NOT NULL,
    email_index   INTEGER NOT NULL,
    header_length INTEGER NOT NULL,
    credit_usage  INTEGER NOT NULL,
    credit_refund INTEGER NOT NULL DEFAULT 0,
    deliverable   INTEGER NOT NULL DEFAULT 0,
    undeliverable INTEGER NOT NULL DEFAULT 0,
    unknown       INTEGER NOT NULL DEFAULT 0,
    risky         INTEGER NOT NULL DEFAULT 0,
    rows_done     INTEGER NOT NULL DEFAULT 0,
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

  CREATE TABLE file_batches (
    file_id     TEXT NOT NULL REFERENCES bulk_files(id) ON DELETE CASCADE,
    file_seq    INTEGER NOT NULL,
    first_row   INTEGER NOT NULL,
    row_count   INTEGER NOT NULL,
    input       TEXT NOT NULL,
    state       TEXT NOT NULL CHECK (state IN ('open', 'done')),
    lease_owner TEXT,
    lease_until INTEGER,
    attempts    INTEGER NOT NULL DEFAULT 0,
    output      TEXT,
    PRIMARY KEY (file_id, first_row)
  );
  CREATE INDEX file_batches_open ON file_batches(file_seq, first_row) WHERE state = 'open';

  CREATE TABLE settings (name TEXT PRIMARY KEY, value TEXT NOT NULL);

  UPDATE api_keys SET credits = credits + (
    SELECT COALESCE(SUM(f.credit_usage - f.credit_refund), 0) FROM bulk_files f
     WHERE f.key_id = api_keys.id AND f.state IN ('pending', 'processing'));
  UPDATE bulk_files SET state = 'failed', credit_refund = credit_usage,
      error = 'interrupted by a service upgrade; credits refunded, please upload again'
    WHERE state IN ('pending', 'processing');
  `,
];
