import { instanceCachingFactory, type DependencyContainer } from './container.js';
import type { Config } from '../infrastructure/config.js';
import { BLOBS } from '../infrastructure/blobs/openBlobStore.js';
import { PgHistoryChainStore } from '../infrastructure/postgres/pgHistoryChain.js';
import { loadCheckpointSigner } from '../infrastructure/history/checkpointSigner.js';
import { CheckpointFile, noCheckpointFile } from '../infrastructure/history/checkpointFile.js';
import { ACCESS_POINT_IDENTITY, type AccessPointIdentity } from '../infrastructure/as4/accessPointIdentity.js';
import {
  CHAIN_RANGE_WALKER,
  CHECKPOINT_PUBLISHER,
  CHECKPOINT_SIGNER,
  HISTORY_BLOB_STORE,
  HISTORY_CHAIN_STORE,
  type HistoryChainStore,
} from '../application/ports/historyChain.js';
import type { BlobStore } from '../application/ports/blobStore.js';
import {
  HISTORY_CHAINER_OPTIONS,
  HistoryChainer,
  type HistoryChainerOptions,
} from '../application/history/historyChainer.js';
import { ThreadedHistoryChainer } from '../infrastructure/history/threadedHistoryChainer.js';
import { RECORDED_EVENT_STORE, type EventStore } from '../application/ports/eventStore.js';
import { LOGGER } from '../application/ports/logger.js';
import type { Logger } from 'pino';
import { HISTORY_CHECKPOINT_OPTIONS, HistoryCheckpoints } from '../application/history/historyCheckpoints.js';
import {
  HISTORY_VERIFICATION_OPTIONS,
  HistoryVerification,
  type HistoryVerificationOptions,
} from '../application/history/historyVerification.js';
import { WorkerRangeWalker } from '../infrastructure/history/workerRangeWalker.js';
import { DATABASE_URL } from '../infrastructure/postgres/tokens.js';
import { HistoryProofs } from '../application/history/historyProofs.js';
import { EvidenceBundles } from '../application/evidence/evidenceBundle.js';

/** Under 20,000 events a walk takes well under a second here; above, ranges of at least 50,000 in workers. */
export const VERIFICATION: HistoryVerificationOptions = { inProcessBelow: 20_000, minRangeEvents: 50_000 };

/**
 * The tamper-evident history: the chain (in PostgreSQL, which every profile has), the chainer that
 * follows the log, signed checkpoints, verification and proofs. After registerPeppol: the access
 * point's key signs checkpoints when no signing key of their own is configured.
 */
export function registerHistory(container: DependencyContainer, config: Config): void {
  const settings = config.history;
  container.registerSingleton(HISTORY_CHAIN_STORE, PgHistoryChainStore);
  // The stored bytes, not the cache in front of them: a verification reads what is kept.
  container.register(HISTORY_BLOB_STORE, {
    useFactory: instanceCachingFactory((c) => c.resolve<{ store: BlobStore }>(BLOBS).store),
  });
  container.register(CHECKPOINT_SIGNER, {
    useFactory: instanceCachingFactory((c) => {
      const identity = c.resolve<AccessPointIdentity | null>(ACCESS_POINT_IDENTITY);
      return loadCheckpointSigner(
        {
          keyFile: settings.signingKeyFile,
          certificateFile: settings.signingCertificateFile,
          dataDir: config.dataDir,
        },
        identity?.key ?? null,
      );
    }),
  });
  container.register(CHECKPOINT_PUBLISHER, {
    useValue: settings.checkpointFile ? new CheckpointFile(settings.checkpointFile) : noCheckpointFile,
  });
  container.register(HISTORY_CHAINER_OPTIONS, { useValue: { paceMs: settings.chainPaceMs, batchSize: 1000 } });
  container.register(HISTORY_CHECKPOINT_OPTIONS, {
    useValue: { intervalMs: settings.checkpointIntervalMs, everyEvents: settings.checkpointEveryEvents },
  });
  // A long chain is verified in worker threads, in ranges walked at once.
  container.register(CHAIN_RANGE_WALKER, {
    useFactory: instanceCachingFactory(
      (c) =>
        new WorkerRangeWalker(
          {
            databaseUrl: c.resolve<string>(DATABASE_URL),
            eventStoreUrl: config.eventStoreUrl,
            blobStore: config.blobStore,
          },
          settings.verifyWorkers,
        ),
    ),
  });
  container.register(HISTORY_VERIFICATION_OPTIONS, { useValue: VERIFICATION });
  // The chainer reads, canonicalises and hashes every event: in a thread of its own, off the event loop.
  container.register(HistoryChainer, {
    useFactory: instanceCachingFactory(
      (c) =>
        new ThreadedHistoryChainer(
          c.resolve<EventStore>(RECORDED_EVENT_STORE),
          c.resolve<HistoryChainStore>(HISTORY_CHAIN_STORE),
          c.resolve<Logger>(LOGGER),
          c.resolve<HistoryChainerOptions>(HISTORY_CHAINER_OPTIONS),
          { databaseUrl: c.resolve<string>(DATABASE_URL), eventStoreUrl: config.eventStoreUrl },
        ),
    ),
  });
  container.registerSingleton(HistoryCheckpoints);
  container.registerSingleton(HistoryVerification);
  container.registerSingleton(HistoryProofs);
  container.registerSingleton(EvidenceBundles);
}
