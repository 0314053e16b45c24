/** The address memory (server/store/store.ts AddressMemory) on Postgres; times on the database's clock. */
import type { Mode } from '@verimark/contract';
import type { VerificationResult } from '../../engine/types';
import type { AddressMemory, Revisit } from '../store';
import { leaseSql, type Pool } from './pool';

const after = (n: number) => leaseSql(n);

export class PgAddressMemory implements AddressMemory {
  constructor(private readonly pool: Pool) {}

  async remember(email: string, mode: Mode, dueInMs: number): Promise<void> {
    await this.pool.query(
      `INSERT INTO address_memory (email, mode, due_at) VALUES ($1, $2, ${after(3)})
         ON CONFLICT (email, mode) DO UPDATE SET due_at = excluded.due_at, tries = 0
           WHERE address_memory.due_at IS NULL`,
      [email, mode, dueInMs],
    );
  }

  async claimDue(owner: string, leaseMs: number, limit: number): Promise<Revisit[]> {
    const { rows } = await this.pool.query<Revisit>(
      `WITH due AS (
         SELECT email, mode FROM address_memory
          WHERE due_at IS NOT NULL AND due_at <= now() AND (lease_until IS NULL OR lease_until < now())
          ORDER BY due_at LIMIT $3 FOR UPDATE SKIP LOCKED)
       UPDATE address_memory m SET lease_owner = $1, lease_until = ${after(2)}
         FROM due WHERE m.email = due.email AND m.mode = due.mode
       RETURNING m.email, m.mode, m.tries`,
      [owner, leaseMs, limit],
    );
    return rows;
  }

  async settle(revisit: Revisit, result: VerificationResult | null, retryInMs: number | null): Promise<void> {
    const { email, mode } = revisit;
    if (result) {
      await this.pool.query(
        `UPDATE address_memory SET result = $1, decided_at = now(), due_at = NULL, lease_owner = NULL,
             lease_until = NULL WHERE email = $2 AND mode = $3`,
        [JSON.stringify(result), email, mode],
      );
    } else if (retryInMs !== null) {
      await this.pool.query(
        `UPDATE address_memory SET due_at = ${after(1)}, tries = tries + 1, lease_owner = NULL,
             lease_until = NULL WHERE email = $2 AND mode = $3`,
        [retryInMs, email, mode],
      );
    } else {
      await this.pool.query('DELETE FROM address_memory WHERE email = $1 AND mode = $2', [email, mode]);
    }
  }

  async recall(
    emails: readonly string[],
    mode: Mode,
    maxAgeMs: number,
  ): Promise<Map<string, VerificationResult>> {
    const found = new Map<string, VerificationResult>();
    if (emails.length === 0) return found;
    const { rows } = await this.pool.query<{ email: string; result: string }>(
      `SELECT email, result FROM address_memory
        WHERE email = ANY($1) AND mode = $2 AND result IS NOT NULL
          AND decided_at >= now() - make_interval(secs => $3::double precision / 1000)`,
      [[...new Set(emails)], mode, maxAgeMs],
    );
    for (const row of rows) found.set(row.email, JSON.parse(row.result) as VerificationResult);
    return found;
  }

  async sweep(maxAgeMs: number): Promise<number> {
    const result = await this.pool.query(
      `DELETE FROM address_memory
        WHERE due_at IS NULL AND decided_at < now() - make_interval(secs => $1::double precision / 1000)`,
      [maxAgeMs],
    );
    return result.rowCount ?? 0;
  }
}
