import type pg from 'pg';
import type { IdempotencyClaim, IdempotencyStore } from '../../application/ports/idempotencyStore.js';
import { inject, injectable } from '../../application/injection.js';
import { PG_POOL } from './tokens.js';

/** How long a key's first result is kept, and how long a claim holds before it counts as abandoned. */
export interface IdempotencyRetention {
  ttlHours: number;
  claimLeaseMs: number;
}
export const IDEMPOTENCY_RETENTION = Symbol('IdempotencyRetention');

/**
 * Idempotency keys in PostgreSQL (table `idempotency_keys`), shared by every process. A claim is
 * one atomic upsert: a new key, an expired one (older than the time kept), or an abandoned claim
 * (its process died before completing: `locked_until` passed) is taken; otherwise the row says
 * what became of the first request.
 */
@injectable()
export class PgIdempotencyStore implements IdempotencyStore {
  constructor(
    @inject(PG_POOL) private readonly pool: pg.Pool,
    @inject(IDEMPOTENCY_RETENTION) private readonly options: IdempotencyRetention,
  ) {
    // Expired keys are removed hourly; until then a claim treats them as absent.
    // (The timer does not keep the process alive; a query on an ended pool just fails.)
    setInterval(() => {
      this.pool
        .query(`DELETE FROM idempotency_keys WHERE created_at < now() - $1 * interval '1 hour'`, [
          this.options.ttlHours,
        ])
        .catch(() => undefined);
    }, 3_600_000).unref();
  }

  async claim(scope: string, key: string, fingerprint: string, attempt = 1): Promise<IdempotencyClaim> {
    const { rowCount } = await this.pool.query(
      `INSERT INTO idempotency_keys AS k (scope, key, fingerprint, created_at, locked_until)
         VALUES ($1, $2, $3, now(), now() + $4 * interval '1 millisecond')
       ON CONFLICT (scope, key) DO UPDATE SET
         fingerprint = EXCLUDED.fingerprint, status = NULL, body = NULL, created_at = now(), locked_until = EXCLUDED.locked_until
         WHERE k.created_at < now() - $5 * interval '1 hour' OR (k.status IS NULL AND k.locked_until < now())
       RETURNING 1`,
      [scope, key, fingerprint, this.options.claimLeaseMs, this.options.ttlHours],
    );
    if (rowCount) return { kind: 'claimed' };
    const existing = await this.pool.query<{ fingerprint: string; status: number | null; body: unknown }>(
      'SELECT fingerprint, status, body FROM idempotency_keys WHERE scope = $1 AND key = $2',
      [scope, key],
    );
    const row = existing.rows[0];
    // Released between the two statements: claim again (a key that keeps vanishing is busy).
    if (!row) return attempt < 3 ? this.claim(scope, key, fingerprint, attempt + 1) : { kind: 'in_progress' };
    if (row.fingerprint !== fingerprint) return { kind: 'mismatch' };
    if (row.status === null) return { kind: 'in_progress' };
    return { kind: 'completed', status: row.status, body: row.body };
  }

  async complete(scope: string, key: string, status: number, body: unknown): Promise<void> {
    await this.pool.query('UPDATE idempotency_keys SET status = $3, body = $4 WHERE scope = $1 AND key = $2', [
      scope,
      key,
      status,
      JSON.stringify(body),
    ]);
  }

  async release(scope: string, key: string): Promise<void> {
    await this.pool.query('DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2 AND status IS NULL', [
      scope,
      key,
    ]);
  }
}
