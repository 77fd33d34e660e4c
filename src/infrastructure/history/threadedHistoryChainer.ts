import { Worker } from 'node:worker_threads';
import { once } from 'node:events';
import { pino, type Logger, type Level } from 'pino';
import type { EventStore } from '../../application/ports/eventStore.js';
import type { ChainLink, HistoryChainStore } from '../../application/ports/historyChain.js';
import { HistoryChainer, type HistoryChainerOptions } from '../../application/history/historyChainer.js';

/** Where the worker finds the log and the chain: connections of its own. */
export interface ChainerConnection {
  databaseUrl: string;
  eventStoreUrl: string | null;
}

export interface ChainerWorkerData {
  connection: ChainerConnection;
  options: HistoryChainerOptions;
  logLevel: string;
}

/** What the worker tells its owner: where the chain stands, or a log record of its own. */
export type ChainerWorkerMessage =
  | {
      kind: 'head';
      head: { position: string; seq: number; eventId: string; digest: Uint8Array; hash: Uint8Array } | null;
    }
  | { kind: 'log'; record: string };

const ENTRY = new URL('./chainerWorker.js', import.meta.url);
const RESTART_DELAY_MS = 1000;

/**
 * The chainer of a running service, in a worker thread with its own database connections: reading
 * every event back, canonicalising and hashing it is steady work the size of the write load, and
 * on the main thread it held up requests and appends (a batch of a thousand events at once). The
 * worker runs the same HistoryChainer and reports each new head, which is what `chainHead` and
 * `catchUp` here wait on; `status` reads the chain store as before.
 */
export class ThreadedHistoryChainer extends HistoryChainer {
  private worker: Worker | null = null;
  private workerRestart: NodeJS.Timeout | null = null;

  constructor(
    events: EventStore,
    chain: HistoryChainStore,
    logger: Logger,
    options: HistoryChainerOptions,
    private readonly connection: ChainerConnection,
  ) {
    super(events, chain, logger, options);
  }

  protected override async follow(): Promise<void> {
    if (!this.running) return;
    this.advanced(await this.chain.head());
    const data: ChainerWorkerData = { connection: this.connection, options: this.options, logLevel: this.logger.level };
    const worker = new Worker(ENTRY, { workerData: data });
    this.worker = worker;
    // Following once the thread has read the chain's head (its first report), or has failed.
    const following = new Promise<void>((resolve) => {
      worker.once('message', () => resolve());
      worker.once('exit', () => resolve());
    });
    worker.on('message', (message: ChainerWorkerMessage) => this.received(message));
    worker.on('error', (error) => this.logger.error({ err: error }, 'the history chainer thread failed'));
    worker.on('exit', (code) => {
      if (this.worker !== worker) return;
      this.worker = null;
      if (!this.running) return;
      this.logger.error({ code }, 'the history chainer thread stopped; it starts again from the chain head');
      this.workerRestart = setTimeout(() => {
        this.workerRestart = null;
        this.follow().catch((e: unknown) => this.logger.error({ err: e }, 'history chainer restart failed'));
      }, RESTART_DELAY_MS);
    });
    await following;
  }

  private received(message: ChainerWorkerMessage): void {
    switch (message.kind) {
      case 'head':
        this.advanced(message.head && toLink(message.head));
        return;
      case 'log': {
        const { level, msg, ...fields } = JSON.parse(message.record) as { level: number; msg?: string };
        const label = (pino.levels.labels[level] ?? 'info') as Level;
        this.logger[label](fields, msg ?? '');
        return;
      }
    }
  }

  override async stop(): Promise<void> {
    this.running = false;
    if (this.workerRestart) clearTimeout(this.workerRestart);
    this.workerRestart = null;
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    const exited = once(worker, 'exit');
    worker.postMessage('stop');
    await exited;
  }
}

function toLink(head: NonNullable<Extract<ChainerWorkerMessage, { kind: 'head' }>['head']>): ChainLink {
  return {
    position: BigInt(head.position),
    seq: head.seq,
    eventId: head.eventId,
    digest: Buffer.from(head.digest),
    hash: Buffer.from(head.hash),
  };
}
