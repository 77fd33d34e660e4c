import pg from 'pg';
import { randomUUID } from 'node:crypto';
import {
  type AllSubscription,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type StreamAppend,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeToAllOptions,
  WrongExpectedRevisionError,
} from '../../application/ports/eventStore.js';
import { PgNotificationListener } from './pgNotifications.js';
import { followAll } from '../eventStoreFollower.js';
import { inject, injectable } from '../../application/injection.js';
import { DATABASE_URL, PG_POOL } from './tokens.js';

interface PendingAppend {
  streamName: string;
  expected: ExpectedRevision;
  /** The append before it in an appendInOrder: this one is made only if that one is. */
  after?: PendingAppend;
  events: Array<Required<Pick<NewEvent, 'id' | 'type' | 'data'>> & { metadata: object }>;
  resolve(result: AppendResult): void;
  reject(error: unknown): void;
}

type BatchResult =
  | { ok: true; revision: number; position: number | string }
  | { ok: false; actual: number; empty?: boolean; skipped?: boolean };

/** An append of an appendInOrder not made because one before it was not. */
class DependencyFailed extends Error {
  constructor() {
    super('not appended: an earlier append of the same appendInOrder failed');
  }
}

interface EventRow {
  global_position: string;
  event_id: string;
  stream_name: string;
  stream_revision: string;
  type: string;
  data: unknown;
  metadata: Record<string, unknown>;
  recorded_at: Date;
}

const MAX_BATCH = 256;
const columns = 'global_position, event_id, stream_name, stream_revision, type, data, metadata, recorded_at';

/**
 * PostgreSQL event store. Appends that arrive while a commit is in flight are grouped into
 * the next transaction (group commit): one round trip and one WAL flush serve many writers,
 * while each append keeps its own expected-revision check and its own result.
 */
@injectable()
export class PgEventStore implements EventStore {
  private queue: PendingAppend[] = [];
  private flushing = false;
  private readonly listener: PgNotificationListener;

  constructor(
    @inject(PG_POOL) private readonly pool: pg.Pool,
    @inject(DATABASE_URL) connectionString: string,
  ) {
    this.listener = new PgNotificationListener(connectionString, ['es_events']);
  }

  append(streamName: string, events: NewEvent[], expectedRevision: ExpectedRevision): Promise<AppendResult> {
    return this.appendInOrder([{ streamName, events, expectedRevision }]).then((results) => results[0]!);
  }

