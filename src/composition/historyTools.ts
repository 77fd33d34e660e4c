import pg from 'pg';
import type { Logger } from 'pino';
import type { Config } from '../infrastructure/config.js';
import type { EventStore } from '../application/ports/eventStore.js';
import { openDatabase } from '../infrastructure/postgres/database.js';
import { applyPostgresSchema } from '../infrastructure/postgres/pgSchema.js';
import { PgEventStore } from '../infrastructure/postgres/pgEventStore.js';
import { PgHistoryChainStore } from '../infrastructure/postgres/pgHistoryChain.js';
import { openBlobStore } from '../infrastructure/blobs/openBlobStore.js';
import { findCheckpointSigner } from '../infrastructure/history/checkpointSigner.js';
import { loadAccessPointIdentity } from '../infrastructure/as4/accessPointIdentity.js';
import { HistoryVerification } from '../application/history/historyVerification.js';
import { WorkerRangeWalker } from '../infrastructure/history/workerRangeWalker.js';
import { VERIFICATION } from './history.js';

/**
 * What `npm run verify-history` needs and no more: the database (DATABASE_URL, or the embedded
 * server under DATA_DIR, shared with a running service), the log (PostgreSQL or EventStoreDB), the
 * chain, the blobs as stored, and the id of the key the service signs with (never generated here).
 */
export async function openHistoryVerification(
  config: Config,
  logger: Logger,
): Promise<{ verification: HistoryVerification; close(): Promise<void> }> {
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    embeddedPort: config.embeddedPostgresPort,
    logger,
  });
  const pool = new pg.Pool({ connectionString: database.url, max: 4 });
  try {
    await applyPostgresSchema(pool);
    const events: EventStore = config.eventStoreUrl
      ? new (await import('../infrastructure/eventstoredb/esdbEventStore.js')).EsdbEventStore(config.eventStoreUrl)
      : new PgEventStore(pool, database.url);
    const blobs = await openBlobStore(config.blobStore, { pool });
    const signer = findCheckpointSigner(
      {
        keyFile: config.history.signingKeyFile,
        certificateFile: config.history.signingCertificateFile,
        dataDir: config.dataDir,
      },
      loadAccessPointIdentity(config.peppol)?.key ?? null,
    );
    const walker = new WorkerRangeWalker(
      { databaseUrl: database.url, eventStoreUrl: config.eventStoreUrl, blobStore: config.blobStore },
      config.history.verifyWorkers,
    );
    const verification = new HistoryVerification(
      events,
      new PgHistoryChainStore(pool),
      blobs.store,
      { keyId: signer?.keyId ?? null },
      walker,
      VERIFICATION,
    );
    return {
      verification,
      close: async () => {
        await events.close();
        blobs.close();
        await pool.end();
        await database.stop();
      },
    };
  } catch (error) {
    await pool.end().catch(() => undefined);
    await database.stop().catch(() => undefined);
    throw error;
  }
}
