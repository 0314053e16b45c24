/**
 * Single tasks on SQLite: created with their credit, claimed with a lease, completed with their
 * refund, purged.
 */
import type { Mode } from '@verimark/contract';
import type { VerificationResult } from '../../engine/types';
import { newTaskRow } from '../new-rows';
import { nowIso, singleResult, type TaskRow, type TaskStore } from '../store';
import type { Db } from './db';
import { prepared } from './db';
import { giveCredits, takeCredits } from './keys';

/** Single tasks in SQLite; a claim is a lease (owner, until) on a pending row. */
export class SqliteTaskStore implements TaskStore {
  constructor(private readonly db: Db) {}

  async create(keyId: string, email: string, mode: Mode): Promise<TaskRow | null> {
    return this.db
      .transaction((): TaskRow | null => {
        if (!takeCredits(this.db, keyId, 1)) return null;
        const now = nowIso();
        const row = newTaskRow(keyId, email, mode, now);
        prepared(
          this.db,
          `INSERT INTO single_tasks (id, key_id, email, mode, state, result, credits_refunded, created_at, updated_at)
             VALUES (@id, @key_id, @email, @mode, @state, @result, @credits_refunded, @created_at, @updated_at)`,
        ).run(row);
        return row;
      })
      .immediate();
  }

  async get(keyId: string, id: string): Promise<TaskRow | null> {
    const row = prepared(this.db, 'SELECT * FROM single_tasks WHERE id = ? AND key_id = ?').get(id, keyId);
    return (row as TaskRow | undefined) ?? null;
  }

  async claim(owner: string, leaseMs: number, limit: number, perKey: number): Promise<TaskRow[]> {
    if (limit <= 0) return [];
    return this.db
      .transaction((): TaskRow[] => {
        const now = Date.now();
        // Each key's open tasks in order (turn 1 = its oldest). The next task goes to the key
        // holding the fewest live leases, every worker's, counting the ones this claim hands out
        // (so a claim of several takes keys in turn); ties to the key whose oldest task is oldest.
        // A key already holding perKey tasks of this owner gets none.
        const ids = prepared(
          this.db,
          `WITH live AS (
             SELECT key_id, COUNT(*) AS n, SUM(lease_owner = @owner) AS mine FROM single_tasks
              WHERE state = 'pending' AND lease_until >= @now
              GROUP BY key_id),
           open AS (
             SELECT id, key_id,
                    ROW_NUMBER() OVER (PARTITION BY key_id ORDER BY created_at, id) AS turn,
                    MIN(created_at) OVER (PARTITION BY key_id) AS oldest
               FROM single_tasks
              WHERE state = 'pending' AND (lease_until IS NULL OR lease_until < @now))
           SELECT open.id AS id FROM open LEFT JOIN live ON live.key_id = open.key_id
            WHERE open.turn + COALESCE(live.mine, 0) <= @perKey
            ORDER BY open.turn + COALESCE(live.n, 0), open.oldest, open.key_id, open.turn
            LIMIT @limit`,
        ).all({ owner, now, perKey, limit }) as { id: string }[];
        const lease = prepared(
          this.db,
          `UPDATE single_tasks SET lease_owner = ?, lease_until = ?, attempts = attempts + 1
            WHERE id = ? RETURNING *`,
        );
        return ids.map(({ id }) => lease.get(owner, now + leaseMs, id) as TaskRow);
      })
      .immediate();
  }

  async complete(task: TaskRow, result: VerificationResult): Promise<void> {
    const now = nowIso();
    const { refund, json } = singleResult(task, result, now);
    this.db
      .transaction(() => {
        const done = prepared(
          this.db,
          `UPDATE single_tasks SET state = 'completed', result = ?, credits_refunded = ?, updated_at = ?,
               lease_owner = NULL, lease_until = NULL
             WHERE id = ? AND state = 'pending'`,
        ).run(json, refund, now, task.id);
        if (done.changes === 1) giveCredits(this.db, task.key_id, refund);
      })
      .immediate();
  }

  async renew(ids: string[], owner: string, leaseMs: number): Promise<void> {
    const lease = prepared(
      this.db,
      "UPDATE single_tasks SET lease_until = ? WHERE id = ? AND lease_owner = ? AND state = 'pending'",
    );
    const until = Date.now() + leaseMs;
    this.db.transaction(() => {
      for (const id of ids) lease.run(until, id, owner);
    })();
  }

  async purge(before: string): Promise<number> {
    return prepared(this.db, "DELETE FROM single_tasks WHERE state = 'completed' AND updated_at < ?").run(
      before,
    ).changes;
  }

  async release(id: string, owner: string): Promise<void> {
    prepared(
      this.db,
      `UPDATE single_tasks SET lease_until = NULL, attempts = MAX(attempts - 1, 0)
        WHERE id = ? AND lease_owner = ? AND state = 'pending'`,
    ).run(id, owner);
  }
}
