import type { Logger } from 'pino';
import { inject, injectable } from '../injection.js';
import {
  RECORDED_EVENT_STORE,
  type AllSubscription,
  type EventStore,
  type RecordedEvent,
} from '../ports/eventStore.js';
import { HISTORY_CHAIN_STORE, type ChainLink, type HistoryChainStore } from '../ports/historyChain.js';
import { LOGGER } from '../ports/logger.js';
import { chainHash, digestOf, GENESIS_HASH, type ChainedEvent } from './canonicalEvent.js';

export interface HistoryChainerOptions {
  /**
   * After a batch that did not fill up, the chainer waits this long before it reads again: under
   * load one chain write then covers many appends. It bounds how long an event stays unchained
   * (this, plus the follower's wake-up: at once on PostgreSQL's NOTIFY, within a second otherwise).
   */
  paceMs: number;
  batchSize: number;
}

export const HISTORY_CHAINER_OPTIONS = Symbol('HistoryChainerOptions');

const RESTART_DELAY_MS = 1000;

/** The links of `events` (the next ones of the log, in order) on top of the chain's `head`. */
export function linksFor(events: readonly ChainedEvent[], head: ChainLink | null): ChainLink[] {
  let previous = head?.hash ?? GENESIS_HASH;
  let seq = head ? head.seq + 1 : 0;
  return events.map((event): ChainLink => {
    const { digest } = digestOf(event);
    const hash = chainHash(previous, digest);
    previous = hash;
    return { position: event.globalPosition, seq: seq++, eventId: event.id, digest, hash };
  });
}

/** Another process chained the same positions first: this one starts again from the stored head. */
class ChainMovedError extends Error {
  constructor() {
    super('the chain moved on in another process');
  }
}

/**
 * Links every event of the global log to the one before it, right after it is committed: it
 * follows the log in its committed order (as the projections do) with the events exactly as
 * recorded (not upcast), and writes each event's digest and chain hash to the chain store. The
 * append path does not wait for it, and appends are not serialised by it (docs/internals/proving-history.md).
 *
 * Several processes may run it: the chain store takes a batch only on top of the head it was
 * computed from, and the loser of a race starts again from the winner's head.
 */
@injectable()
export class HistoryChainer {
  private subscription: AllSubscription | null = null;
  private head: ChainLink | null = null;
  protected running = false;
  private restartTimer: NodeJS.Timeout | null = null;
  private readonly waiters = new Set<() => void>();
  protected readonly logger: Logger;

  constructor(
    @inject(RECORDED_EVENT_STORE) protected readonly events: EventStore,
    @inject(HISTORY_CHAIN_STORE) protected readonly chain: HistoryChainStore,
    @inject(LOGGER) logger: Logger,
    @inject(HISTORY_CHAINER_OPTIONS) protected readonly options: HistoryChainerOptions,
  ) {
    this.logger = logger.child({ component: 'history-chain' });
  }

  async start(): Promise<void> {
    this.running = true;
    await this.follow();
  }

  /** Follows the log from the chain's head, here (a subclass may do it elsewhere and report `advanced`). */
  protected async follow(): Promise<void> {
    if (!this.running) return;
    this.advanced(await this.chain.head());
    this.subscription = this.events.subscribeToAll({
      after: this.head?.position ?? -1n,
      batchSize: this.options.batchSize,
      onEvents: async (events) => {
        await this.chainBatch(events);
        if (events.length < this.options.batchSize && this.options.paceMs > 0) {
          await new Promise((resolve) => setTimeout(resolve, this.options.paceMs));
        }
      },
      onError: (error) => {
        if (!this.running) return;
        if (error instanceof ChainMovedError)
          this.logger.debug('chained meanwhile by another process; following again');
        else this.logger.error({ err: error }, 'the history chainer failed; it starts again from the chain head');
        this.subscription = null;
        this.restartTimer = setTimeout(() => {
          this.restartTimer = null;
          this.follow().catch((e: unknown) => this.logger.error({ err: e }, 'history chainer restart failed'));
        }, RESTART_DELAY_MS);
      },
    });
  }

  private async chainBatch(events: RecordedEvent[]): Promise<void> {
    const from = this.head;
    const links = linksFor(events, from);
    if (!(await this.chain.append(links, from?.position ?? null))) throw new ChainMovedError();
    this.advanced(links[links.length - 1]!);
  }

  /** The chain stands at `head` (read, or just written): whoever waits for it looks again. */
  protected advanced(head: ChainLink | null): void {
    this.head = head;
    for (const waiter of this.waiters) waiter();
  }

  /** Where this process has the chain: the last link it wrote or read (null: nothing chained). */
  chainHead(): ChainLink | null {
    return this.head;
  }

  /** Where the chain stands against the log (positions as decimal strings; null: none). */
  async status(): Promise<{ chained_through: string | null; chained_events: number; log_head: string | null }> {
    const [head, logHead] = await Promise.all([this.chain.head(), this.events.headPosition()]);
    return {
      chained_through: head ? String(head.position) : null,
      chained_events: head ? head.seq + 1 : 0,
      log_head: logHead < 0n ? null : String(logHead),
    };
  }

  /**
   * Waits (bounded) until every event appended so far is chained, by this process or another.
   * False on timeout.
   */
  async catchUp(timeoutMs = 10_000): Promise<boolean> {
    const target = await this.events.headPosition();
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (target < 0n || (this.head && this.head.position >= target)) return true;
      // Another process may be the one chaining.
      const stored = await this.chain.head();
      if (stored && stored.position >= target) return true;
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await new Promise<void>((resolve) => {
        const done = () => {
          this.waiters.delete(done);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(done, Math.min(left, 100));
        this.waiters.add(done);
      });
    }
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    await this.subscription?.stop();
    this.subscription = null;
  }
}
