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
  // 4: batches handed out in turns between keys (server/store/postgres/batches.ts): when a file
  // was last served (database clock), the files with work and the batches leased now, each found
  // without reading the open batches.
  `
  ALTER TABLE bulk_files ADD COLUMN served_at TIMESTAMPTZ;
  CREATE INDEX bulk_files_open ON bulk_files(state) WHERE state IN ('pending', 'processing');
  ${sql.FAIR_CLAIM_INDEX}
  `,
  // 5: the deferred queue: a batch some of whose rows wait to be tried again (greylisting, a
  // connection limit) keeps what was decided (partial) and is not claimed before not_before.
  `
  ALTER TABLE file_batches ADD COLUMN partial TEXT;
  ALTER TABLE file_batches ADD COLUMN not_before TIMESTAMPTZ;
  `,
  // 6: address memory: addresses met with greylisting, verified again after the window, and the
  // verdict found then (server/jobs/revisits.ts).
  `
  CREATE TABLE address_memory (
    email       TEXT NOT NULL,
    mode        TEXT NOT NULL,
    due_at      TIMESTAMPTZ,
    tries       INTEGER NOT NULL DEFAULT 0,
    lease_owner TEXT,
    lease_until TIMESTAMPTZ,
    result      TEXT,
    decided_at  TIMESTAMPTZ,
    PRIMARY KEY (email, mode)
  );
  CREATE INDEX address_memory_due ON address_memory(due_at) WHERE due_at IS NOT NULL;
  `,
];
