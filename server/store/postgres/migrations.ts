/**
 * The Postgres schema, applied in order; `verimark_migrations` records how many have run.
 * Append new entries, never edit old ones. Same tables and columns as the SQLite store, except
 * leases, which use the database's clock (timestamptz) so machines need not agree on the time.
 */
export const PG_MIGRATIONS: readonly string[] = [
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
    lease_owner TEXT,
    lease_until TIMESTAMPTZ,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
  );
  CREATE INDEX single_tasks_pending ON single_tasks(created_at) WHERE state = 'pending';

  CREATE TABLE bulk_files (
    seq           INTEGER GENERATED ALWAYS AS IDENTITY UNIQUE,
    id            TEXT PRIMARY KEY,
    key_id        TEXT NOT NULL REFERENCES api_keys(id),
    file_name     TEXT NOT NULL,
    state         TEXT NOT NULL CHECK (state IN ('pending', 'processing', 'completed', 'failed')),
    type          TEXT NOT NULL DEFAULT 'api',
    service_name  TEXT NOT NULL DEFAULT 'verify_email',
    mode          TEXT NOT NULL,
    email_index   INTEGER NOT NULL,
    header_length INTEGER NOT NULL,
    credit_usage  INTEGER NOT NULL,
    credit_refund INTEGER NOT NULL DEFAULT 0,
    deliverable   INTEGER NOT NULL DEFAULT 0,
    undeliverable INTEGER NOT NULL DEFAULT 0,
    unknown       INTEGER NOT NULL DEFAULT 0,
    risky         INTEGER NOT NULL DEFAULT 0,
    rows_done     INTEGER NOT NULL DEFAULT 0,
    batches_total INTEGER NOT NULL,
    batches_done  INTEGER NOT NULL DEFAULT 0,
    result_header TEXT NOT NULL,
    error         TEXT,
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL
  );
  CREATE INDEX bulk_files_key ON bulk_files(key_id, seq DESC);

  CREATE TABLE file_batches (
    file_id     TEXT NOT NULL REFERENCES bulk_files(id) ON DELETE CASCADE,
    file_seq    INTEGER NOT NULL,
    first_row   INTEGER NOT NULL,
    row_count   INTEGER NOT NULL,
    input       TEXT NOT NULL,
    state       TEXT NOT NULL CHECK (state IN ('open', 'done')),
    lease_owner TEXT,
    lease_until TIMESTAMPTZ,
    attempts    INTEGER NOT NULL DEFAULT 0,
    output      TEXT,
    PRIMARY KEY (file_id, first_row)
  );
  CREATE INDEX file_batches_open ON file_batches(file_seq, first_row) WHERE state = 'open';

  CREATE TABLE settings (name TEXT PRIMARY KEY, value TEXT NOT NULL);
  `,
];
