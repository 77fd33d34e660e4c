import type pg from 'pg';
import type { BackedUpTable } from './backupManifest.js';
import { blobRecord, CompressedFile } from './backupFiles.js';

const ROWS_PER_FETCH = 2000;

/** The tables of the database's schema whose rows are state: logged ones (not the rate-limit counters). */
const TABLES = `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                 WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND c.relpersistence = 'p'
                 ORDER BY c.relname`;

/** A table's columns and their types, in order. */
export async function columnsOf(client: pg.ClientBase, table: string): Promise<Array<{ name: string; type: string }>> {
  const { rows } = await client.query<{ name: string; type: string }>(
    `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type
       FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relname = $1 AND a.attnum > 0 AND NOT a.attisdropped
      ORDER BY a.attnum`,
    [table],
  );
  return rows;
}

export interface DatabaseSnapshot {
  snapshotAt: string;
  serverVersion: string;
  headPosition: string;
  events: number;
  tables: BackedUpTable[];
  blobs: { count: number; contentBytes: number };
}

/**
 * Every row of the database as one snapshot (one REPEATABLE READ, READ ONLY transaction: what
 * pg_dump does), the service running meanwhile: the event log, the read models and their
 * checkpoints, the jobs, the idempotency keys, the instance settings, each table into
 * `tables/<name>.ndjson.gz`; the `blobs` table's rows go to the blob pack instead. Rows are read
 * through a cursor, so memory holds one batch at a time.
 */
export async function dumpDatabase(
  client: pg.ClientBase,
  folder: string,
  pack: CompressedFile,
): Promise<DatabaseSnapshot> {
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY');
  try {
    // The snapshot is taken by the first statement of the transaction: this one.
    const { rows: facts } = await client.query<{ at: Date; version: string }>(
      `SELECT clock_timestamp() AS at, current_setting('server_version') AS version`,
    );
    const names = (await client.query<{ name: string }>(TABLES)).rows.map((r) => r.name);
    const tables: BackedUpTable[] = [];
    for (const name of names) {
      if (name === 'blobs') continue;
      const file = await CompressedFile.create(folder, `tables/${name}.ndjson.gz`);
      let rows = 0;
      await throughCursor(client, `SELECT row_to_json(t)::text AS j FROM ${quoted(name)} t`, async (batch) => {
        await file.write(batch.map((r) => `${String(r.j)}\n`).join(''));
        rows += batch.length;
      });
      tables.push({ name, rows, columns: await columnsOf(client, name), ...(await file.finish()) });
    }
    const blobs = { count: 0, contentBytes: 0 };
    if (names.includes('blobs')) {
      await throughCursor(client, 'SELECT sha256, content FROM blobs', async (batch) => {
        for (const row of batch as Array<{ sha256: string; content: Buffer }>) {
          for (const part of blobRecord(row.sha256, row.content)) await pack.write(part);
          blobs.count++;
          blobs.contentBytes += row.content.length;
        }
      });
    }
    const head = names.includes('es_global')
      ? (await client.query<{ position: string }>('SELECT position::text FROM es_global WHERE id = 1')).rows[0]
          ?.position
      : undefined;
    const events = tables.find((t) => t.name === 'es_events')?.rows ?? 0;
    await client.query('COMMIT');
    return {
      snapshotAt: facts[0]!.at.toISOString(),
      serverVersion: facts[0]!.version,
      headPosition: head ?? '-1',
      events,
      tables,
      blobs,
    };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

export const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

async function throughCursor(
  client: pg.ClientBase,
  query: string,
  each: (rows: Array<Record<string, unknown>>) => Promise<void>,
): Promise<void> {
  await client.query(`DECLARE backup_rows NO SCROLL CURSOR FOR ${query}`);
  try {
    for (;;) {
      const { rows } = await client.query(`FETCH FORWARD ${ROWS_PER_FETCH} FROM backup_rows`);
      if (rows.length === 0) break;
      await each(rows);
    }
  } finally {
    await client.query('CLOSE backup_rows');
  }
}
