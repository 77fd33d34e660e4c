import { stopTestMongo } from './support/mongo.js';
import { stopTestPostgres } from './support/postgres.js';

/** Mocha root hooks: the test FerretDB (if one started) and then the shared test PostgreSQL are stopped once, after every suite. */
export const mochaHooks = {
  async afterAll(this: Mocha.Context) {
    this.timeout(60_000);
    await stopTestMongo();
    await stopTestPostgres();
  },
};
