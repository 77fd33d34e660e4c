import type pg from 'pg';
import { inject, injectable } from '../../application/injection.js';
import type { PersonalDataKeyStore, StoredPersonalDataKey } from '../../application/ports/personalDataKeys.js';
import { PG_POOL } from './tokens.js';

/**
 * The tenants' personal-data keys in PostgreSQL (table personal_data_keys, pgSchema.ts), in every
 * profile: with EventStoreDB the keys are still here, never beside the events they open. Destroying
 * a key sets its wrapped bytes to NULL; PostgreSQL reclaims the old row version at its next
 * vacuum, and backups keep it until they expire (docs/operating/retention-and-erasure.md).
 */
@injectable()
export class PgPersonalDataKeys implements PersonalDataKeyStore {
  constructor(@inject(PG_POOL) private readonly pool: pg.Pool) {}

  async keysOf(tenantId: string): Promise<StoredPersonalDataKey[]> {
    const { rows } = await this.pool.query<{
      version: number;
      wrapped: Buffer | null;
      created_at: Date;
      destroyed_at: Date | null;
    }>(
      'SELECT version, wrapped, created_at, destroyed_at FROM personal_data_keys WHERE tenant_id = $1 ORDER BY version',
      [tenantId],
    );
    return rows.map((r) => ({
      version: r.version,
      wrapped: r.wrapped,
      created_at: r.created_at.toISOString(),
      destroyed_at: r.destroyed_at?.toISOString() ?? null,
    }));
  }

  async add(tenantId: string, version: number, wrapped: Buffer): Promise<void> {
    await this.pool.query(
      'INSERT INTO personal_data_keys (tenant_id, version, wrapped) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      [tenantId, version, wrapped],
    );
  }

  async destroy(tenantId: string, upTo?: number): Promise<number[]> {
    const { rows } = await this.pool.query<{ version: number }>(
      `UPDATE personal_data_keys SET wrapped = NULL, destroyed_at = now()
        WHERE tenant_id = $1 AND wrapped IS NOT NULL AND ($2::int IS NULL OR version <= $2)
        RETURNING version`,
      [tenantId, upTo ?? null],
    );
    return rows.map((r) => r.version).sort((a, b) => a - b);
  }
}
