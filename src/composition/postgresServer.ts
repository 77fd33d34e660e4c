import type pg from 'pg';
import { PostgresBackend } from '@agendajs/postgres-backend';
import { container as rootContainer, type DependencyContainer } from './container.js';
import { RECORDED_EVENT_STORE } from '../application/ports/eventStore.js';
import { READ_MODEL_STORE } from '../application/ports/readModelStore.js';
import { JOB_SCHEDULER } from '../application/ports/jobScheduler.js';
import type { Database } from '../infrastructure/postgres/database.js';
import { PgEventStore } from '../infrastructure/postgres/pgEventStore.js';
import { PgReadModelStore } from '../infrastructure/postgres/pgReadModelStore.js';
import type { CompositionOptions } from './options.js';
import { agendaScheduler, registerPostgres, registerService } from './shared.js';

/**
 * The `postgres-server` profile's composition root: events, read models, jobs, idempotency keys
 * and rate-limit counters all in the PostgreSQL database at DATABASE_URL (or a test's database).
 * The server is not this process's to stop.
 */
export function composePostgresServer(options: CompositionOptions, databaseUrl: string): Promise<DependencyContainer> {
  return composeOnPostgres(options, { url: databaseUrl, stop: async () => undefined });
}

/** Everything in one PostgreSQL database (the embedded profile composes the same on its own server). */
export async function composeOnPostgres(options: CompositionOptions, database: Database): Promise<DependencyContainer> {
  const container = rootContainer.createChildContainer();
  const pool = await registerPostgres(container, options, database);
  usePostgresEvents(container);
  usePostgresReadModelsAndJobs(container, options, pool);
  await registerService(container, options);
  return container;
}

export function usePostgresEvents(container: DependencyContainer): void {
  container.registerSingleton(RECORDED_EVENT_STORE, PgEventStore);
}

export function usePostgresReadModelsAndJobs(
  container: DependencyContainer,
  options: CompositionOptions,
  pool: pg.Pool,
): void {
  container.registerSingleton(READ_MODEL_STORE, PgReadModelStore);
  const scheduler = agendaScheduler(options, new PostgresBackend({ pool }), async () => {
    // Scheduling looks a unique key up among all jobs kept so far: index it.
    await pool.query(`CREATE INDEX IF NOT EXISTS agenda_jobs_unique_key ON agenda_jobs (name, (data->>'unique_key'))`);
  });
  container.register(JOB_SCHEDULER, { useValue: scheduler });
}
