import {
  ANY,
  NO_STREAM,
  STREAM_EXISTS,
  WrongExpectedVersionError,
  type AllStreamResolvedEvent,
  type AppendExpectedRevision,
  type ResolvedEvent,
} from '@eventstore/db-client';
import {
  type EventMetadata,
  type ExpectedRevision,
  type RecordedEvent,
  WrongExpectedRevisionError,
} from '../../application/ports/eventStore.js';

/** The port's expected revision in EventStoreDB's terms (stream revisions are bigints there). */
export function toEsdbExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  switch (expected) {
    case 'any':
      return ANY;
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    default: {
      if (typeof expected === 'number') {
        if (!Number.isSafeInteger(expected) || expected < 0)
          throw new RangeError(`Invalid expected revision ${expected}`);
        return BigInt(expected);
      }
      const exhaustive: never = expected;
      throw new Error(`Unknown expected revision ${String(exhaustive)}`);
    }
  }
}

/**
 * Turns the client's concurrency error into the port's, keeping the stream's actual revision
 * when the server reported it; any other error is returned unchanged.
 */
export function toPortAppendError(error: unknown, streamName: string, expected: ExpectedRevision): unknown {
  if (!(error instanceof WrongExpectedVersionError)) return error;
  const actual =
    error.actualVersion === NO_STREAM || typeof error.actualVersion !== 'bigint'
      ? 'no_stream'
      : Number(error.actualVersion);
  return new WrongExpectedRevisionError(streamName, expected, actual);
}

/** System records ($stats, $metadata, link events, $-streams) are EventStoreDB's, not ours. */
export function isSystemEvent(event: { type: string; streamId: string }): boolean {
  return event.type.startsWith('$') || event.streamId.startsWith('$');
}

/**
 * The global position of a read event. Modern servers write every event in its own implicit
 * transaction, so the commit position is unique per event and strictly increasing.
 */
export function commitPositionOf(resolved: ResolvedEvent | AllStreamResolvedEvent): bigint {
  const position = resolved.event?.position?.commit ?? resolved.commitPosition;
  if (position === undefined) {
    // Only servers older than 22.6 omit positions on stream reads.
    throw new Error('EventStoreDB returned an event without a position; version 22.6 or later is required');
  }
  return position;
}

/** A resolved (non-link) event in the port's shape, or null when it carries no event. */
export function toRecordedEvent(resolved: ResolvedEvent | AllStreamResolvedEvent): RecordedEvent | null {
  const event = resolved.event;
  if (!event) return null;
  return {
    id: event.id,
    streamName: event.streamId,
    revision: Number(event.revision),
    globalPosition: commitPositionOf(resolved),
    type: event.type,
    data: event.data,
    metadata: toMetadata(event.metadata),
    recordedAt: event.created.toISOString(),
  };
}

/** We always write metadata as a JSON object; anything else (foreign writers) reads as empty. */
function toMetadata(metadata: unknown): EventMetadata {
  return typeof metadata === 'object' &&
    metadata !== null &&
    !Array.isArray(metadata) &&
    !(metadata instanceof Uint8Array)
    ? (metadata as EventMetadata)
    : {};
}
