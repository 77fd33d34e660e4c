import { randomUUID } from 'node:crypto';
import { fold, type Decider, type Event } from '../domain/decider.js';
import { toDomainEvent } from './commandHandler.js';
import { derivedId } from './derivedId.js';
import type { EventMetadata, RecordedEvent } from './ports/eventStore.js';

/*
 * A request made with an `Idempotency-Key` marks the events it records (EventMetadata.idempotency,
 * set at the HTTP edge). The mark commits with the events, in the same append, whatever the
 * store: so when the process dies after the append and before the key's result is kept, a retry
 * of the same request (same tenant, key and fingerprint) finds what the first one did in the
 * stream it acts on, and answers it instead of doing it again. The domain never sees the mark.
 */

const sameRequest = (recorded: EventMetadata, metadata: EventMetadata): boolean =>
  recorded.idempotency?.key === metadata.idempotency?.key &&
  recorded.idempotency?.request === metadata.idempotency?.request &&
  recorded.tenantId === metadata.tenantId;

/**
 * The id of the aggregate a request creates. With an Idempotency-Key it is derived from the
 * tenant, the key and the request, so a retry names the same stream (and finds it made, or
 * loses the race for it); a reused key with another request names another. Otherwise new.
 */
export function creationId(kind: string, tenantId: string, metadata: EventMetadata): string {
  const mark = metadata.idempotency;
  return mark ? derivedId('idempotent', kind, tenantId, mark.key, mark.request) : randomUUID();
}

/**
 * What the same request already did to this stream: the state right after the last event it
 * recorded (the first request's result), or null when it recorded none here or has no key.
 * `metadata` is the retry's, with its tenantId.
 */
export function effectOf<State, E extends Event>(
  decider: Pick<Decider<State, unknown, E>, 'evolve' | 'initialState'>,
  events: RecordedEvent[],
  metadata: EventMetadata,
): State | null {
  if (!metadata.idempotency) return null;
  let last = -1;
  events.forEach((event, i) => {
    if (sameRequest(event.metadata, metadata)) last = i;
  });
  return last < 0 ? null : fold(decider, events.slice(0, last + 1).map(toDomainEvent<E>));
}
