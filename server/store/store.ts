/**
 * The service's one store interface: API keys, single tasks, bulk files and their row batches.
 * Two implementations: SQLite (server/store/sqlite, the default, no setup) and Postgres
 * (server/store/postgres, `DATABASE_URL=postgres://…`), chosen by server/store/open.ts.
 * Every method is async so the route and worker code is the same for both.
 */
import type { Mode, ServerFileRecord, Verdict } from '@verimark/contract';
import type { HostSlots } from '../engine/limits';
import type { VerificationResult } from '../engine/types';

/** Work waiting or running, read from the database (for /metrics, at each scrape). */
export interface QueueDepth {
  files: { pending: number; processing: number };
  tasks: { pending: number };
}

export interface KeyRecord {
  id: string;
  key_prefix: string;
  label: string;
  credits: number;
  expires_at: string | null;
  revoked_at: string | null;
  created_at: string;
}

export interface CreateKeyOptions {
  credits: number;
  expiresAt?: string | null;
  label?: string;
}

/** API keys, their credits and subscription expiry. Only the key's hash is stored. */
export interface KeyStore {
  count(): Promise<number>;
  create(opts: CreateKeyOptions): Promise<{ key: string; record: KeyRecord }>;
  /** The live (not revoked) key record for a presented key, or null. */
  findByKey(key: string): Promise<KeyRecord | null>;
  /** Looks a key up (revoked ones too) by the key itself or by its id. */
  find(keyOrId: string): Promise<KeyRecord | null>;
  get(id: string): Promise<KeyRecord | null>;
  list(): Promise<KeyRecord[]>;
  give(id: string, amount: number): Promise<void>;
  revoke(id: string): Promise<boolean>;
}

export interface TaskRow {
  id: string;
  key_id: string;
  email: string;
  mode: Mode;
  state: 'pending' | 'completed';
  result: string | null;
  credits_refunded: number;
  /** Times a worker claimed it, this claim included (a worker that stopped gracefully gives its claim back). */
  attempts: number;
  created_at: string;
  updated_at: string;
}

/** Durable single-email tasks. One credit is taken when the task is created. */
export interface TaskStore {
  /** Takes one credit and inserts the task in one transaction; null when the balance is short. */
  create(keyId: string, email: string, mode: Mode): Promise<TaskRow | null>;
  /** A task of this key, or null (another key's task is reported as absent). */
  get(keyId: string, id: string): Promise<TaskRow | null>;
  /**
   * Claims up to `limit` pending tasks nobody holds a live lease on, counting an attempt on each.
   * Fair between keys: each next task goes to the key holding the fewest live leases (every
   * worker's, the tasks of this claim included), ties to the key whose oldest task is oldest;
   * each key's oldest first; and no key gets more than `perKey` tasks held by `owner` at once.
   */
  claim(owner: string, leaseMs: number, limit: number, perKey: number): Promise<TaskRow[]>;
  /** Stores the result and refunds an `unknown` verdict's credit, once (a second call is a no-op). */
  complete(task: TaskRow, result: VerificationResult): Promise<void>;
  /** Extends the leases `owner` still holds on these tasks. */
  renew(ids: string[], owner: string, leaseMs: number): Promise<void>;
  /** Gives up the lease on a task not completed (a stopping worker); the claim's attempt is given back. */
  release(id: string, owner: string): Promise<void>;
  /** Deletes the completed tasks last updated before `before` (ISO); how many (RETENTION_DAYS). */
  purge(before: string): Promise<number>;
}

export interface FileRow {
  seq: number;
  id: string;
  key_id: string;
  file_name: string;
  state: ServerFileRecord['state'];
  type: 'api' | 'website';
  service_name: string;
  mode: Mode;
  email_index: number;
  header_length: number;
  credit_usage: number;
  credit_refund: number;
  deliverable: number;
  undeliverable: number;
  unknown: number;
  risky: number;
  rows_done: number;
  batches_total: number;
  batches_done: number;
  result_header: string;
  error: string | null;
  created_at: string;
  updated_at: string;
}

