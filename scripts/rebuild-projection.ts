/**
 * Rebuilds read models from the first event:
 *   npm run rebuild-projection -- <name>|--all
 * Uses the same configuration as `npm start` (DATABASE_URL, or the embedded PostgreSQL under
 * DATA_DIR; EVENTSTORE_URL / MONGODB_URL for the scale-out profile). A running service may stay
 * up: its runner notices the reset checkpoint and converges on the same result.
 */
import { loadConfig } from '../src/infrastructure/config.js';
import { createLogger } from '../src/infrastructure/logger.js';
import { compose } from '../src/composition/compose.js';
import { allProjections } from '../src/projections/index.js';
import { ProjectionRunner, resetProjection } from '../src/projections/projectionRunner.js';
import { EVENT_STORE, type EventStore } from '../src/application/ports/eventStore.js';
import { READ_MODEL_STORE, type ReadModelStore } from '../src/application/ports/readModelStore.js';
import { DATABASE, PG_POOL } from '../src/infrastructure/postgres/tokens.js';
import type { Database } from '../src/infrastructure/postgres/database.js';
import type pg from 'pg';
import { DocumentContent } from '../src/application/documents/documentContent.js';
import { BLOBS } from '../src/infrastructure/blobs/openBlobStore.js';

async function main() {
  const target = process.argv[2];
  // Named before anything is wired: naming them reads no content.
  const names = allProjections({ document: () => Promise.reject(new Error('names only')) }).map((p) => p.name);
  if (!target || (target !== '--all' && !names.includes(target))) {
    console.error(`usage: npm run rebuild-projection -- <${names.join('|')}|--all>`);
    process.exit(2);
  }
  const config = loadConfig();
  const logger = createLogger(config.logLevel, config.logFormat);
  // The same composition root as `npm start` chooses (and the embedded server, when that is the profile).
  const container = await compose({ config, logger });
  const events = container.resolve<EventStore>(EVENT_STORE);
  const readModels = container.resolve<ReadModelStore>(READ_MODEL_STORE);
  const projections = allProjections(container.resolve(DocumentContent)).filter(
    (p) => target === '--all' || p.name === target,
  );

  const started = Date.now();
  for (const projection of projections) await resetProjection(readModels, projection);
  const runner = new ProjectionRunner(events, readModels, projections, logger);
  await runner.start();
  const head = await events.headPosition();
  while (!(await runner.waitFor(head, 60_000)))
    logger.info({ at: String(runner.lowestPosition()), head: String(head) }, 'rebuilding');
  await runner.stop();
  console.log(
    `rebuilt ${projections.map((p) => p.name).join(', ')} up to position ${head} in ${Date.now() - started} ms`,
  );

  await readModels.close();
  await events.close();
  container.resolve<{ close(): void }>(BLOBS).close();
  await container.resolve<pg.Pool>(PG_POOL).end();
  await container.resolve<Database>(DATABASE).stop();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
