import { stopTestPostgres } from './support/postgres.js';

/** Mocha root hooks: the shared test PostgreSQL is stopped once, after every suite. */
export const mochaHooks = {
  async afterAll(this: Mocha.Context) {
    this.timeout(60_000);
    await stopTestPostgres();
  },
};
