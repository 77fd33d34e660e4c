import type pg from 'pg';
import { historyChainSchema } from './pgHistoryChain.js';

/**
 * Schema of the PostgreSQL profile, applied at start-up. Every statement is idempotent, and the
 * whole script runs under an advisory lock so that processes starting together don't race.
 */
const statements = [
  `CREATE TABLE IF NOT EXISTS es_streams (
     stream_name text PRIMARY KEY,
     revision bigint NOT NULL
   )`,
  // One row holding the last assigned global position. Updating it inside the append
  // transaction serialises position assignment until commit, so positions become visible in
  // increasing order and a reader that has seen position N can never later find a smaller one.
  `CREATE TABLE IF NOT EXISTS es_global (
     id int PRIMARY KEY CHECK (id = 1),
     position bigint NOT NULL
   )`,
  `INSERT INTO es_global (id, position) VALUES (1, -1) ON CONFLICT (id) DO NOTHING`,
  `CREATE TABLE IF NOT EXISTS es_events (
     global_position bigint PRIMARY KEY,
     event_id uuid NOT NULL UNIQUE,
     stream_name text NOT NULL,
     stream_revision bigint NOT NULL,
     type text NOT NULL,
     data jsonb NOT NULL,
     metadata jsonb NOT NULL,
     recorded_at timestamptz NOT NULL DEFAULT now(),
     UNIQUE (stream_name, stream_revision)
   )`,
  // Appends a batch of independent appends in one transaction (one commit, one fsync).
  // Input: [{stream, expected, events: [{id, type, data, metadata}]}]; expected is a revision
  // number as text, 'any', 'no_stream' or 'stream_exists'. Output, one entry per append:
  // {ok: true, revision, position} or {ok: false, actual}. A failed append does not stop the
  // others; each later append sees the earlier ones of the same batch. An append with `after`
  // (the index of an earlier one: appendInOrder) is made only if that one was ({ok: false, skipped}).
  `CREATE OR REPLACE FUNCTION es_append_batch(p_batch jsonb) RETURNS jsonb
   LANGUAGE plpgsql AS $fn$
   DECLARE
     a jsonb;
     cur bigint;
     expected text;
     n bigint;
     total bigint := 0;
     base bigint;
     idx int := 0;
     accepted jsonb := '[]'::jsonb;
     results jsonb := '[]'::jsonb;
     offsets bigint[] := '{}';
   BEGIN
     FOR a IN SELECT value FROM jsonb_array_elements(p_batch) LOOP
       SELECT revision INTO cur FROM es_streams WHERE stream_name = a->>'stream' FOR UPDATE;
       IF NOT FOUND THEN cur := -1; END IF;
       expected := a->>'expected';
       n := jsonb_array_length(a->'events');
       IF a ? 'after' AND NOT (results->((a->>'after')::int)->>'ok')::boolean THEN
         results := results || jsonb_build_array(jsonb_build_object('ok', false, 'actual', cur, 'skipped', true));
         offsets := offsets || (-1)::bigint;
       ELSIF NOT (expected = 'any'
               OR (expected = 'no_stream' AND cur = -1)
               OR (expected = 'stream_exists' AND cur >= 0)
               OR (expected ~ '^[0-9]+$' AND cur = expected::bigint)) OR n = 0 THEN
         results := results || jsonb_build_array(jsonb_build_object('ok', false, 'actual', cur, 'empty', n = 0));
         offsets := offsets || (-1)::bigint;
       ELSE
         INSERT INTO es_streams (stream_name, revision) VALUES (a->>'stream', cur + n)
           ON CONFLICT (stream_name) DO UPDATE SET revision = EXCLUDED.revision;
         accepted := accepted || jsonb_build_array(jsonb_build_object(
           'stream', a->>'stream', 'from', cur + 1, 'offset', total, 'events', a->'events'));
         results := results || jsonb_build_array(jsonb_build_object('ok', true, 'revision', cur + n));
         offsets := offsets || (total + n)::bigint;
         total := total + n;
       END IF;
     END LOOP;
     IF total = 0 THEN
       RETURN results;
     END IF;
     UPDATE es_global SET position = position + total WHERE id = 1 RETURNING position - total INTO base;
     INSERT INTO es_events (global_position, event_id, stream_name, stream_revision, type, data, metadata)
       SELECT base + (acc->>'offset')::bigint + e.ord,
              (e.value->>'id')::uuid,
              acc->>'stream',
              (acc->>'from')::bigint + e.ord - 1,
              e.value->>'type',
              e.value->'data',
              COALESCE(e.value->'metadata', '{}'::jsonb)
         FROM jsonb_array_elements(accepted) AS acc,
              jsonb_array_elements(acc->'events') WITH ORDINALITY AS e(value, ord);
     FOR idx IN 0 .. jsonb_array_length(results) - 1 LOOP
       IF offsets[idx + 1] >= 0 THEN
         results := jsonb_set(results, ARRAY[idx::text, 'position'], to_jsonb(base + offsets[idx + 1]));
       END IF;
     END LOOP;
     PERFORM pg_notify('es_events', (base + total)::text);
     RETURN results;
   END
   $fn$`,
  `CREATE TABLE IF NOT EXISTS rm_checkpoints (
     name text PRIMARY KEY,
     position bigint NOT NULL
   )`,
  // Secrets and settings this instance keeps about itself (e.g. the generated operator key hash).
  `CREATE TABLE IF NOT EXISTS instance_settings (
     name text PRIMARY KEY,
     value text NOT NULL
   )`,
  // The tenants' personal-data keys (PgPersonalDataKeys), wrapped by the master key; a destroyed
  // key keeps its row (when, which version) without its bytes. Never in the event log.
  `CREATE TABLE IF NOT EXISTS personal_data_keys (
     tenant_id text NOT NULL,
     version integer NOT NULL CHECK (version > 0),
     wrapped bytea,
     created_at timestamptz NOT NULL DEFAULT now(),
     destroyed_at timestamptz,
     PRIMARY KEY (tenant_id, version),
     CHECK ((wrapped IS NULL) = (destroyed_at IS NOT NULL))
   )`,
  // Rate-limit counters shared by every process (PgRateLimitStore). UNLOGGED: each request
  // writes here, and a counter is worth no WAL flush; after a database crash the counters
  // start again from zero, which only ever lets a little more through.
  `CREATE UNLOGGED TABLE IF NOT EXISTS rate_limits (
     key text PRIMARY KEY,
     hits integer NOT NULL,
     reset_at timestamptz NOT NULL
   )`,
  // The first result of each request made with an Idempotency-Key (PgIdempotencyStore). A claim
  // under way is an advisory lock of its process's session, not a column.
  `CREATE TABLE IF NOT EXISTS idempotency_keys (
     scope text NOT NULL,
     key text NOT NULL,
     fingerprint text NOT NULL,
     status integer,
     body jsonb,
     created_at timestamptz NOT NULL,
     PRIMARY KEY (scope, key)
   )`,
  // Until issue 26 a claim was a lease in the row (locked_until): dropped, looked up first
  // so that a start on an up-to-date schema takes no lock on the table.
  `DO $$ BEGIN
     IF EXISTS (SELECT 1 FROM information_schema.columns
                 WHERE table_schema = current_schema() AND table_name = 'idempotency_keys' AND column_name = 'locked_until') THEN
       ALTER TABLE idempotency_keys DROP COLUMN locked_until;
     END IF;
   END $$`,
  // Content-addressed blobs (PgBlobStore): the bytes under their SHA-256. Rows are never updated
  // but to repair a corrupted copy, and never deleted (the blob store port has no delete).
  `CREATE TABLE IF NOT EXISTS blobs (
     sha256 text PRIMARY KEY CHECK (sha256 ~ '^[0-9a-f]{64}$'),
     size bigint NOT NULL CHECK (size >= 0),
     content bytea NOT NULL,
     created_at timestamptz NOT NULL DEFAULT now()
   )`,
  ...historyChainSchema,
];

export async function applyPostgresSchema(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock(74110001)');
    try {
      for (const statement of statements) await client.query(statement);
    } finally {
      await client.query('SELECT pg_advisory_unlock(74110001)');
    }
  } finally {
    client.release();
  }
}

/**
 * Runs `work` while no other process on this database does: the adapters that create their own
 * tables and indexes when they start (read-model collections, Agenda's jobs table) race on
 * `CREATE … IF NOT EXISTS` when several processes start at once on a new database (a unique
 * violation in pg_type), so their starts take turns.
 */
export async function whileStartingAlone<T>(pool: pg.Pool, work: () => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock(74110003)');
    try {
      return await work();
    } finally {
      await client.query('SELECT pg_advisory_unlock(74110003)');
    }
  } finally {
    client.release();
  }
}
