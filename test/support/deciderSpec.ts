import { expect } from 'chai';
import type { Decider } from '../../src/domain/decider.js';
import { DomainError, type DomainErrorKind } from '../../src/domain/errors.js';

/**
 * Given/When/Then for deciders (as in Emmett's DeciderSpecification): given past events,
 * when a command, then the new events, or the refusal (its kind, message and, for invalid
 * input, the offending field).
 */
export function deciderSpec<State, Command, Event>(decider: Decider<State, Command, Event>) {
  return {
    given(events: Event[]) {
      return {
        when(command: Command) {
          const run = () => decider.decide(command, events.reduce(decider.evolve, decider.initialState()));
          return {
            then(expected: Event[]) {
              expect(run()).to.deep.equal(expected);
            },
            thenNothingHappens() {
              expect(run()).to.deep.equal([]);
            },
            thenRefuses(kind: DomainErrorKind, message?: RegExp, loc?: Array<string | number>) {
              let error: unknown;
              try {
                run();
              } catch (e) {
                error = e;
              }
              expect(error, 'the command should be refused').to.be.instanceOf(DomainError);
              expect((error as DomainError).kind).to.equal(kind);
              if (message) expect((error as DomainError).message).to.match(message);
              if (loc) expect((error as DomainError).loc).to.deep.equal(loc);
            },
          };
        },
      };
    },
  };
}
