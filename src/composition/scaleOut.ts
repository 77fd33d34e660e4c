import { MongoBackend, MongoJobRepository } from '@agendajs/mongo-backend';
import { container as rootContainer, type DependencyContainer } from './container.js';
import { RECORDED_EVENT_STORE } from '../application/ports/eventStore.js';
import { READ_MODEL_STORE } from '../application/ports/readModelStore.js';
import { JOB_SCHEDULER } from '../application/ports/jobScheduler.js';
import { openDatabase } from '../infrastructure/postgres/database.js';
import { EsdbEventStore } from '../infrastructure/eventstoredb/esdbEventStore.js';
import { MongoReadModelStore } from '../infrastructure/mongo/mongoReadModelStore.js';
import type { CompositionOptions } from './options.js';
import { agendaScheduler, registerPostgres, registerService } from './shared.js';
import { usePostgresEvents, usePostgresReadModelsAndJobs } from './postgresServer.js';

/**
 * The `scale-out` profile's composition root: events in EventStoreDB when EVENTSTORE_URL is set,
 * read models and Agenda jobs in MongoDB when MONGODB_URL is set (either or both; what is not
 * set stays in PostgreSQL). PostgreSQL (DATABASE_URL, else the embedded server) still keeps
 * idempotency keys and rate-limit counters.
 */
export async function composeScaleOut(options: CompositionOptions): Promise<DependencyContainer> {
  const { config, logger } = options;
  const database = await openDatabase({
    databaseUrl: options.databaseUrl ?? config.databaseUrl,
    dataDir: config.dataDir,
    embeddedPort: config.embeddedPostgresPort,
    logger,
  });
  try {
    const container = rootContainer.createChildContainer();
    const pool = await registerPostgres(container, options, database);
    if (config.eventStoreUrl)
      container.register(RECORDED_EVENT_STORE, { useValue: new EsdbEventStore(config.eventStoreUrl) });
    else usePostgresEvents(container);
    if (config.mongodbUrl) {
      container.register(READ_MODEL_STORE, { useValue: await MongoReadModelStore.connect(config.mongodbUrl) });
      const backend = new MongoBackend({ address: config.mongodbUrl });
      const scheduler = agendaScheduler(options, backend, async () => {
        // Scheduling looks a unique key up among all jobs kept so far: index it.
        const repository = backend.repository;
        if (repository instanceof MongoJobRepository)
          await repository.collection.createIndex({ name: 1, 'data.unique_key': 1 });
      });
      container.register(JOB_SCHEDULER, { useValue: scheduler });
    } else {
      usePostgresReadModelsAndJobs(container, options, pool);
    }
    await registerService(container, options);
    return container;
  } catch (error) {
    await database.stop().catch(() => undefined);
    throw error;
  }
}
