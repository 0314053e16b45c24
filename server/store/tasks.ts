import type { Mode, SingleResult } from '../../lib/api/contract';
import type { VerificationResult } from '../engine/types';
import type { Db } from './db';
import { nowIso, prepared } from './db';
import { newId } from './ids';
import { giveCredits, takeCredits } from './keys';

export interface TaskRow {
  id: string;
  key_id: string;
  email: string;
  mode: Mode;
  state: 'pending' | 'completed';
  result: string | null;
  credits_refunded: number;
  created_at: string;
  updated_at: string;
}

/** Durable single-email tasks. One credit is taken when the task is created. */
export class TaskStore {
  constructor(private readonly db: Db) {}

  /** Takes one credit and inserts the task in one transaction; null when the balance is short. */
  create(keyId: string, email: string, mode: Mode): TaskRow | null {
    return this.db
      .transaction((): TaskRow | null => {
        if (!takeCredits(this.db, keyId, 1)) return null;
        const now = nowIso();
        const row: TaskRow = {
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
        prepared(
          this.db,
          `INSERT INTO single_tasks (id, key_id, email, mode, state, result, credits_refunded, created_at, updated_at)
             VALUES (@id, @key_id, @email, @mode, @state, @result, @credits_refunded, @created_at, @updated_at)`,
        ).run(row);
        return row;
      })
      .immediate();
  }

  /** A task of this key, or null (another key's task is reported as absent). */
  get(keyId: string, id: string): TaskRow | null {
    const row = prepared(this.db, 'SELECT * FROM single_tasks WHERE id = ? AND key_id = ?').get(id, keyId);
    return (row as TaskRow | undefined) ?? null;
  }

  pendingIds(): string[] {
    const rows = prepared(
      this.db,
      "SELECT id FROM single_tasks WHERE state = 'pending' ORDER BY created_at",
    ).all() as { id: string }[];
    return rows.map((r) => r.id);
  }

  getById(id: string): TaskRow | null {
    return (
      (prepared(this.db, 'SELECT * FROM single_tasks WHERE id = ?').get(id) as TaskRow | undefined) ?? null
    );
  }

  /**
   * Stores the result and refunds the credit of an `unknown` verdict, once: the state check
   * makes a second completion (e.g. after a restart) a no-op.
   */
  complete(task: TaskRow, result: VerificationResult): void {
    const refund = result.status === 'unknown' ? 1 : 0;
    const now = nowIso();
    const full: SingleResult = {
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
    };
    this.db
      .transaction(() => {
        const done = prepared(
          this.db,
          `UPDATE single_tasks SET state = 'completed', result = ?, credits_refunded = ?, updated_at = ?
             WHERE id = ? AND state = 'pending'`,
        ).run(JSON.stringify(full), refund, now, task.id);
        if (done.changes === 1) giveCredits(this.db, task.key_id, refund);
      })
      .immediate();
  }
}
