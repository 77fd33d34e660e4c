import { MongoClient } from 'mongodb';
import { freshDatabase } from './postgres.js';
import {
  describeRequiring,
  startHelperServer,
  stopHelperServer,
  urlOrBinary,
  type HelperServer,
} from './helperServer.js';

/**
 * The Mongo-wire server the MongoDB adapters' suites run against:
 *  - MONGODB_URL, when set (a real MongoDB, or any server speaking its protocol);
 *  - else FerretDB, when its binary is there (FERRETDB_BIN, or .ci/bin/ferretdb as `.ci/run`
 *    builds it): started once per test run on the shared test PostgreSQL, in a database of its
 *    own, on a free port, and stopped after every suite (test/setup.ts);
 *  - else none: the suites are skipped with a printed warning, and fail under CI=true.
 */
const mongoTarget = () =>
  urlOrBinary({
    urlEnv: 'MONGODB_URL',
    binEnv: 'FERRETDB_BIN',
    binName: 'ferretdb',
    server: 'FerretDB',
    buildScript: '.ci/build-ferretdb',
  });

/** Registers `body` (which registers the suite's tests) when a Mongo-wire server can be had. */
export function describeWithMongo(what: string, body: () => void): void {
  describeRequiring(what, 'a Mongo-wire server', mongoTarget(), body);
}

let ferret: HelperServer | null = null;
let starting: Promise<string> | null = null;

/** The server's URL, starting FerretDB on first use when that is the target. */
export async function testMongoUrl(): Promise<string> {
  const target = mongoTarget();
  if (target.kind === 'url') return target.url;
  if (target.kind === 'none') throw new Error(target.why);
  starting ??= startFerretDb(target.bin).catch((error: unknown) => {
    starting = null;
    throw error;
  });
  return starting;
}

async function startFerretDb(bin: string): Promise<string> {
  // Its own database on the shared test PostgreSQL; a small pool (FerretDB's default is 50).
  const database = new URL(await freshDatabase('ferretdb'));
  database.searchParams.set('pool_max_conns', '10');
  const server = await startHelperServer({
    name: 'FerretDB',
    bin,
    args: [
      '-listen',
      '127.0.0.1:0',
      '-postgresql-url',
      database.toString(),
      '-log-level',
      process.env.FERRETDB_LOG_LEVEL ?? 'warn',
    ],
    urlPattern: /mongodb:\/\/\S+/,
    readyWithinMs: 60_000,
    echoStderr: Boolean(process.env.FERRETDB_LOG_LEVEL),
    onUnexpectedExit: () => {
      ferret = null;
      starting = null;
    },
  });
  ferret = server;
  const url = server.url;
  console.log(`    FerretDB on ${url} (PostgreSQL database ${database.pathname.slice(1)})`);
  return url;
}

/** Stops the FerretDB this run started, if any (before the test PostgreSQL stops). */
export async function stopTestMongo(): Promise<void> {
  const running = ferret;
  ferret = null;
  starting = null;
  await stopHelperServer(running);
}

/** FerretDB's version when the server at `url` is FerretDB (its buildInfo says so), else null. */
export async function ferretDbVersion(url: string): Promise<string | null> {
  const client = await new MongoClient(url).connect();
  try {
    const info = await client.db('admin').command({ buildInfo: 1 });
    return typeof info.ferretdbVersion === 'string' ? info.ferretdbVersion : null;
  } finally {
    await client.close();
  }
}
