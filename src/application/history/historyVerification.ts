import { inject, injectable } from '../injection.js';
import { RECORDED_EVENT_STORE, type EventStore } from '../ports/eventStore.js';
import { BlobCorruptedError, type BlobStore } from '../ports/blobStore.js';
import {
  CHAIN_RANGE_WALKER,
  CHECKPOINT_SIGNER,
  HISTORY_BLOB_STORE,
  HISTORY_CHAIN_STORE,
  type ChainRange,
  type ChainRangeWalker,
  type ChainWalkReport,
  type HistoryChainStore,
  type RangeWalkOptions,
  type SignedCheckpoint,
} from '../ports/historyChain.js';
import { conflict } from '../../domain/errors.js';
import { mergeReports, walkChain, WHOLE_CHAIN } from './chainWalk.js';

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

export interface HistoryVerificationOptions {
  /** A chain shorter than this is walked here, at once (a worker's start would cost more). */
  inProcessBelow: number;
  /** The least events a range walked in parallel holds. */
  minRangeEvents: number;
}

export const HISTORY_VERIFICATION_OPTIONS = Symbol('HistoryVerificationOptions');

/**
 * Walks the whole log against its chain and its checkpoints (chainWalk.ts), reading the events as
 * recorded and the blobs as stored (not through the service's cache). A long chain is cut into
 * ranges walked at once by the range walker (worker threads: every core, and none of it on the
 * event loop); a short one is walked here. One verification at a time per process.
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
    @inject(CHAIN_RANGE_WALKER) private readonly walker: ChainRangeWalker | null,
    @inject(HISTORY_VERIFICATION_OPTIONS) private readonly options: HistoryVerificationOptions,
  ) {}

  async verify(options: VerifyOptions = {}): Promise<HistoryVerificationReport> {
    if (this.running) throw conflict('A verification of the history is already running');
    this.running = true;
    try {
      const started = performance.now();
      const head = await this.events.headPosition();
      const external = options.external ?? [];
      const walk: RangeWalkOptions = {
        external,
        trustedKeyIds: [...(this.signer.keyId ? [this.signer.keyId] : []), ...external.map((c) => c.keyId)],
        blobs: options.blobs !== false,
      };
      const ranges = await this.ranges();
      const report =
        ranges === null
          ? await this.walkHere(WHOLE_CHAIN, walk)
          : mergeReports(await Promise.all(ranges.map((range) => this.walker!.walk(range, walk))));
      return {
        ...report,
        log_head: head < 0n ? null : String(head),
        duration_ms: Math.round(performance.now() - started),
      };
    } finally {
      this.running = false;
    }
  }

  /** Consecutive ranges of about equal length for the walker; null: walk it here, whole. */
  private async ranges(): Promise<ChainRange[] | null> {
    const head = await this.chain.head();
    const length = head ? head.seq + 1 : 0;
    if (!this.walker || length < this.options.inProcessBelow) return null;
    const parts = Math.max(1, Math.min(this.walker.parallelism, Math.floor(length / this.options.minRangeEvents)));
    const ranges: ChainRange[] = [];
    let after: ChainRange['after'] = null;
    for (let i = 1; i < parts; i++) {
      const boundary = await this.chain.linkAtSeq(Math.floor((i * length) / parts) - 1);
      // A chain whose sequence numbers were tampered with is walked whole (the walk names it).
      if (!boundary || (after && boundary.position <= after.position)) return [WHOLE_CHAIN];
      ranges.push({ after, through: boundary.position });
      after = { position: boundary.position, hash: boundary.hash, chained: boundary.seq + 1 };
    }
    ranges.push({ after, through: null });
    return ranges;
  }

  /** One range, walked in this thread, yielding to the event loop between batches. */
  walkHere(range: ChainRange, options: RangeWalkOptions): Promise<ChainWalkReport> {
    return walkChain(
      {
        readEvents: (after, maxCount) => this.events.readAll({ after, maxCount }),
        readLinks: (after, maxCount) => this.chain.read({ after, maxCount }),
        readCheckpoints: (after, maxCount) => this.chain.checkpointsAfter(after ?? null, maxCount),
        external: options.external,
        trustedKeyIds: new Set(options.trustedKeyIds),
        checkBlob: options.blobs ? (sha256) => this.checkBlob(sha256) : undefined,
        onProgress: () => new Promise((resolve) => setImmediate(resolve)),
      },
      range,
    );
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
