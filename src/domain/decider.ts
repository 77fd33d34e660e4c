/**
 * An aggregate as a decider (Chassaing): pure functions from a command and the current state
 * to new events, and from a state and an event to the next state. No I/O, no framework.
 */
export interface Decider<State, Command, Event> {
  decide(command: Command, state: State): Event[];
  evolve(state: State, event: Event): State;
  initialState(): State;
}

export type Event<Type extends string = string, Data extends object = object> = Readonly<{
  type: Type;
  data: Readonly<Data>;
}>;

export function fold<State, Event>(
  decider: Pick<Decider<State, unknown, Event>, 'evolve' | 'initialState'>,
  events: Event[],
): State {
  return events.reduce(decider.evolve, decider.initialState());
}

export function assertNever(value: never): never {
  throw new Error(`Unexpected value: ${JSON.stringify(value)}`);
}
