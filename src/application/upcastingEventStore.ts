import { inject, injectable } from './injection.js';
import {
  RECORDED_EVENT_STORE,
  type AllSubscription,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type StreamAppend,
  type SubscribeToAllOptions,
} from './ports/eventStore.js';

/**
 * Gives events recorded in an older shape today's shape as they are read. Events are never
 * rewritten in the store: what was recorded stays the record, and every reader (aggregates,
 * projections, process managers, the history) sees one shape.
 */
export interface Upcaster {
  /** Whether the event is of an older shape (cheap: called on every event read). */
  isOld(event: RecordedEvent): boolean;
  /**
   * Today's shape of an old event. `whole` reads the event again with every field, for one that a
   * lean read (ReadAllOptions.withoutData) left without the payloads the upcaster needs.
   */
  upcast(event: RecordedEvent, whole: () => Promise<RecordedEvent>): Promise<RecordedEvent>;
}

/** Injection token of the `Upcaster` every read of the log goes through. */
export const UPCASTER = Symbol('Upcaster');

/** What happens to events before they are appended (personal values are sealed: application/personalData). */
export interface AppendSealer {
  seal(streamName: string, events: NewEvent[]): Promise<NewEvent[]>;
}
export const APPEND_SEALER = Symbol('AppendSealer');

/**
 * The event store, read through an upcaster: every read takes this path. Every append takes the
 * sealer's: what an adapter stores is what it was given after sealing (PostgreSQL and EventStoreDB alike).
 */
@injectable()
export class UpcastingEventStore implements EventStore {
  constructor(
    @inject(RECORDED_EVENT_STORE) private readonly inner: EventStore,
    @inject(UPCASTER) private readonly upcaster: Upcaster,
    @inject(APPEND_SEALER) private readonly sealer?: AppendSealer,
  ) {}

  async append(streamName: string, events: NewEvent[], expectedRevision: ExpectedRevision): Promise<AppendResult> {
    return this.inner.append(streamName, await this.sealed(streamName, events), expectedRevision);
  }

  async appendInOrder(appends: StreamAppend[]): Promise<AppendResult[]> {
    const sealed: StreamAppend[] = [];
    for (const a of appends) sealed.push({ ...a, events: await this.sealed(a.streamName, a.events) });
    return this.inner.appendInOrder(sealed);
  }

  private sealed(streamName: string, events: NewEvent[]): Promise<NewEvent[]> | NewEvent[] {
    return this.sealer ? this.sealer.seal(streamName, events) : events;
  }

  async readStream(streamName: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> {
    return this.upcastAll(await this.inner.readStream(streamName, options));
  }

  async readAll(options?: ReadAllOptions): Promise<RecordedEvent[]> {
    return this.upcastAll(await this.inner.readAll(options));
  }

  subscribeToAll(options: SubscribeToAllOptions): AllSubscription {
    return this.inner.subscribeToAll({
      ...options,
      onEvents: async (events) => options.onEvents(await this.upcastAll(events)),
    });
  }

  headPosition(): Promise<bigint> {
    return this.inner.headPosition();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** In order, one at a time (an old event may store payloads); a batch of today's events passes as it is. */
  private async upcastAll(events: RecordedEvent[]): Promise<RecordedEvent[]> {
    if (!events.some((e) => this.upcaster.isOld(e))) return events;
    const out: RecordedEvent[] = [];
    for (const event of events)
      out.push(this.upcaster.isOld(event) ? await this.upcaster.upcast(event, () => this.whole(event)) : event);
    return out;
  }

  private async whole(event: RecordedEvent): Promise<RecordedEvent> {
    const [whole] = await this.inner.readStream(event.streamName, { fromRevision: event.revision, maxCount: 1 });
    if (!whole || whole.id !== event.id)
      throw new Error(`event ${event.id} (${event.streamName}@${event.revision}) cannot be read again`);
    return whole;
  }
}
