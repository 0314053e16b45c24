/**
 * API keys on Postgres: created hashed, looked up, credited and debited without overdraft,
 * revoked.
 */
import { hashApiKey } from '../ids';
import { newKeyRecord } from '../new-rows';
import { type CreateKeyOptions, type KeyRecord, type KeyStore, nowIso } from '../store';
import type { Pool, Queryable } from './pool';

/** API keys in Postgres. */
export class PgKeyStore implements KeyStore {
  constructor(private readonly pool: Pool) {}

  async count(): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>('SELECT COUNT(*)::int AS n FROM api_keys');
    return rows[0]?.n ?? 0;
  }

  async create(opts: CreateKeyOptions): Promise<{ key: string; record: KeyRecord }> {
    const { key, record } = newKeyRecord(opts);
    await this.pool.query(
      `INSERT INTO api_keys (id, key_hash, key_prefix, label, credits, expires_at, revoked_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        record.id,
        hashApiKey(key),
        record.key_prefix,
        record.label,
        record.credits,
        record.expires_at,
        record.revoked_at,
        record.created_at,
      ],
    );
    return { key, record };
  }

  private async one(sql: string, params: unknown[]): Promise<KeyRecord | null> {
    const { rows } = await this.pool.query<KeyRecord>(sql, params);
    return rows[0] ?? null;
  }

  findByKey(key: string): Promise<KeyRecord | null> {
    return this.one('SELECT * FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL', [hashApiKey(key)]);
  }

  find(keyOrId: string): Promise<KeyRecord | null> {
    return this.one('SELECT * FROM api_keys WHERE key_hash = $1 OR id = $2', [hashApiKey(keyOrId), keyOrId]);
  }

  get(id: string): Promise<KeyRecord | null> {
    return this.one('SELECT * FROM api_keys WHERE id = $1', [id]);
  }

  async list(): Promise<KeyRecord[]> {
    return (await this.pool.query<KeyRecord>('SELECT * FROM api_keys ORDER BY created_at')).rows;
  }

  give(id: string, amount: number): Promise<void> {
    return giveCredits(this.pool, id, amount);
  }

  async revoke(id: string): Promise<boolean> {
    const result = await this.pool.query(
      'UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL',
      [nowIso(), id],
    );
    return result.rowCount === 1;
  }
}

/**
 * Takes `amount` credits if the balance allows; false otherwise. One conditional UPDATE: the
 * row lock it takes makes concurrent takers (any process) wait and re-check, so no overdraft.
 */
export async function takeCredits(db: Queryable, keyId: string, amount: number): Promise<boolean> {
  if (amount === 0) return true;
  const result = await db.query(
    'UPDATE api_keys SET credits = credits - $1 WHERE id = $2 AND credits >= $1',
    [amount, keyId],
  );
  return result.rowCount === 1;
}

export async function giveCredits(db: Queryable, keyId: string, amount: number): Promise<void> {
  if (amount === 0) return;
  await db.query('UPDATE api_keys SET credits = credits + $1 WHERE id = $2', [amount, keyId]);
}
