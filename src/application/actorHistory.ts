import type { EventStore, RecordedEvent } from './ports/eventStore.js';
import { actorOf, type Actor } from './actor.js';
import { fold } from '../domain/decider.js';
import { apiKeyDecider, apiKeyStream, type ApiKeyEvent } from '../domain/apiKey/apiKey.js';
import { as4MessageStream, type As4MessageReceived } from './documents/as4MessageRecord.js';
import { toDomainEvent } from './commandHandler.js';

/**
 * The actors of some events, with what older events did not record filled in from the log where it
 * tells: a key's name as it was when the event was recorded (its own stream, up to that position),
 * and the access point an AS4 message came from (the record of the message, by its id). Asked of the
 * events of one document, each key's and message's stream is read once.
 */
export async function actorsOf(store: EventStore, events: readonly RecordedEvent[]): Promise<Actor[]> {
  const keys = new Map<string, Promise<RecordedEvent[]>>();
  const messages = new Map<string, Promise<string | null>>();
  const keyEvents = (keyId: string) => {
    let read = keys.get(keyId);
    if (!read) keys.set(keyId, (read = store.readStream(apiKeyStream(keyId))));
    return read;
  };
  const senderOf = (messageId: string) => {
    let read = messages.get(messageId);
    if (!read) {
      read = store.readStream(as4MessageStream(messageId)).then((recorded) => {
        const record = recorded.find((e) => e.type === 'As4MessageReceived');
        return record ? (record.data as As4MessageReceived['data']).sender_ap : null;
      });
      messages.set(messageId, read);
    }
    return read;
  };
  return Promise.all(
    events.map(async (event) => {
      const actor = actorOf(event.metadata);
      switch (actor.kind) {
        case 'api_key':
        case 'organization_admin': {
          if (actor.keyName !== null) return actor;
          const history = (await keyEvents(actor.keyId)).filter((e) => e.globalPosition <= event.globalPosition);
          const state = fold(apiKeyDecider, history.map(toDomainEvent<ApiKeyEvent>));
          if (state.status === 'absent') return actor;
          // The key's own record says whose it is (the event's tenant may be one an admin key acted on).
          return state.owner.kind === 'tenant'
            ? { kind: 'api_key', keyId: actor.keyId, keyName: state.name, tenantId: state.owner.tenant_id }
            : {
                kind: 'organization_admin',
                keyId: actor.keyId,
                keyName: state.name,
                organizationId: state.owner.organization_id,
              };
        }
        case 'access_point': {
          if (actor.seatId !== null) return actor;
          const messageId = typeof event.metadata.correlationId === 'string' ? event.metadata.correlationId : null;
          const seatId = messageId ? await senderOf(messageId) : null;
          return seatId ? { ...actor, seatId } : actor;
        }
        case 'operator':
        case 'system':
        case 'unknown':
          return actor;
        default:
          return actor satisfies never;
      }
    }),
  );
}
