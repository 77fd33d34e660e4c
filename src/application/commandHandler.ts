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
}

const MAX_ATTEMPTS = 20;

/**
 * Load the stream, decide, append with the revision the decision was based on. When another
 * writer appended first, the stream is reloaded and the command decided again on the new
 * state, so a conflict never loses or duplicates a decision.
 */
export async function handleCommand<State, Command, E extends Event>(
  store: EventStore,
  decider: Decider<State, Command, E>,
  streamName: string,
  command: Command,
  metadata: EventMetadata = {},
): Promise<CommandResult<State, E>> {
  for (let attempt = 1; ; attempt++) {
    const recorded = await store.readStream(streamName);
    const state = fold(decider, recorded.map(toDomainEvent<E>));
    const newEvents = decider.decide(command, state);
    if (newEvents.length === 0) return { state, newEvents, position: null };
    const expected = recorded.length === 0 ? 'no_stream' : recorded[recorded.length - 1]!.revision;
    try {
      const result = await store.append(
        streamName,
        newEvents.map((e) => ({ type: e.type, data: e.data, metadata })),
        expected,
      );
      return { state: newEvents.reduce(decider.evolve, state), newEvents, position: result.lastGlobalPosition };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || attempt >= MAX_ATTEMPTS) throw error;
      // Back off a little, with jitter, so that many contending writers spread out.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 2 ** attempt)));
    }
  }
}

export async function loadState<State, E extends Event>(
  store: EventStore,
  decider: Pick<Decider<State, unknown, E>, 'evolve' | 'initialState'>,
  streamName: string,
): Promise<State> {
  return fold(decider, (await store.readStream(streamName)).map(toDomainEvent<E>));
}

export function toDomainEvent<E extends Event>(recorded: RecordedEvent): E {
  return { type: recorded.type, data: recorded.data } as E;
}
