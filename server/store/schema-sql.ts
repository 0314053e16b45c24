/**
 * Schema text both stores' migrations share (server/store/sqlite/migrations.ts,
 * server/store/postgres/migrations.ts): where the dialects agree the SQL is written once here;
 * the few differences (how a lease's time is stored, identity columns) are passed in.
 * Migrations already shipped are built from these, so never change what they produce: a new
 * schema change is a new migration.
 */

export const API_KEYS_TABLE = `CREATE TABLE api_keys (
    id          TEXT PRIMARY KEY,
    key_hash    TEXT NOT NULL UNIQUE,
    key_prefix  TEXT NOT NULL,
    label       TEXT NOT NULL DEFAULT '',
    credits     INTEGER NOT NULL CHECK (credits >= 0),
    expires_at  TEXT,
    revoked_at  TEXT,
    created_at  TEXT NOT NULL
  );`;

/**
 * `single_tasks` and its index of pending tasks. `leaseUntil`: the SQL type of the lease's end,
 * or null for a table created without lease columns (they were added by a later migration).
 */
export function singleTasksTable(leaseUntil: string | null, pendingIndexColumn: string): string {
  const lease = leaseUntil === null ? '' : `\n    lease_owner TEXT,\n    lease_until ${leaseUntil},`;
  return `CREATE TABLE single_tasks (
    id          TEXT PRIMARY KEY,
    key_id      TEXT NOT NULL REFERENCES api_keys(id),
    email       TEXT NOT NULL,
    mode        TEXT NOT NULL,
    state       TEXT NOT NULL CHECK (state IN ('pending', 'completed')),
    result      TEXT,
    credits_refunded INTEGER NOT NULL DEFAULT 0,${lease}
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
  );
  CREATE INDEX single_tasks_pending ON single_tasks(${pendingIndexColumn}) WHERE state = 'pending';`;
}

/** `bulk_files` columns from `key_id` to `mode`. */
export const BULK_FILES_OWNER_COLUMNS = `key_id        TEXT NOT NULL REFERENCES api_keys(id),
    file_name     TEXT NOT NULL,
    state         TEXT NOT NULL CHECK (state IN ('pending', 'processing', 'completed', 'failed')),
    type          TEXT NOT NULL DEFAULT 'api',
    service_name  TEXT NOT NULL DEFAULT 'verify_email',
    mode          TEXT NOT NULL,`;

/** `bulk_files` columns from `email_index` to `rows_done`: where the rows are, credits, verdicts. */
export const BULK_FILES_COUNT_COLUMNS = `email_index   INTEGER NOT NULL,
    header_length INTEGER NOT NULL,
    credit_usage  INTEGER NOT NULL,
    credit_refund INTEGER NOT NULL DEFAULT 0,
    deliverable   INTEGER NOT NULL DEFAULT 0,
    undeliverable INTEGER NOT NULL DEFAULT 0,
    unknown       INTEGER NOT NULL DEFAULT 0,
    risky         INTEGER NOT NULL DEFAULT 0,
    rows_done     INTEGER NOT NULL DEFAULT 0,`;

/** `file_batches` and its index of open batches; `leaseUntil` is the SQL type of a lease's end. */
export function fileBatchesTable(leaseUntil: string): string {
  return `CREATE TABLE file_batches (
    file_id     TEXT NOT NULL REFERENCES bulk_files(id) ON DELETE CASCADE,
    file_seq    INTEGER NOT NULL,
    first_row   INTEGER NOT NULL,
    row_count   INTEGER NOT NULL,
    input       TEXT NOT NULL,
    state       TEXT NOT NULL CHECK (state IN ('open', 'done')),
    lease_owner TEXT,
    lease_until ${leaseUntil},
    attempts    INTEGER NOT NULL DEFAULT 0,
    output      TEXT,
    PRIMARY KEY (file_id, first_row)
  );
  CREATE INDEX file_batches_open ON file_batches(file_seq, first_row) WHERE state = 'open';`;
}

/**
 * The batches leased now, by the end of their lease (a claim counts each key's live leases by a
 * range on it), with the file each belongs to, so the count reads the index alone.
 */
export const FAIR_CLAIM_INDEX =
  "CREATE INDEX file_batches_leased ON file_batches(lease_until, file_seq) WHERE state = 'open';";

export const SETTINGS_TABLE = 'CREATE TABLE settings (name TEXT PRIMARY KEY, value TEXT NOT NULL);';

/**
 * The `bulk_files.state` values from migration 4 (SQLite) / 2 (Postgres) on: `receiving` is a file
 * whose upload is still arriving (its batches are stored as it streams), hidden from its owner and
 * from the workers until it is accepted (→ `pending`) or removed (refused, aborted, orphaned).
 */
export const BULK_FILE_STATES = "'receiving', 'pending', 'processing', 'completed', 'failed'";
