/**
 * Rebuilds read models from the first event:
 *   npm run rebuild-projection -- <name>|--all
 * Uses the same configuration as `npm start` (DATABASE_URL, or the embedded PostgreSQL under
 * DATA_DIR; EVENTSTORE_URL / MONGODB_URL for the scale-out profile). A running service may stay
 * up: its runner notices the reset checkpoint and converges on the same result.
 */
import { loadConfig } from '../src/infrastructure/config.js';
import { createLogger } from '../src/infrastructure/logger.js';
import { openDatabase } from '../src/infrastructure/postgres/database.js';
import { TOKENS, wire } from '../src/infrastructure/container.js';
import { allProjections } from '../src/projections/index.js';
import { ProjectionRunner, resetProjection } from '../src/projections/projectionRunner.js';
import type { EventStore } from '../src/application/ports/eventStore.js';
import type { ReadModelStore } from '../src/application/ports/readModelStore.js';
import type pg from 'pg';
import type { DocumentContent } from '../src/application/documents/documentContent.js';

async function main() {
  const target = process.argv[2];
  // Named before anything is wired: naming them reads no content.
  const names = allProjections({ document: () => Promise.reject(new Error('names only')) }).map((p) => p.name);
  if (!target || (target !== '--all' && !names.includes(target))) {
    console.error(`usage: npm run rebuild-projection -- <${names.join('|')}|--all>`);
    process.exit(2);
  }
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, embeddedPort: config.embeddedPostgresPort, logger });
  const container = await wire({ config, logger, databaseUrl: database.url });
  const events = container.resolve<EventStore>(TOKENS.EventStore);
  const readModels = container.resolve<ReadModelStore>(TOKENS.ReadModelStore);
  const projections = allProjections(container.resolve<DocumentContent>(TOKENS.DocumentContent)).filter((p) => target === '--all' || p.name === target);

  const started = Date.now();
  for (const projection of projections) await resetProjection(readModels, projection);
  const runner = new ProjectionRunner(events, readModels, projections, logger);
  await runner.start();
  const head = await events.headPosition();
  while (!(await runner.waitFor(head, 60_000))) logger.info({ at: String(runner.lowestPosition()), head: String(head) }, 'rebuilding');
  await runner.stop();
  console.log(`rebuilt ${projections.map((p) => p.name).join(', ')} up to position ${head} in ${Date.now() - started} ms`);

  await readModels.close();
  await events.close();
  container.resolve<{ close(): void }>(TOKENS.Blobs).close();
  await container.resolve<pg.Pool>(TOKENS.Pool).end();
  await database.stop();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
