/**
 * The Postgres schema as an append-only list of migrations.
 */
import * as sql from '../schema-sql';

/**
 * The Postgres schema, applied in order; `verimark_migrations` records how many have run.
 * Append new entries, never edit old ones. Same tables and columns as the SQLite store, except
 * leases, which use the database's clock (timestamptz) so machines need not agree on the time.
 */
export const PG_MIGRATIONS: readonly string[] = [
  `
  ${sql.API_KEYS_TABLE}

  ${sql.singleTasksTable('TIMESTAMPTZ', 'created_at')}

  CREATE TABLE bulk_files (
    seq           INTEGER GENERATED ALWAYS AS IDENTITY UNIQUE,
    id            TEXT PRIMARY KEY,
    ${sql.BULK_FILES_OWNER_COLUMNS}
    ${sql.BULK_FILES_COUNT_COLUMNS}
    batches_total INTEGER NOT NULL,
    batches_done  INTEGER NOT NULL DEFAULT 0,
    result_header TEXT NOT NULL,
    error         TEXT,
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL
  );
  CREATE INDEX bulk_files_key ON bulk_files(key_id, seq DESC);

  ${sql.fileBatchesTable('TIMESTAMPTZ')}

  ${sql.SETTINGS_TABLE}
  `,
  // 2: the hidden `receiving` state (an upload's batches are stored while it arrives) and the
  // process receiving it. The column's CHECK constraint carries Postgres' default name.
  `
  ALTER TABLE bulk_files DROP CONSTRAINT bulk_files_state_check;
  ALTER TABLE bulk_files ADD CONSTRAINT bulk_files_state_check CHECK (state IN (${sql.BULK_FILE_STATES}));
  ALTER TABLE bulk_files ADD COLUMN upload_owner TEXT;
  CREATE INDEX bulk_files_receiving ON bulk_files(created_at) WHERE state = 'receiving';
  `,
  // 3: attempts on single tasks, so a task that keeps crashing its worker ends unknown (refunded)
  // instead of being claimed forever.
  `
  ALTER TABLE single_tasks ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
  `,
];