  /** Queued together, so they go into one batch: one transaction, each made only if the one before was. */
  appendInOrder(appends: StreamAppend[]): Promise<AppendResult[]> {
    if (appends.length === 0 || appends.some((a) => a.events.length === 0))
      return Promise.reject(new Error('append needs at least one event'));
    if (appends.length > MAX_BATCH) return Promise.reject(new Error(`at most ${MAX_BATCH} appends in order`));
    let previous: PendingAppend | undefined;
    const results = appends.map(
      (a) =>
        new Promise<AppendResult>((resolve, reject) => {
          const pending: PendingAppend = {
            streamName: a.streamName,
            expected: a.expectedRevision,
            after: previous,
            events: a.events.map((e) => ({
              id: e.id ?? randomUUID(),
              type: e.type,
              data: e.data,
              metadata: e.metadata ?? {},
            })),
            resolve,
            reject,
          };
          this.queue.push(pending);
          previous = pending;
        }),
    );
    if (!this.flushing) void this.flush();
    // The first failure is the answer; the appends after it fail for its sake and say nothing more.
    return Promise.all(results);
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.queue.length > 0) {
        // An appendInOrder is never cut in two: its appends share one transaction.
        let size = Math.min(MAX_BATCH, this.queue.length);
        while (size < this.queue.length && this.queue[size]!.after !== undefined && size > 1) size--;
        const batch = this.queue.splice(0, size);
        try {
          await this.appendBatch(batch);
        } catch {
          // A batch fails as a whole on errors such as two new streams of the same name
          // created concurrently by another process, or a duplicate event id. Retried one by
          // one, each append gets its own outcome.
          const failed = new Set<PendingAppend>();
          for (const one of batch) {
            try {
              if (one.after && failed.has(one.after)) throw new DependencyFailed();
              await this.appendBatch([one]);
            } catch (error) {
              failed.add(one);
              one.reject(error instanceof DependencyFailed ? error : await this.explainFailure(one, error));
            }
          }
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  private async appendBatch(batch: PendingAppend[]): Promise<void> {
    const index = new Map(batch.map((a, i) => [a, i]));
    const payload = batch.map((a) => ({
      stream: a.streamName,
      expected: String(a.expected),
      events: a.events,
      ...(a.after && index.has(a.after) ? { after: index.get(a.after) } : {}),
    }));
    const { rows } = await this.pool.query<{ results: BatchResult[] }>('SELECT es_append_batch($1::jsonb) AS results', [
      JSON.stringify(payload),
    ]);
    const results = rows[0]!.results;
    batch.forEach((append, i) => {
      const result = results[i]!;
      if (result.ok) {
        append.resolve({ nextExpectedRevision: result.revision, lastGlobalPosition: BigInt(result.position) });
      } else if (result.skipped) {
        append.reject(new DependencyFailed());
      } else {
        append.reject(
          new WrongExpectedRevisionError(
            append.streamName,
            append.expected,
            result.actual < 0 ? 'no_stream' : result.actual,
          ),
        );
      }
    });
  }

  private async explainFailure(append: PendingAppend, error: unknown): Promise<unknown> {
    if ((error as { code?: string }).code !== '23505') return error;
    const { rows } = await this.pool.query<{ revision: string }>(
      'SELECT revision FROM es_streams WHERE stream_name = $1',
      [append.streamName],
    );
    const actual = rows[0] ? Number(rows[0].revision) : 'no_stream';
    return new WrongExpectedRevisionError(append.streamName, append.expected, actual);
  }

  async readStream(streamName: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const { rows } = await this.pool.query<EventRow>(
      `SELECT ${columns} FROM es_events WHERE stream_name = $1 AND stream_revision >= $2
       ORDER BY stream_revision LIMIT $3`,
      [streamName, options.fromRevision ?? 0, options.maxCount ?? null],
    );
    return rows.map(toRecorded);
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const without = options.withoutData ?? [];
    // Each path left out is a parameter: `data #- $3 #- $4 …` removes them inside PostgreSQL.
    const data = without.reduce((expression, _path, i) => `${expression} #- $${i + 3}::text[]`, 'data');
    const { rows } = await this.pool.query<EventRow>(
      `SELECT ${columns.replace('data,', `${data} AS data,`)} FROM es_events WHERE global_position > $1 ORDER BY global_position LIMIT $2`,
      [String(options.after ?? -1n), options.maxCount ?? 1000, ...without.map((path) => [...path])],
    );
    return rows.map(toRecorded);
  }

  async headPosition(): Promise<bigint> {
    const { rows } = await this.pool.query<{ position: string }>('SELECT position FROM es_global WHERE id = 1');
    return BigInt(rows[0]?.position ?? -1);
  }

  subscribeToAll(options: SubscribeToAllOptions): AllSubscription {
    void this.listener.start();
    return followAll(this, options, (wake) => {
      this.listener.on('es_events', wake);
      this.listener.on('connected', wake);
      return () => {
        this.listener.off('es_events', wake);
        this.listener.off('connected', wake);
      };
    });
  }

  async close(): Promise<void> {
    await this.listener.close();
  }
}

function toRecorded(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    streamName: row.stream_name,
    revision: Number(row.stream_revision),
    globalPosition: BigInt(row.global_position),
    type: row.type,
    data: row.data,
    metadata: row.metadata,
    recordedAt: row.recorded_at.toISOString(),
  };
}