/** A file whose upload has begun: inserted `receiving`, hidden until accepted. */
export interface ReceivingFile {
  id: string;
  keyId: string;
  /** The process receiving it (PROCESS_OWNER, server/store/ids.ts), so start-up cleanup can tell it is gone. */
  owner: string;
}

/** What the end of an upload tells about its file, stored when it is accepted. */
export interface NewFile {
  fileName: string;
  mode: Mode;
  emailIndex: number;
  headerLength: number;
  credits: number;
  /** The first line of the result CSV (the upload's header and the result columns). */
  resultHeader: string;
  /** Batches stored while it arrived (checked against the database). */
  batchesTotal: number;
}

/** A file still `receiving`, as start-up cleanup sees it. */
export interface ReceivingRow {
  id: string;
  upload_owner: string | null;
  created_at: string;
}

/** A slice of a file's data rows, verified and committed as one unit. */
export interface NewBatch {
  /** Index of the batch's first data row (0 = the row after the header). */
  firstRow: number;
  rowCount: number;
  /** The rows' cells as JSON (`string[][]`), serialised as the upload is read to keep memory low. */
  input: string;
}

export type VerdictCounts = Record<Verdict, number>;

/** Durable bulk files. Credits are taken at upload and refunded at completion or failure. */
/** One page of a key's files and how many match in all. */
export interface FilePage {
  rows: FileRow[];
  total: number;
}

export interface FileStore {
  /**
   * Inserts a file in the hidden `receiving` state, taking no credits; its `seq`. Its batches are
   * added while the upload arrives; nothing reads, lists or claims it until accept().
   */
  receive(f: ReceivingFile): Promise<number>;
  /**
   * Stores batches of a receiving file (`seq` as receive() returned it). Should it fail part-way,
   * the upload fails and the file is discarded with what was stored; accept() counts the batches.
   */
  addBatches(id: string, seq: number, batches: readonly NewBatch[]): Promise<void>;
  /**
   * In one small transaction: takes the credits and makes the receiving file `pending` (its
   * batches are all stored). Null when the balance is short (nothing changes: discard it then).
   * Throws when the file is no longer receiving (removed as orphaned) or its batches do not match.
   */
  accept(id: string, f: NewFile): Promise<FileRow | null>;
  /** Deletes a file that is still `receiving`, with its batches (a refused or broken upload). */
  discard(id: string): Promise<void>;
  /** Every file still `receiving` (for start-up cleanup, server/app/receiving-cleanup.ts). */
  receiving(): Promise<ReceivingRow[]>;
  /** The file, or null; a `receiving` file is absent here, in get() and in list(). */
  getById(id: string): Promise<FileRow | null>;
  /** A file of this key, or null (another key's file is reported as absent). */
  get(keyId: string, id: string): Promise<FileRow | null>;
  /** Newest first; `search` is a literal, case-insensitive substring of the file name. */
  list(keyId: string, page: number, pageSize: number, search: string): Promise<FilePage>;
  /**
   * Fails the file, drops its batches not yet verified (their uploaded rows) and refunds every
   * credit not yet refunded, once. Results already committed are kept.
   */
  fail(id: string, error: string): Promise<void>;
  /**
   * Deletes a file (not one still `receiving`) with its rows and results at once; `keyId`: only
   * if it is that key's (null: any key's, for the admin). A file deleted before it finished
   * refunds what completing it would have: its rows not verified yet and its unknowns. False
   * when there is no such file.
   */
  delete(id: string, keyId: string | null): Promise<boolean>;
  /**
   * Deletes the completed and failed files last updated before `before` (ISO) with their rows
   * and results; their ids (RETENTION_DAYS).
   */
  purge(before: string): Promise<string[]>;
  /** The result CSV of a completed file, a batch at a time, in row order (header first). */
  resultChunks(id: string): AsyncIterable<string>;
}

