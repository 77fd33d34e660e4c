import { inject, injectable } from '../injection.js';
import { RECORDED_EVENT_STORE, type EventStore } from '../ports/eventStore.js';
import { BlobCorruptedError, type BlobStore } from '../ports/blobStore.js';
import {
  CHECKPOINT_SIGNER,
  HISTORY_BLOB_STORE,
  HISTORY_CHAIN_STORE,
  type HistoryChainStore,
  type SignedCheckpoint,
} from '../ports/historyChain.js';
import { conflict } from '../../domain/errors.js';
import { walkChain, type ChainWalkReport } from './chainWalk.js';

export interface HistoryVerificationReport extends ChainWalkReport {
  /** The log's newest position when the walk began (null: empty). */
  log_head: string | null;
  duration_ms: number;
}

export interface VerifyOptions {
  /** Checkpoints from a copy kept outside the database (the operator's checkpoint file). */
  external?: SignedCheckpoint[];
  /** Whether every blob an event names is read and hashed (default true). */
  blobs?: boolean;
}

/**
 * Walks the whole log against its chain and its checkpoints (chainWalk.ts), reading the events
 * as recorded and the blobs as stored (not through the service's cache). One at a time per
 * process; between batches it yields, so requests are served meanwhile.
 */
@injectable()
export class HistoryVerification {
  private running = false;

  constructor(
    @inject(RECORDED_EVENT_STORE) private readonly events: EventStore,
    @inject(HISTORY_CHAIN_STORE) private readonly chain: HistoryChainStore,
    @inject(HISTORY_BLOB_STORE) private readonly blobs: BlobStore,
    /** Whose checkpoints are this service's own (null: no key known here, e.g. a script on another machine). */
    @inject(CHECKPOINT_SIGNER) private readonly signer: { readonly keyId: string | null },
  ) {}

  async verify(options: VerifyOptions = {}): Promise<HistoryVerificationReport> {
    if (this.running) throw conflict('A verification of the history is already running');
    this.running = true;
    try {
      const started = performance.now();
      const head = await this.events.headPosition();
      const external = options.external ?? [];
      const report = await walkChain({
        readEvents: (after, maxCount) => this.events.readAll({ after, maxCount }),
        readLinks: (after, maxCount) => this.chain.read({ after, maxCount }),
        readCheckpoints: (after, maxCount) => this.chain.checkpointsAfter(after ?? null, maxCount),
        external,
        trustedKeyIds: new Set([...(this.signer.keyId ? [this.signer.keyId] : []), ...external.map((c) => c.keyId)]),
        checkBlob: options.blobs === false ? undefined : (sha256) => this.checkBlob(sha256),
        onProgress: () => new Promise((resolve) => setImmediate(resolve)),
      });
      return {
        ...report,
        log_head: head < 0n ? null : String(head),
        duration_ms: Math.round(performance.now() - started),
      };
    } finally {
      this.running = false;
    }
  }

  private async checkBlob(sha256: string): Promise<'ok' | 'missing' | 'changed'> {
    try {
      const stream = await this.blobs.stream(sha256);
      if (!stream) return 'missing';
      // Hashed as it passes: a stream that ends was the bytes of its SHA-256.
      for await (const _chunk of stream) void _chunk;
      return 'ok';
    } catch (error) {
      if (error instanceof BlobCorruptedError) return 'changed';
      throw error;
    }
  }
}
