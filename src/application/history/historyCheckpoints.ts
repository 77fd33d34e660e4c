import type { Logger } from 'pino';
import { inject, injectable } from '../injection.js';
import {
  CHECKPOINT_PUBLISHER,
  CHECKPOINT_SIGNER,
  HISTORY_CHAIN_STORE,
  type ChainLink,
  type CheckpointPublisher,
  type CheckpointSigner,
  type HistoryChainStore,
  type HistoryCheckpoint,
  type SignedCheckpoint,
} from '../ports/historyChain.js';
import { LOGGER } from '../ports/logger.js';
import { invalidState } from '../../domain/errors.js';
import { checkpointStatement } from './checkpointStatement.js';
import { HistoryChainer } from './historyChainer.js';

export interface HistoryCheckpointOptions {
  /** A checkpoint is written when the last one is this old and events were chained since (0: only on demand). */
  intervalMs: number;
  /** …or as soon as this many events were chained since the last one (0: no such bound). */
  everyEvents: number;
}

export const HISTORY_CHECKPOINT_OPTIONS = Symbol('HistoryCheckpointOptions');

/** How often the schedule looks whether a checkpoint is due. */
const TICK_MS = 5000;

/**
 * Signed checkpoints of the chain: its head (position, event count, hash) at a moment, signed
 * with the service's signing key, kept in the chain store and handed to the publisher (a file the
 * operator keeps outside the database). Written on a schedule and on demand.
 */
@injectable()
export class HistoryCheckpoints {
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> = Promise.resolve();
  private readonly logger: Logger;

  constructor(
    @inject(HISTORY_CHAIN_STORE) private readonly chain: HistoryChainStore,
    @inject(HistoryChainer) private readonly chainer: HistoryChainer,
    @inject(CHECKPOINT_SIGNER) private readonly signer: CheckpointSigner,
    @inject(CHECKPOINT_PUBLISHER) private readonly publisher: CheckpointPublisher,
    @inject(HISTORY_CHECKPOINT_OPTIONS) private readonly options: HistoryCheckpointOptions,
    @inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'history-checkpoints' });
  }

  start(): void {
    if (this.options.intervalMs <= 0 && this.options.everyEvents <= 0) return;
    const tick = Math.min(TICK_MS, this.options.intervalMs > 0 ? this.options.intervalMs : TICK_MS);
    this.timer = setInterval(() => {
      this.ticking = this.ticking
        .then(() => this.writeIfDue())
        .catch((error: unknown) => this.logger.error({ err: error }, 'scheduled history checkpoint failed'));
    }, tick);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.ticking;
  }

  private async writeIfDue(): Promise<void> {
    const head = this.chainer.chainHead();
    if (!head) return;
    const last = await this.chain.latestCheckpoint();
    if (last && last.position >= head.position) return;
    const due =
      !last ||
      (this.options.intervalMs > 0 && Date.now() - Date.parse(last.createdAt) >= this.options.intervalMs) ||
      (this.options.everyEvents > 0 && head.seq + 1 - last.events >= this.options.everyEvents);
    if (due) await this.write(head);
  }

  /**
   * A checkpoint of everything appended so far (once chained, which takes a moment): a new one,
   * or the last one when nothing was chained since. Refused while the log is empty.
   */
  async checkpointNow(): Promise<SignedCheckpoint> {
    await this.chainer.catchUp();
    const head = await this.chain.head();
    if (!head) throw invalidState('The log is empty: there is nothing to checkpoint yet');
    const last = await this.chain.latestCheckpoint();
    if (last && last.position >= head.position) return last;
    return this.write(head);
  }

  private async write(head: ChainLink): Promise<SignedCheckpoint> {
    const checkpoint: HistoryCheckpoint = {
      position: head.position,
      events: head.seq + 1,
      headHash: head.hash.toString('hex'),
      createdAt: new Date().toISOString(),
    };
    const signed = { ...checkpoint, ...this.signer.sign(checkpointStatement(checkpoint)) };
    const kept = await this.chain.saveCheckpoint(signed);
    // Another process checkpointed the same head first: its checkpoint is the one kept (and published).
    if (kept.signature !== signed.signature) return kept;
    this.logger.info({ position: String(kept.position), events: kept.events }, 'history checkpoint written');
    await this.publisher
      .publish(kept)
      .catch((error: unknown) =>
        this.logger.error({ err: error }, 'the history checkpoint could not be published (it is kept in the database)'),
      );
    return kept;
  }

  list(page: number, pageSize: number): Promise<{ items: SignedCheckpoint[]; total: number }> {
    return this.chain.checkpoints({ limit: pageSize, offset: (page - 1) * pageSize });
  }
}
