import type pg from 'pg';
import type { RateLimitCounter, RateLimitHits, RateLimitStore } from '../../application/ports/rateLimitStore.js';
import { inject, injectable } from '../../application/injection.js';
import { PG_POOL } from './tokens.js';

/**
 * Rate-limit counters in PostgreSQL (table `rate_limits`, see pgSchema.ts), so every process of a
 * deployment counts against one shared limit.
 *
 * Fixed windows: a key's first hit opens a window of `windowMs`; hits count until it ends, the
 * next hit after that opens a new one. One atomic upsert both counts and reads, under the row's
 * lock, so concurrent requests from several processes never lose a hit. Window ends come from
 * the database clock, so processes with skewed clocks still agree on them.
 *
 * Rows are kept per key and window size, so the table stays as small as the number of keys in
 * use; an expired row is simply reused by the key's next hit.
 */
@injectable()
export class PgRateLimitStore implements RateLimitStore {
  constructor(@inject(PG_POOL) private readonly pool: pg.Pool) {}

  counter(name: string, windowMs: number): RateLimitCounter {
    return new PgRateLimitCounter(this.pool, `${name}:`, windowMs);
  }
}

class PgRateLimitCounter implements RateLimitCounter {
  constructor(
    private readonly pool: pg.Pool,
    /** Keeps the counters of different limits apart (e.g. an organization key's minute and hour windows). */
    private readonly prefix: string,
    private readonly windowMs: number,
  ) {}

  async increment(key: string): Promise<RateLimitHits> {
    const { rows } = await this.pool.query<{ hits: number; reset_at: Date }>(
      `INSERT INTO rate_limits (key, hits, reset_at)
         VALUES ($1, 1, now() + $2 * interval '1 millisecond')
       ON CONFLICT (key) DO UPDATE SET
         hits = CASE WHEN rate_limits.reset_at <= now() THEN 1 ELSE rate_limits.hits + 1 END,
         reset_at = CASE WHEN rate_limits.reset_at <= now() THEN EXCLUDED.reset_at ELSE rate_limits.reset_at END
       RETURNING hits, reset_at`,
      [this.prefix + key, this.windowMs],
    );
    const row = rows[0]!;
    return { totalHits: row.hits, resetTime: row.reset_at };
  }

  async get(key: string): Promise<RateLimitHits | undefined> {
    const { rows } = await this.pool.query<{ hits: number; reset_at: Date }>(
      'SELECT hits, reset_at FROM rate_limits WHERE key = $1 AND reset_at > now()',
      [this.prefix + key],
    );
    const row = rows[0];
    return row ? { totalHits: row.hits, resetTime: row.reset_at } : undefined;
  }

  /** Gives a hit back (express-rate-limit's skip options); never below zero, never into a new window. */
  async decrement(key: string): Promise<void> {
    await this.pool.query('UPDATE rate_limits SET hits = GREATEST(hits - 1, 0) WHERE key = $1 AND reset_at > now()', [
      this.prefix + key,
    ]);
  }

  async resetKey(key: string): Promise<void> {
    await this.pool.query('DELETE FROM rate_limits WHERE key = $1', [this.prefix + key]);
  }

  async resetAll(): Promise<void> {
    await this.pool.query('DELETE FROM rate_limits WHERE starts_with(key, $1)', [this.prefix]);
  }
}
