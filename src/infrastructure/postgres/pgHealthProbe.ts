import type pg from 'pg';
import type { HealthProbe } from '../../application/ports/healthProbe.js';

/** Readiness is the PostgreSQL database answering a trivial query. */
export class PgHealthProbe implements HealthProbe {
  constructor(private readonly pool: pg.Pool) {}

  async checkDatabase(): Promise<void> {
    await this.pool.query('SELECT 1');
  }
}
