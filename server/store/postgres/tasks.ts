/**
 * Single tasks on Postgres: created with their credit, claimed with a lease, completed with their
 * refund, purged.
 */
import type { Mode } from '@verimark/contract';
import type { VerificationResult } from '../../engine/types';
import { newTaskRow } from '../new-rows';
import { nowIso, singleResult, type TaskRow, type TaskStore } from '../store';
import { giveCredits, takeCredits } from './keys';
import { inTransaction, leaseSql, type Pool } from './pool';

const COLUMNS = 'id, key_id, email, mode, state, result, credits_refunded, created_at, updated_at';
/** What a read returns: the inserted columns and the attempts counted by claims. */
const READ = `${COLUMNS}, attempts`;

/** Single tasks in Postgres; claimed with `FOR UPDATE SKIP LOCKED` and a lease. */
export class PgTaskStore implements TaskStore {
  constructor(private readonly pool: Pool) {}

  create(keyId: string, email: string, mode: Mode): Promise<TaskRow | null> {
    return inTransaction(this.pool, async (client) => {
      if (!(await takeCredits(client, keyId, 1))) return null;
      const now = nowIso();
      const row = newTaskRow(keyId, email, mode, now);
      await client.query(
        `INSERT INTO single_tasks (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [row.id, row.key_id, row.email, row.mode, row.state, row.result, 0, now, now],
      );
      return row;
    });
  }

  async get(keyId: string, id: string): Promise<TaskRow | null> {
    const { rows } = await this.pool.query<TaskRow>(
      `SELECT ${READ} FROM single_tasks WHERE id = $1 AND key_id = $2`,
      [id, keyId],
    );
    return rows[0] ?? null;
  }

  async claim(owner: string, leaseMs: number, limit: number, perKey: number): Promise<TaskRow[]> {
    if (limit <= 0) return [];
    // As the SQLite store: the next task to the key holding the fewest live leases (every
    // worker's, this claim's included), ties to the key with the oldest task; each key's oldest
    // first; at most perKey held by owner. The chosen rows are locked SKIP LOCKED: another
    // process claiming at once takes others.
    const { rows } = await this.pool.query<TaskRow>(
      `WITH live AS (
         SELECT key_id, count(*) AS n, count(*) FILTER (WHERE lease_owner = $1) AS mine FROM single_tasks
          WHERE state = 'pending' AND lease_until >= now()
          GROUP BY key_id),
       open AS (
         SELECT id, key_id,
                row_number() OVER (PARTITION BY key_id ORDER BY created_at, id) AS turn,
                min(created_at) OVER (PARTITION BY key_id) AS oldest
           FROM single_tasks
          WHERE state = 'pending' AND (lease_until IS NULL OR lease_until < now())),
       chosen AS (
         SELECT open.id FROM open LEFT JOIN live ON live.key_id = open.key_id
          WHERE open.turn + COALESCE(live.mine, 0) <= $4
          ORDER BY open.turn + COALESCE(live.n, 0), open.oldest, open.key_id, open.turn
          LIMIT $3),
       next AS (
         SELECT t.id FROM single_tasks t JOIN chosen ON chosen.id = t.id
          WHERE t.state = 'pending' AND (t.lease_until IS NULL OR t.lease_until < now())
          FOR UPDATE OF t SKIP LOCKED)
       UPDATE single_tasks t SET lease_owner = $1, lease_until = ${leaseSql(2)}, attempts = t.attempts + 1
         FROM next WHERE t.id = next.id
       RETURNING ${READ.split(', ')
         .map((c) => `t.${c}`)
         .join(', ')}`,
      [owner, leaseMs, limit, perKey],
    );
    return rows;
  }

  async complete(task: TaskRow, result: VerificationResult): Promise<void> {
    const now = nowIso();
    const { refund, json } = singleResult(task, result, now);
    await inTransaction(this.pool, async (client) => {
      const done = await client.query(
        `UPDATE single_tasks SET state = 'completed', result = $1, credits_refunded = $2, updated_at = $3,
             lease_owner = NULL, lease_until = NULL
           WHERE id = $4 AND state = 'pending'`,
        [json, refund, now, task.id],
      );
      if (done.rowCount === 1) await giveCredits(client, task.key_id, refund);
    });
  }

  async renew(ids: string[], owner: string, leaseMs: number): Promise<void> {
    if (ids.length === 0) return;
    await this.pool.query(
      `UPDATE single_tasks SET lease_until = ${leaseSql(3)}
         WHERE id = ANY($1::text[]) AND lease_owner = $2 AND state = 'pending'`,
      [ids, owner, leaseMs],
    );
  }

  async purge(before: string): Promise<number> {
    const result = await this.pool.query(
      "DELETE FROM single_tasks WHERE state = 'completed' AND updated_at < $1",
      [before],
    );
    return result.rowCount ?? 0;
  }

  async release(id: string, owner: string): Promise<void> {
    await this.pool.query(
      `UPDATE single_tasks SET lease_until = NULL, attempts = GREATEST(attempts - 1, 0)
        WHERE id = $1 AND lease_owner = $2 AND state = 'pending'`,
      [id, owner],
    );
  }
}
