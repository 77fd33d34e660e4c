import { parentPort, workerData } from 'node:worker_threads';
import pg from 'pg';
import { pino } from 'pino';
import type { EventStore } from '../../application/ports/eventStore.js';
import type { ChainLink } from '../../application/ports/historyChain.js';
import { HistoryChainer } from '../../application/history/historyChainer.js';
import { PgEventStore } from '../postgres/pgEventStore.js';
import { PgHistoryChainStore } from '../postgres/pgHistoryChain.js';
import { followAll } from '../eventStoreFollower.js';
import type { ChainerWorkerData, ChainerWorkerMessage } from './threadedHistoryChainer.js';

/** The chainer thread (threadedHistoryChainer.ts): HistoryChainer on connections of its own, reporting each head. */
class ReportingChainer extends HistoryChainer {
  protected override advanced(head: ChainLink | null): void {
    super.advanced(head);
    const message: ChainerWorkerMessage = {
      kind: 'head',
      head: head && { ...head, position: String(head.position) },
    };
    parentPort!.postMessage(message);
  }
}

/**
 * The PostgreSQL log followed by polling at the chainer's pace rather than on NOTIFY: the chainer
 * waits that long between batches anyway, and a LISTEN would be one more connection per process.
 */
function polled(store: PgEventStore, everyMs: number): EventStore {
  const following: Pick<EventStore, 'subscribeToAll'> = {
    subscribeToAll: (options) =>
      followAll(store, options, (wake) => {
        // A pace of 0 (chain at once) still polls at a bounded rate.
        const timer = setInterval(wake, Math.max(everyMs, 25));
        return () => clearInterval(timer);
      }),
  };
  // Everything else as the store does it (it is the prototype).
  return Object.assign(Object.create(store) as EventStore, following);
}

async function run({ connection, options, logLevel }: ChainerWorkerData): Promise<void> {
  // One connection reads and writes in turn: the chainer never runs two queries at once.
  const pool = new pg.Pool({ connectionString: connection.databaseUrl, max: 1 });
  const events: EventStore = connection.eventStoreUrl
    ? new (await import('../eventstoredb/esdbEventStore.js')).EsdbEventStore(connection.eventStoreUrl)
    : polled(new PgEventStore(pool, connection.databaseUrl), options.paceMs);
  const logger = pino(
    { level: logLevel },
    { write: (record: string) => parentPort!.postMessage({ kind: 'log', record } satisfies ChainerWorkerMessage) },
  );
  const chainer = new ReportingChainer(events, new PgHistoryChainStore(pool), logger, options);
  parentPort!.once('message', () => {
    void (async () => {
      await chainer.stop();
      await events.close();
      await pool.end();
      parentPort!.close();
    })();
  });
  await chainer.start();
}

void run(workerData as ChainerWorkerData);
