import type { Actor } from '../actor.js';

/**
 * The event store port. Every aggregate is a stream of events; every event also has one
 * position in a single global order, which projections and process managers follow.
 */

export interface EventMetadata {
  tenantId?: string;
  organizationId?: string;
  /**
   * Who caused the event (actor.ts). Events recorded before it was tagged carry a string here, or
   * nothing: read it with actorOf, which understands both.
   */
  actor?: Actor;
  /**
   * The API key's name, recorded beside a 'key:<id>' actor string by events written before the
   * actor was tagged (the tagged actor carries the name itself).
   */
  actorName?: string;
  correlationId?: string;
  causationId?: string;
  requestId?: string;
  /**
   * The request the event was recorded for, when it came with an `Idempotency-Key`: the key and a
   * hash of the request. It is kept with the event, so it commits with it in every store, and a
   * retry of the request finds what the first one did (application/idempotentEffect.ts).
   */
  idempotency?: IdempotencyMark;
  [key: string]: unknown;
}

/** An `Idempotency-Key` (per tenant) and the fingerprint of the request it came with. */
export interface IdempotencyMark {
  key: string;
  request: string;
}

/** An event about to be appended. `id` is optional: the store assigns a uuid when absent. */
export interface NewEvent<Type extends string = string, Data = unknown> {
  id?: string;
  type: Type;
  data: Data;
  metadata?: EventMetadata;
}

export interface RecordedEvent<Type extends string = string, Data = unknown> {
  id: string;
  streamName: string;
  /** 0-based revision of this event within its stream. */
  revision: number;
  /** Position in the global order; strictly increasing in commit order. */
  globalPosition: bigint;
  type: Type;
  data: Data;
  metadata: EventMetadata;
  /** ISO 8601 time the event was recorded. */
  recordedAt: string;
}

/**
 * What the caller believes about the stream before appending:
 * a revision number (the stream's last event has exactly that revision),
 * 'no_stream' (it has no events), 'stream_exists', or 'any'.
 */
export type ExpectedRevision = number | 'no_stream' | 'stream_exists' | 'any';

export interface AppendResult {
  /** Revision of the last appended event: the expected revision for the next append. */
  nextExpectedRevision: number;
  lastGlobalPosition: bigint;
}

export interface ReadStreamOptions {
  fromRevision?: number;
  maxCount?: number;
}

/**
 * Paths into event data (e.g. ['ubl'], ['attachment', 'file_data']) that a reader of the whole log
 * does not use: large payloads. An adapter may leave them out of what it returns (the PostgreSQL
 * adapter does, so megabytes of UBL are neither sent nor parsed for the projections).
 */
export type DataPaths = ReadonlyArray<ReadonlyArray<string>>;

export interface ReadAllOptions {
  /** Exclusive: events strictly after this position. Omit to start from the beginning. */
  after?: bigint;
  maxCount?: number;
  withoutData?: DataPaths;
}

export interface AllSubscription {
  stop(): Promise<void>;
}

export interface SubscribeToAllOptions {
  after?: bigint;
  /** Largest batch handed to onEvents; catch-up reads in batches of this size. */
  batchSize?: number;
  withoutData?: DataPaths;
  /**
   * Called in global order with one or more events; the next batch is not delivered until the
   * returned promise resolves. A rejection stops the subscription and reaches onError.
   */
  onEvents(events: RecordedEvent[]): Promise<void>;
  onError?(error: unknown): void;
}

/** One append of `appendInOrder`. */
export interface StreamAppend {
  streamName: string;
  events: NewEvent[];
  expectedRevision: ExpectedRevision;
}

export interface EventStore {
  append(streamName: string, events: NewEvent[], expectedRevision: ExpectedRevision): Promise<AppendResult>;
  /**
   * Appends to several streams in order: each append is made only if every earlier one
   * succeeded (a reservation, then what it reserves for). Rejects with the first failure; the
   * appends before it stay made. Adapters that can make them in one commit do (PostgreSQL: one
   * transaction, one WAL flush), others one after the other.
   */
  appendInOrder(appends: StreamAppend[]): Promise<AppendResult[]>;
  /** Events of one stream in revision order; an absent stream reads as []. */
  readStream(streamName: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /** Events of all streams in global order. */
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  /** Catch up from `after`, then follow new events live. */
  subscribeToAll(options: SubscribeToAllOptions): AllSubscription;
  /** Position of the newest event, or -1n when the store is empty. */
  headPosition(): Promise<bigint>;
  close(): Promise<void>;
}

export class WrongExpectedRevisionError extends Error {
  constructor(
    readonly streamName: string,
    readonly expected: ExpectedRevision,
    readonly actual: number | 'no_stream',
  ) {
    super(`Stream ${streamName}: expected revision ${String(expected)}, actual ${String(actual)}`);
    this.name = 'WrongExpectedRevisionError';
  }
}

export const EVENT_STORE = Symbol('EventStore');
/**
 * The adapter's own event store, as recorded: the composition root binds the profile's adapter
 * here, and EVENT_STORE to the same store read through the upcasters (UpcastingEventStore).
 */
export const RECORDED_EVENT_STORE = Symbol('RecordedEventStore');
