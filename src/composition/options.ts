import type { Logger } from 'pino';
import type { Config } from '../infrastructure/config.js';
import type { RuleSetClock } from '../application/documents/ruleSetChoice.js';
import type { ResolveHost } from '../infrastructure/webhooks/httpWebhookClient.js';

/** What one service instance is composed from: its settings, its logger, and what tests adjust. */
export interface CompositionOptions {
  config: Config;
  logger: Logger;
  /** The PostgreSQL database (a test's own); unset: DATABASE_URL, else the embedded server under DATA_DIR. */
  databaseUrl?: string;
  /** Agenda settings for tests, which want fast polling and short locks. */
  jobs?: { processEveryMs?: number; lockLifetimeMs?: number };
  /** The delivery and webhook schedules' unit: a minute unless a test compresses it. */
  deliveryRetryUnitMs?: number;
  /** How long a webhook subscriber may take to answer (tests shorten it). */
  webhookTimeoutMs?: number;
  /** How webhook host names are resolved: the system resolver unless a test gives its own answers. */
  webhookResolveHost?: ResolveHost;
  /** Which day it is for the rules: today (or RULES_DATE) unless a test moves it. */
  ruleSetClock?: RuleSetClock;
}

/**
 * Where the service keeps its data. `embedded-postgres`: everything in a PostgreSQL server this
 * process starts under DATA_DIR (`npm start` with no settings). `postgres-server`: everything in
 * the database at DATABASE_URL. `scale-out`: events in EventStoreDB (EVENTSTORE_URL), read
 * models and jobs in MongoDB (MONGODB_URL), either or both; PostgreSQL (server or embedded) still
 * keeps idempotency keys and rate-limit counters.
 */
export type StorageProfile = 'embedded-postgres' | 'postgres-server' | 'scale-out';

export function storageProfileOf(
  config: Pick<Config, 'databaseUrl' | 'eventStoreUrl' | 'mongodbUrl'>,
  databaseUrl?: string,
): StorageProfile {
  if (config.eventStoreUrl || config.mongodbUrl) return 'scale-out';
  return (databaseUrl ?? config.databaseUrl) ? 'postgres-server' : 'embedded-postgres';
}
