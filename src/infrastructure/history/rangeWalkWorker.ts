import { parentPort, workerData } from 'node:worker_threads';
import pg from 'pg';
import type { EventStore } from '../../application/ports/eventStore.js';
import { HistoryVerification } from '../../application/history/historyVerification.js';
import { PgEventStore } from '../postgres/pgEventStore.js';
import { PgHistoryChainStore } from '../postgres/pgHistoryChain.js';
import { PgBlobStore } from '../blobs/pgBlobStore.js';
import type { BlobStore } from '../../application/ports/blobStore.js';
import type { RangeWalkAnswer, RangeWalkRequest } from './workerRangeWalker.js';

/** A worker thread's walk of one range of the chain (workerRangeWalker.ts), on connections of its own. */
async function walk(request: RangeWalkRequest): Promise<RangeWalkAnswer> {
  const { connection, range, options } = request;
  const pool = new pg.Pool({ connectionString: connection.databaseUrl, max: 3 });
  const events: EventStore = connection.eventStoreUrl
    ? new (await import('../eventstoredb/esdbEventStore.js')).EsdbEventStore(connection.eventStoreUrl)
    : new PgEventStore(pool, connection.databaseUrl);
  // The S3 client is loaded only when the blobs are there: a worker starts in a fraction of the time.
  const blobs: { store: BlobStore; close(): void } =
    connection.blobStore.kind === 'postgres'
      ? { store: new PgBlobStore(pool), close: () => undefined }
      : await (await import('../blobs/openBlobStore.js')).openBlobStore(connection.blobStore, { pool });
  try {
    const verification = new HistoryVerification(
      events,
      new PgHistoryChainStore(pool),
      blobs.store,
      { keyId: null },
      null,
      {
        inProcessBelow: Number.POSITIVE_INFINITY,
        minRangeEvents: Number.POSITIVE_INFINITY,
      },
    );
    // Hashes cross the thread boundary as Uint8Arrays.
    const after = range.after && { ...range.after, hash: Buffer.from(range.after.hash) };
    return { ok: true, report: await verification.walkHere({ ...range, after }, options) };
  } finally {
    await events.close();
    blobs.close();
    await pool.end();
  }
}

walk(workerData as RangeWalkRequest).then(
  (answer) => parentPort!.postMessage(answer),
  (error: unknown) => parentPort!.postMessage({ ok: false, error: String((error as Error)?.stack ?? error) }),
);
