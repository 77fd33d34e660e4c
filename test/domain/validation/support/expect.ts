// chai 6 ships without type declarations and @types/chai is not installed in this repo;
// this shim gives the part of the API these tests use a type, without a global `declare module`.
// @ts-ignore -- untyped module (see above)
import * as chai from 'chai';

interface Assertion {
  to: Assertion;
  be: Assertion;
  have: Assertion;
  not: Assertion;
  deep: Assertion;
  equal(v: unknown, msg?: string): Assertion;
  include(v: unknown, msg?: string): Assertion;
  instanceOf(c: unknown, msg?: string): Assertion;
  throw(c?: unknown, msg?: string | RegExp): Assertion;
  lengthOf(n: number, msg?: string): Assertion;
  members(v: unknown[], msg?: string): Assertion;
  true: Assertion;
  false: Assertion;
  empty: Assertion;
  above(n: number, msg?: string): Assertion;
}

export const expect = (chai as unknown as { expect: (v: unknown, msg?: string) => Assertion }).expect;
