import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { applyPostgresSchema } from '../../src/infrastructure/postgres/pgSchema.js';
import { freshDatabase } from './postgres.js';

/** One event as the PostgreSQL event store held it (test/fixtures/streams). */
export interface RawEvent {
  global_position: string;
  event_id: string;
  stream_name: string;
  stream_revision: string;
  type: string;
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
  recorded_at: string;
}

export const readFixture = async <T>(name: string): Promise<T> =>
  JSON.parse(await readFile(path.resolve('test/fixtures/streams', name), 'utf8')) as T;

/**
 * A fresh database holding exactly these events, as they were stored: the same positions,
 * revisions, ids and times, written straight into the tables (not appended through today's code,
 * which would give them today's shape). Nothing else: read models, blobs and jobs start empty.
 */
export async function databaseWithEvents(events: RawEvent[]): Promise<string> {
  const url = await freshDatabase('recorded');
  const pool = new pg.Pool({ connectionString: url });
  try {
    await applyPostgresSchema(pool);
    for (const e of events) {
      await pool.query(
        `INSERT INTO es_events (global_position, event_id, stream_name, stream_revision, type, data, metadata, recorded_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          e.global_position,
          e.event_id,
          e.stream_name,
          e.stream_revision,
          e.type,
          JSON.stringify(e.data),
          JSON.stringify(e.metadata),
          e.recorded_at,
        ],
      );
    }
    await pool.query(
      `INSERT INTO es_streams (stream_name, revision) SELECT stream_name, max(stream_revision) FROM es_events GROUP BY stream_name`,
    );
    await pool.query(
      `UPDATE es_global SET position = (SELECT coalesce(max(global_position), -1) FROM es_events) WHERE id = 1`,
    );
  } finally {
    await pool.end();
  }
  return url;
}
