/** The address memory (server/store/store.ts AddressMemory) on SQLite; times are epoch ms. */
import type { Mode } from '@verimark/contract';
import type { VerificationResult } from '../../engine/types';
import type { AddressMemory, Revisit } from '../store';
import { type Db, prepared } from './db';

export class SqliteAddressMemory implements AddressMemory {
  constructor(private readonly db: Db) {}

  async remember(email: string, mode: Mode, dueInMs: number): Promise<void> {
    prepared(
      this.db,
      `INSERT INTO address_memory (email, mode, due_at) VALUES (?, ?, ?)
         ON CONFLICT (email, mode) DO UPDATE SET due_at = excluded.due_at, tries = 0
           WHERE address_memory.due_at IS NULL`,
    ).run(email, mode, Date.now() + dueInMs);
  }

  async claimDue(owner: string, leaseMs: number, limit: number): Promise<Revisit[]> {
    return this.db
      .transaction((): Revisit[] => {
        const now = Date.now();
        const rows = prepared(
          this.db,
          `SELECT email, mode, tries FROM address_memory
            WHERE due_at IS NOT NULL AND due_at <= ? AND (lease_until IS NULL OR lease_until < ?)
            ORDER BY due_at LIMIT ?`,
        ).all(now, now, limit) as Revisit[];
        const lease = prepared(
          this.db,
          'UPDATE address_memory SET lease_owner = ?, lease_until = ? WHERE email = ? AND mode = ?',
        );
        for (const r of rows) lease.run(owner, now + leaseMs, r.email, r.mode);
        return rows;
      })
      .immediate();
  }

  async settle(revisit: Revisit, result: VerificationResult | null, retryInMs: number | null): Promise<void> {
    const { email, mode } = revisit;
    if (result) {
      prepared(
        this.db,
        `UPDATE address_memory SET result = ?, decided_at = ?, due_at = NULL, lease_owner = NULL,
             lease_until = NULL WHERE email = ? AND mode = ?`,
      ).run(JSON.stringify(result), Date.now(), email, mode);
    } else if (retryInMs !== null) {
      prepared(
        this.db,
        `UPDATE address_memory SET due_at = ?, tries = tries + 1, lease_owner = NULL, lease_until = NULL
           WHERE email = ? AND mode = ?`,
      ).run(Date.now() + retryInMs, email, mode);
    } else {
      prepared(this.db, 'DELETE FROM address_memory WHERE email = ? AND mode = ?').run(email, mode);
    }
  }

  async recall(
    emails: readonly string[],
    mode: Mode,
    maxAgeMs: number,
  ): Promise<Map<string, VerificationResult>> {
    const found = new Map<string, VerificationResult>();
    if (emails.length === 0) return found;
    const one = prepared(
      this.db,
      'SELECT result FROM address_memory WHERE email = ? AND mode = ? AND result IS NOT NULL AND decided_at >= ?',
    );
    const since = Date.now() - maxAgeMs;
    for (const email of new Set(emails)) {
      const row = one.get(email, mode, since) as { result: string } | undefined;
      if (row) found.set(email, JSON.parse(row.result) as VerificationResult);
    }
    return found;
  }

  async sweep(maxAgeMs: number): Promise<number> {
    return prepared(this.db, 'DELETE FROM address_memory WHERE due_at IS NULL AND decided_at < ?').run(
      Date.now() - maxAgeMs,
    ).changes;
  }
}
