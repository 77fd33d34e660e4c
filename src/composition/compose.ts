import type { DependencyContainer } from './container.js';
import { assertNever } from '../domain/decider.js';
import { storageProfileOf, type CompositionOptions } from './options.js';
import { composeEmbeddedPostgres } from './embeddedPostgres.js';
import { composePostgresServer } from './postgresServer.js';

/**
 * The dependency container of one service instance, from the composition root of its storage
 * profile (options.ts says which settings choose which).
 */
export async function compose(options: CompositionOptions): Promise<DependencyContainer> {
  const profile = storageProfileOf(options.config, options.databaseUrl);
  switch (profile) {
    case 'embedded-postgres':
      return composeEmbeddedPostgres(options);
    case 'postgres-server':
      return composePostgresServer(options, (options.databaseUrl ?? options.config.databaseUrl)!);
    case 'scale-out':
      // Loaded only here: the MongoDB and EventStoreDB clients are not loaded by the other profiles.
      return (await import('./scaleOut.js')).composeScaleOut(options);
    default:
      return assertNever(profile);
  }
}
