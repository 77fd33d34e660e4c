import pg from 'pg';
import type { Logger } from 'pino';
import { startEmbeddedPostgres } from './embeddedPostgres.js';

export interface Database {
  url: string;
  /** Stops the embedded server, if this process started one. */
  stop(): Promise<void>;
}

/** Creates the database on the server when missing (CREATE DATABASE has no IF NOT EXISTS). */
export async function ensureDatabase(serverUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount === 0) {
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`).catch((error: { code?: string }) => {
        if (error.code !== '42P04') throw error; // created meanwhile by another process
      });
    }
  } finally {
    await client.end();
  }
}

/** DATABASE_URL when given; otherwise the embedded PostgreSQL under the data folder. */
export async function openDatabase(options: {
  databaseUrl: string | null;
  dataDir: string;
  embeddedPort: number;
  logger: Logger;
}): Promise<Database> {
  if (options.databaseUrl) return { url: options.databaseUrl, stop: async () => undefined };
  const server = await startEmbeddedPostgres({
    dataDir: options.dataDir,
    port: options.embeddedPort,
    logger: options.logger,
  });
  await ensureDatabase(server.connectionString('postgres'), 'invoicing');
  return { url: server.connectionString('invoicing'), stop: () => server.stop() };
}
