import { stopTestMongo } from './support/mongo.js';
import { stopTestPostgres } from './support/postgres.js';
import { stopTestS3 } from './support/s3.js';

/** Mocha root hooks: the test FerretDB and S3 server (if they started) and then the shared test PostgreSQL are stopped once, after every suite. */
export const mochaHooks = {
  async afterAll(this: Mocha.Context) {
    this.timeout(60_000);
    await stopTestMongo();
    await stopTestS3();
    await stopTestPostgres();
  },
};
