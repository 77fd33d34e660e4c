import type pg from 'pg';
import type { DependencyContainer } from '../src/composition/container.js';
import { EVENT_STORE, type EventStore } from '../src/application/ports/eventStore.js';
import { READ_MODEL_STORE, type ReadModelStore } from '../src/application/ports/readModelStore.js';
import { DATABASE, PG_POOL } from '../src/infrastructure/postgres/tokens.js';
import type { Database } from '../src/infrastructure/postgres/database.js';
import { BLOBS } from '../src/infrastructure/blobs/openBlobStore.js';

/** Lets go of what a script's composed container opened, the database (when it started it) last. */
export async function closeContainer(container: DependencyContainer): Promise<void> {
  await container.resolve<ReadModelStore>(READ_MODEL_STORE).close();
  await container.resolve<EventStore>(EVENT_STORE).close();
  container.resolve<{ close(): void }>(BLOBS).close();
  await container.resolve<pg.Pool>(PG_POOL).end();
  await container.resolve<Database>(DATABASE).stop();
}
