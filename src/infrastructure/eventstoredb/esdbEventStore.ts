import { randomUUID } from 'node:crypto';
import {
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  START,
  StreamNotFoundError,
  excludeSystemEvents,
  jsonEvent,
  type AllStreamResolvedEvent,
  type JSONType,
  type Position,
  type ReadPosition,
  type StreamingRead,
} from '@eventstore/db-client';
import type {
  AllSubscription,
  AppendResult,
  EventStore,
  ExpectedRevision,
  NewEvent,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  StreamAppend,
  SubscribeToAllOptions,
} from '../../application/ports/eventStore.js';
import {
  commitPositionOf,
  isSystemEvent,
  toEsdbExpectedRevision,
  toPortAppendError,
  toRecordedEvent,
} from './esdbMapping.js';
import { OrderedBatchDelivery } from './orderedBatchDelivery.js';

const DEFAULT_READ_ALL_COUNT = 1000;
/** $all pages are read in at least this size: system events are skipped client-side. */
const MIN_PAGE = 100;

/**
 * Position to start a $all read or subscription "after" `after`. Reads from a position are
 * inclusive on the server (subscriptions are exclusive), so callers also drop events at or
 * before `after` themselves. For events written by gRPC clients commit = prepare position.
 */
function fromPosition(after: bigint | undefined): ReadPosition {
  return after === undefined || after < 0n ? START : { commit: after, prepare: after };
}

/**
 * Feeds each item of a read to `visit` until it returns true (stop) or the read ends; an early
 * stop cancels the gRPC call rather than leaving it streaming. Returns how many were read.
 */
async function visitUntil<E>(read: StreamingRead<E>, visit: (item: E) => boolean): Promise<number> {
  let count = 0;
  for await (const item of read) {
    count++;
    if (visit(item)) {
      await read.cancel();
      break;
    }
  }
  return count;
}

/** Events in EventStoreDB; global positions are $all commit positions. */
export class EsdbEventStore implements EventStore {
  private readonly client: EventStoreDBClient;

  constructor(connectionString: string) {
    this.client = EventStoreDBClient.connectionString(connectionString);
  }

  /** One after the other: EventStoreDB has no transaction across streams. */
  async appendInOrder(appends: StreamAppend[]): Promise<AppendResult[]> {
    const results: AppendResult[] = [];
    for (const a of appends) results.push(await this.append(a.streamName, a.events, a.expectedRevision));
    return results;
  }

  async append(streamName: string, events: NewEvent[], expectedRevision: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    const data = events.map((e) =>
      jsonEvent({
        id: e.id ?? randomUUID(),
        type: e.type,
        // The client serialises with JSON.stringify; any JSON value round-trips.
        data: (e.data ?? null) as JSONType,
        metadata: e.metadata ?? {},
      }),
    );
    try {
      const result = await this.client.appendToStream(streamName, data, {
        expectedRevision: toEsdbExpectedRevision(expectedRevision),
      });
      const position = result.position?.commit ?? (await this.lastPositionOf(streamName));
      return { nextExpectedRevision: Number(result.nextExpectedRevision), lastGlobalPosition: position };
    } catch (error) {
      throw toPortAppendError(error, streamName, expectedRevision);
    }
  }

  /** Fallback for servers that don't report the append's position. */
  private async lastPositionOf(streamName: string): Promise<bigint> {
    let position: bigint | null = null;
    await visitUntil(
      this.client.readStream(streamName, { direction: BACKWARDS, fromRevision: END, maxCount: 1 }),
      (resolved) => {
        position = commitPositionOf(resolved);
        return true;
      },
    );
    if (position === null) throw new Error(`Stream ${streamName} is empty right after an append`);
    return position;
  }

  async readStream(streamName: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    if (options.maxCount === 0) return [];
    const events: RecordedEvent[] = [];
    try {
      const read = this.client.readStream(streamName, {
        direction: FORWARDS,
        fromRevision: BigInt(options.fromRevision ?? 0),
        ...(options.maxCount === undefined ? {} : { maxCount: options.maxCount }),
      });
      await visitUntil(read, (resolved) => {
        const event = toRecordedEvent(resolved);
        if (event) events.push(event);
        return false;
      });
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return events;
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const wanted = options.maxCount ?? DEFAULT_READ_ALL_COUNT;
    const events: RecordedEvent[] = [];
    let after = options.after ?? -1n;
    // System events may fill whole pages, so keep paging until we have `wanted` of ours or
    // reach the end of $all.
    while (events.length < wanted) {
      const pageSize = Math.max(wanted - events.length + 1, MIN_PAGE);
      const read = await visitUntil(
        this.client.readAll({ direction: FORWARDS, fromPosition: fromPosition(after), maxCount: pageSize }),
        (resolved) => {
          if (!resolved.event) return false;
          const position = commitPositionOf(resolved);
          if (position <= after) return false;
          after = position;
          if (!isSystemEvent(resolved.event)) events.push(toRecordedEvent(resolved)!);
          return events.length === wanted;
        },
      );
      if (read < pageSize) break;
    }
    return events;
  }

  async headPosition(): Promise<bigint> {
    // The newest of our events: walk $all backwards past EventStoreDB's own records.
    let from: ReadPosition = END;
    for (;;) {
      let found: bigint | null = null;
      let oldest: Position | null = null;
      const read = await visitUntil(
        this.client.readAll({ direction: BACKWARDS, fromPosition: from, maxCount: MIN_PAGE }),
        (resolved) => {
          if (!resolved.event) return false;
          oldest = resolved.event.position;
          if (isSystemEvent(resolved.event)) return false;
          found = commitPositionOf(resolved);
          return true;
        },
      );
      if (found !== null) return found;
      if (read < MIN_PAGE || oldest === null) return -1n;
      // Backward reads are exclusive of their start position.
      from = oldest;
    }
  }

  subscribeToAll(options: SubscribeToAllOptions): AllSubscription {
    let position = options.after ?? -1n;
    let stopped = false;
    const subscription = this.client.subscribeToAll({
      fromPosition: fromPosition(options.after),
      filter: excludeSystemEvents(),
    });
    const delivery = new OrderedBatchDelivery<RecordedEvent>({
      batchSize: options.batchSize ?? 500,
      deliver: (events) => options.onEvents(events),
      onFailure: (error) => fail(error),
      flow: subscription,
    });

    let stopping: Promise<void> | null = null;
    const shutdown = () =>
      (stopping ??= (async () => {
        stopped = true;
        subscription.removeListener('data', onData);
        await subscription.unsubscribe().catch(() => undefined);
        await delivery.close();
      })());
    const fail = (error: unknown) => {
      if (stopped) return;
      void shutdown();
      options.onError?.(error);
    };
    const onData = (resolved: AllStreamResolvedEvent) => {
      if (stopped || !resolved.event) return;
      try {
        const eventPosition = commitPositionOf(resolved);
        // Drop anything at or before what was already delivered (a start position that the
        // server treats inclusively, or a replay), and $-streams the type filter lets through.
        if (eventPosition <= position) return;
        position = eventPosition;
        if (isSystemEvent(resolved.event)) return;
        delivery.push(toRecordedEvent(resolved)!);
      } catch (error) {
        fail(error);
      }
    };

    subscription.on('data', onData);
    subscription.on('error', (error) => fail(error));
    subscription.on('end', () => fail(new Error('EventStoreDB subscription to $all ended')));

    return { stop: shutdown };
  }

  async close(): Promise<void> {
    await this.client.dispose();
  }
}
