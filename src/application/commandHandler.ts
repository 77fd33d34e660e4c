import { fold, type Decider, type Event } from '../domain/decider.js';
import {
  type EventMetadata,
  type EventStore,
  type RecordedEvent,
  WrongExpectedRevisionError,
} from './ports/eventStore.js';

export interface CommandResult<State, E> {
  state: State;
  newEvents: E[];
  /** Global position of the last appended event, when anything was appended. */
  position: bigint | null;
  /** The stream as the command left it: a later command on it may start from here (`known`). */
  stream: StreamSnapshot<State>;
}

/** A stream's state and the revision of its last event (null: no stream yet). */
export interface StreamSnapshot<State> {
  state: State;
  revision: number | null;
}

/** How many times a command is decided again after losing a race for its stream. */
export const MAX_CONFLICT_RETRIES = 20;

/** A little back-off, with jitter, before deciding again, so that many contending writers spread out. */
export const backOff = (attempt: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 2 ** attempt)));

/**
 * Load the stream, decide, append with the revision the decision was based on. When another
 * writer appended first, the stream is reloaded and the command decided again on the new
 * state, so a conflict never loses or duplicates a decision.
 */
export async function handleCommand<State, Command, E extends Event>(
  store: EventStore,
  decider: Decider<State, Command, E>,
  streamName: string,
  command: Command | ((state: State) => Command),
  metadata: EventMetadata = {},
  /**
   * The stream as the caller already has it (a snapshot loadStream or another command left, or
   * `[]` for a fresh id): spares a read when nobody wrote since, and costs one conflict and a read
   * when someone did.
   */
  known?: RecordedEvent[] | StreamSnapshot<State>,
): Promise<CommandResult<State, E>> {
  let current = Array.isArray(known) ? snapshotOf(decider, known) : known;
  for (let attempt = 1; ; attempt++) {
    current ??= snapshotOf(decider, await store.readStream(streamName));
    const { state, revision } = current;
    // A command may depend on the state (e.g. where a document goes): it is made again on a retry.
    const newEvents = decider.decide(
      typeof command === 'function' ? (command as (state: State) => Command)(state) : command,
      state,
    );
    if (newEvents.length === 0) return { state, newEvents, position: null, stream: current };
    try {
      const result = await store.append(
        streamName,
        newEvents.map((e) => ({ type: e.type, data: e.data, metadata })),
        revision ?? 'no_stream',
      );
      const after = newEvents.reduce(decider.evolve, state);
      return {
        state: after,
        newEvents,
        position: result.lastGlobalPosition,
        stream: { state: after, revision: result.nextExpectedRevision },
      };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || attempt >= MAX_CONFLICT_RETRIES) throw error;
      current = undefined;
      await backOff(attempt);
    }
  }
}

/**
 * The stream's events, the state they fold to and its revision: for a caller that checks the
 * state and then passes it to handleCommand as `known`, so the stream is read and folded once.
 */
export async function loadStream<State, E extends Event>(
  store: EventStore,
  decider: Pick<Decider<State, unknown, E>, 'evolve' | 'initialState'>,
  streamName: string,
): Promise<StreamSnapshot<State> & { events: RecordedEvent[] }> {
  const events = await store.readStream(streamName);
  return { events, ...snapshotOf(decider, events) };
}

export async function loadState<State, E extends Event>(
  store: EventStore,
  decider: Pick<Decider<State, unknown, E>, 'evolve' | 'initialState'>,
  streamName: string,
): Promise<State> {
  return (await loadStream(store, decider, streamName)).state;
}

function snapshotOf<State, E extends Event>(
  decider: Pick<Decider<State, unknown, E>, 'evolve' | 'initialState'>,
  events: RecordedEvent[],
): StreamSnapshot<State> {
  return {
    state: fold(decider, events.map(toDomainEvent<E>)),
    revision: events.length === 0 ? null : events[events.length - 1]!.revision,
  };
}

export function toDomainEvent<E extends Event>(recorded: RecordedEvent): E {
  return { type: recorded.type, data: recorded.data } as E;
}