/** A claimed batch and what the worker needs of its file. */
export interface ClaimedBatch {
  fileId: string;
  firstRow: number;
  rows: string[][];
  /** Times this batch was claimed, this claim included. */
  attempts: number;
  mode: Mode;
  emailIndex: number;
  headerLength: number;
  /**
   * What earlier passes over a deferred batch decided, row by row (server/jobs/deferral.ts): the
   * JSON the worker stored with defer(), or null for a batch claimed for the first time.
   */
  partial: string | null;
}

/** A batch verified in part: some rows wait to be tried again (greylisting, a connection limit). */
export interface BatchDeferred {
  fileId: string;
  firstRow: number;
  /** The lease holder deferring it. */
  owner: string;
  /** The rows' results so far and what is still to try (JSON, server/jobs/deferral.ts). */
  partial: string;
  /** Not claimed again before this many milliseconds from now. */
  delayMs: number;
}

/** A verified batch, committed by the worker that leased it. */
export interface BatchDone {
  fileId: string;
  firstRow: number;
  /** The lease holder committing it. */
  owner: string;
  /** The batch's result CSV lines. */
  output: string;
  counts: VerdictCounts;
}

/** The work queue of bulk files: batches claimed with an expiring, renewable lease. */
export interface BatchQueue {
  /**
   * The next open batch nobody holds a live lease on, leased to `owner`; null when none. Keys in
   * turn: the key holding the fewest live leases (all workers), ties to the key served longest
   * ago, then its oldest file's next batch (docs/design.md §4, "Fair between keys").
   * `maxKeyLeases` (default no limit): only a key holding at most that many live leases — 0 for
   * a key nobody serves, which a worker whose hands are full still takes.
   */
  claim(owner: string, leaseMs: number, maxKeyLeases?: number): Promise<ClaimedBatch | null>;
  /** Extends a lease still held; false when it was lost (expired and taken by another worker). */
  renew(fileId: string, firstRow: number, owner: string, leaseMs: number): Promise<boolean>;
  /**
   * In one transaction, if `owner` still holds the batch: stores its result lines, marks it done,
   * adds its verdicts to the file, and completes the file (refunding its unknowns) after its last
   * batch. False when the lease was lost: then nothing is written, so no row counts twice.
   */
  commit(done: BatchDone): Promise<boolean>;
  /**
   * If `owner` still holds the batch: stores its partial results, gives up the lease and keeps
   * the batch from being claimed for `delayMs` (the deferred queue; it survives restarts). The
   * claim does not count as an attempt. False when the lease was lost: nothing is written.
   */
  defer(deferred: BatchDeferred): Promise<boolean>;
  /**
   * Gives a batch back at once (a stopping worker), for another worker to take. The claim it
   * gives back does not count as an attempt: graceful restarts never fail a file.
   */
  release(fileId: string, firstRow: number, owner: string): Promise<void>;
}

/** An address the service will verify again, on its own, once a greylisting window has passed. */
export interface Revisit {
  email: string;
  mode: Mode;
  /** Times it was tried again already. */
  tries: number;
}

/**
 * What the service learned about addresses it could not decide at once (server/jobs/revisits.ts):
 * a single check that met greylisting is remembered and tried again after the window, and the
 * verdict found then answers the next check of the address, single or bulk.
 */
