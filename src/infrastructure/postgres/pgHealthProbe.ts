import type pg from 'pg';
import type { HealthProbe } from '../../application/ports/healthProbe.js';
import { inject, injectable } from '../../application/injection.js';
import { PG_POOL } from './tokens.js';

/** Readiness is the PostgreSQL database answering a trivial query. */
@injectable()
export class PgHealthProbe implements HealthProbe {
  constructor(@inject(PG_POOL) private readonly pool: pg.Pool) {}

  async checkDatabase(): Promise<void> {
    await this.pool.query('SELECT 1');
  }
}
