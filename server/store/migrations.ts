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
];