export interface AddressMemory {
  /** Remembers to verify the address again in `dueInMs` (kept as is when already remembered). */
  remember(email: string, mode: Mode, dueInMs: number): Promise<void>;
  /** Leases up to `limit` due revisits to `owner`. */
  claimDue(owner: string, leaseMs: number, limit: number): Promise<Revisit[]>;
  /** Stores a revisit's verdict (decided), or puts it off again by `retryInMs`, or forgets it (null, null). */
  settle(revisit: Revisit, result: VerificationResult | null, retryInMs: number | null): Promise<void>;
  /** Verdicts found by revisits of these addresses in this mode within the last `maxAgeMs`. */
  recall(emails: readonly string[], mode: Mode, maxAgeMs: number): Promise<Map<string, VerificationResult>>;
  /** Forgets verdicts older than `maxAgeMs` and revisits whose address is no longer wanted. */
  sweep(maxAgeMs: number): Promise<number>;
}

export interface Store {
  readonly kind: 'sqlite' | 'postgres';
  readonly keys: KeyStore;
  readonly tasks: TaskStore;
  readonly files: FileStore;
  readonly batches: BatchQueue;
  readonly memory: AddressMemory;
  /**
   * Per-MX-host slots shared by every process on this database (Postgres: advisory locks;
   * SQLite: a slot table), or null for the engine's in-process limit alone.
   */
  readonly hostSlots: HostSlots | null;
  /** Unfinished work, for /metrics. */
  queueDepth(): Promise<QueueDepth>;
  /** Throws when the database does not answer (for /healthz). */
  ping(): Promise<void>;
  /**
   * An online backup of the live rows to a new file at `path`, created 0600, while the service
   * runs (SQLite: VACUUM INTO, so nothing deleted comes along and other processes' writes do not
   * hold it back). Postgres throws BackupUnsupportedError: back it up with pg_dump.
   */
  backup(path: string): Promise<void>;
  /**
   * Called after rows were deleted: leaves nothing of them readable in the database's files
   * (SQLite: deletes already zero their bytes; the write-ahead log that still holds the pages as
   * they were is checkpointed and truncated). Postgres: nothing here; dead rows stay in the
   * table's files until VACUUM (docs/self-hosting.md, Retention and deletion).
   */
  eraseDeleted(): Promise<void>;
  /** SIGNING_SECRET, else one generated once and shared by every process of this store. */
  signingSecret(configured: string | null): Promise<string>;
  close(): Promise<void>;
}

/** A store that has no backup command of its own (Postgres: pg_dump does it). */
export class BackupUnsupportedError extends Error {}

export function isExpired(record: KeyRecord, now = Date.now()): boolean {
  return record.expires_at !== null && Date.parse(record.expires_at) <= now;
}

/**
 * What a file deleted before it finished gives back: the credits of its rows not verified yet
 * and of its unknowns (refunded at completion otherwise). Nothing for a finished file.
 */
export function deleteRefund(row: Pick<FileRow, 'state' | 'credit_usage' | 'rows_done' | 'unknown'>): number {
  if (row.state !== 'pending' && row.state !== 'processing') return 0;
  return Math.max(0, row.credit_usage - row.rows_done + row.unknown);
}

export function nowIso(): string {
  return new Date().toISOString();
}

/** The record of spec §2.4. */
export function toFileRecord(row: FileRow): ServerFileRecord {
  return {
    _id: row.id,
    file_name: row.file_name,
    state: row.state,
    type: row.type,
    service_name: row.service_name,
    options: { credit_usage: row.credit_usage, credit_refund: row.credit_refund },
    meta_data: {
      deliverable: row.deliverable,
      undeliverable: row.undeliverable,
      unknown: row.unknown,
      risky: row.risky,
    },
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The stored JSON of a completed single task. */
export function singleResult(task: TaskRow, result: VerificationResult, now: string) {
  const refund = result.status === 'unknown' ? 1 : 0;
  return {
    refund,
    json: JSON.stringify({
      task_id: task.id,
      processing_status: 'completed',
      email: result.email,
      status: result.status,
      reason: result.reason,
      mode: task.mode,
      provider: result.provider ?? null,
      checks: result.checks,
      mx_host: result.mx_host,
      suggestion: result.suggestion,
      credits_used: 1,
      credits_refunded: refund,
      verified_at: now,
    }),
  };
}
