/**
 * API keys on SQLite: created hashed, looked up, credited and debited without overdraft, revoked.
 */
import { hashApiKey } from '../ids';
import { newKeyRecord } from '../new-rows';
import { type CreateKeyOptions, type KeyRecord, type KeyStore, nowIso } from '../store';
import type { Db } from './db';
import { prepared } from './db';

/** API keys in SQLite. */
export class SqliteKeyStore implements KeyStore {
  constructor(private readonly db: Db) {}

  async count(): Promise<number> {
    const row = prepared(this.db, 'SELECT COUNT(*) AS n FROM api_keys').get() as { n: number };
    return row.n;
  }

  async create(opts: CreateKeyOptions): Promise<{ key: string; record: KeyRecord }> {
    const { key, record } = newKeyRecord(opts);
    prepared(
      this.db,
      `INSERT INTO api_keys (id, key_hash, key_prefix, label, credits, expires_at, revoked_at, created_at)
         VALUES (@id, @key_hash, @key_prefix, @label, @credits, @expires_at, @revoked_at, @created_at)`,
    ).run({ ...record, key_hash: hashApiKey(key) });
    return { key, record };
  }

  async findByKey(key: string): Promise<KeyRecord | null> {
    const row = prepared(this.db, 'SELECT * FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL').get(
      hashApiKey(key),
    ) as KeyRecord | undefined;
    return row ?? null;
  }

  async find(keyOrId: string): Promise<KeyRecord | null> {
    const row = prepared(this.db, 'SELECT * FROM api_keys WHERE key_hash = ? OR id = ?').get(
      hashApiKey(keyOrId),
      keyOrId,
    ) as KeyRecord | undefined;
    return row ?? null;
  }

  async get(id: string): Promise<KeyRecord | null> {
    return (
      (prepared(this.db, 'SELECT * FROM api_keys WHERE id = ?').get(id) as KeyRecord | undefined) ?? null
    );
  }

  async list(): Promise<KeyRecord[]> {
    return prepared(this.db, 'SELECT * FROM api_keys ORDER BY created_at').all() as KeyRecord[];
  }

  async give(id: string, amount: number): Promise<void> {
    giveCredits(this.db, id, amount);
  }

  async revoke(id: string): Promise<boolean> {
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
