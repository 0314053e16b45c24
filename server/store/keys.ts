import type { Db } from './db';
import { nowIso, prepared } from './db';
import { hashApiKey, newApiKey, newId } from './ids';

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
export class KeyStore {
  constructor(private readonly db: Db) {}

  count(): number {
    const row = prepared(this.db, 'SELECT COUNT(*) AS n FROM api_keys').get() as { n: number };
    return row.n;
  }

  create(opts: CreateKeyOptions): { key: string; record: KeyRecord } {
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
    prepared(
      this.db,
      `INSERT INTO api_keys (id, key_hash, key_prefix, label, credits, expires_at, revoked_at, created_at)
         VALUES (@id, @key_hash, @key_prefix, @label, @credits, @expires_at, @revoked_at, @created_at)`,
    ).run({ ...record, key_hash: hashApiKey(key) });
    return { key, record };
  }

  /** The live (not revoked) key record for a presented key, or null. */
  findByKey(key: string): KeyRecord | null {
    const row = prepared(this.db, 'SELECT * FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL').get(
      hashApiKey(key),
    ) as KeyRecord | undefined;
    return row ?? null;
  }

  /** Looks a key up (revoked ones too) by the key itself or by its id. */
  find(keyOrId: string): KeyRecord | null {
    const row = prepared(this.db, 'SELECT * FROM api_keys WHERE key_hash = ? OR id = ?').get(
      hashApiKey(keyOrId),
      keyOrId,
    ) as KeyRecord | undefined;
    return row ?? null;
  }

  get(id: string): KeyRecord | null {
    return (
      (prepared(this.db, 'SELECT * FROM api_keys WHERE id = ?').get(id) as KeyRecord | undefined) ?? null
    );
  }

  list(): KeyRecord[] {
    return prepared(this.db, 'SELECT * FROM api_keys ORDER BY created_at').all() as KeyRecord[];
  }

  give(id: string, amount: number): void {
    giveCredits(this.db, id, amount);
  }

  revoke(id: string): boolean {
    const result = prepared(
      this.db,
      'UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL',
    ).run(nowIso(), id);
    return result.changes === 1;
  }
}

/**
 * Takes `amount` credits from key `keyId` if its balance allows; false otherwise. A single
 * conditional UPDATE, so concurrent callers (other requests, other processes) can never overdraw
 * or double-spend; the task and file stores call it inside their transactions.
 */
export function takeCredits(db: Db, keyId: string, amount: number): boolean {
  if (amount === 0) return true;
  const result = prepared(db, 'UPDATE api_keys SET credits = credits - ? WHERE id = ? AND credits >= ?').run(
    amount,
    keyId,
    amount,
  );
  return result.changes === 1;
}

/** Gives `amount` credits (back) to key `keyId`. */
export function giveCredits(db: Db, keyId: string, amount: number): void {
  if (amount === 0) return;
  prepared(db, 'UPDATE api_keys SET credits = credits + ? WHERE id = ?').run(amount, keyId);
}

export function isExpired(record: KeyRecord, now = Date.now()): boolean {
  return record.expires_at !== null && Date.parse(record.expires_at) <= now;
}
