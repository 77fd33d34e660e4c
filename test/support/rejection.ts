import { expect } from 'chai';

/** What `promise` rejects with; a result instead is a test failure. */
export async function expectRejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection, got a result');
}

/** What `run` throws, which must be a `type` whose name is its class's; a result instead is a test failure. */
export function thrownBy<E extends Error>(type: abstract new (...args: never[]) => E, run: () => unknown): E {
  try {
    run();
  } catch (error) {
    expect(error).to.be.instanceOf(type);
    expect((error as Error).name).to.equal(type.name);
    return error as E;
  }
  throw new Error('expected a refusal, got a result');
}
