/** Rows as both stores (SQLite, Postgres) insert them: built once here, written in each dialect. */
import type { Mode } from '@verimark/contract';
import { newApiKey, newId } from './ids';
import { type CreateKeyOptions, type KeyRecord, type NewFile, nowIso, type TaskRow } from './store';

/** A new key and its record (the key itself is stored only as its hash). */
export function newKeyRecord(opts: CreateKeyOptions): { key: string; record: KeyRecord } {
  const key = newApiKey();
  const record: KeyRecord = {
    id: newId(),
    key_prefix: key.slice(0, 12),
    label: opts.label ?? '',
    credits: opts.credits,
    expires_at: opts.expiresAt ?? null,
    revoked_at: null,
    created_at: nowIso(),
  };
  return { key, record };
}

/** A pending single task created at `now`. */
export function newTaskRow(keyId: string, email: string, mode: Mode, now: string): TaskRow {
  return {
    id: newId(),
    key_id: keyId,
    email,
    mode,
    state: 'pending',
    result: null,
    credits_refunded: 0,
    created_at: now,
    updated_at: now,
  };
}

/**
 * Values set on a receiving `bulk_files` row when it is accepted, in this order: file_name, state,
 * mode, email_index, header_length, credit_usage, batches_total, result_header, created_at (also
 * its updated_at). A file without batches is complete at once.
 */
export function acceptedFileValues(
  f: NewFile,
  now: string,
): [string, string, Mode, number, number, number, number, string, string] {
  return [
    f.fileName,
    f.batchesTotal === 0 ? 'completed' : 'pending',
    f.mode,
    f.emailIndex,
    f.headerLength,
    f.credits,
    f.batchesTotal,
    f.resultHeader,
    now,
  ];
}
