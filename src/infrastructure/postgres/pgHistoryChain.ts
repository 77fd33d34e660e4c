import type pg from 'pg';
import type { ChainLink, HistoryChainStore, SignedCheckpoint } from '../../application/ports/historyChain.js';
import { inject, injectable } from '../../application/injection.js';
import { PG_POOL } from './tokens.js';

/**
 * The tables of the hash chain over the global log (application/history): one row per chained
 * event, and the signed checkpoints. Kept in PostgreSQL in every profile (with EventStoreDB too,
 * as the idempotency keys are). Applied with the rest of the schema (pgSchema.ts).
 */
export const historyChainSchema = [
  `CREATE TABLE IF NOT EXISTS es_chain (
     global_position bigint PRIMARY KEY,
     seq bigint NOT NULL,
     event_id uuid NOT NULL,
     digest bytea NOT NULL CHECK (length(digest) = 32),
     hash bytea NOT NULL CHECK (length(hash) = 32)
   )`,
  // created_at is the text that was signed, kept as it was (a timestamptz would be written back otherwise).
  `CREATE TABLE IF NOT EXISTS es_checkpoints (
     global_position bigint PRIMARY KEY,
     events bigint NOT NULL,
     head_hash text NOT NULL,
     created_at text NOT NULL,
     algorithm text NOT NULL,
     signature text NOT NULL,
     key_id text NOT NULL,
     public_key text NOT NULL,
     certificate text
   )`,
  // Appends links on top of the head the caller chained from (p_expected; NULL: an empty chain),
  // all or none, in one round trip: false when the head moved (another process chained first; one
  // chaining the same positions at the same moment makes it fail on the primary key instead).
  // The chain is derived from committed events: a crash that loses its last links loses nothing
  // the chainer cannot compute again, so this commit waits for no WAL flush (set for the
  // statement's own transaction: the commit reads the setting before the transaction's settings end).
  `CREATE OR REPLACE FUNCTION es_chain_append(p_positions bigint[], p_seqs bigint[], p_ids uuid[],
       p_digests bytea[], p_hashes bytea[], p_expected bigint) RETURNS boolean
   LANGUAGE plpgsql AS $fn$
   BEGIN
     PERFORM set_config('synchronous_commit', 'off', true);
     IF (SELECT max(global_position) FROM es_chain) IS DISTINCT FROM p_expected THEN
       RETURN false;
     END IF;
     INSERT INTO es_chain (global_position, seq, event_id, digest, hash)
       SELECT * FROM unnest(p_positions, p_seqs, p_ids, p_digests, p_hashes);
     RETURN true;
   END
   $fn$`,
];

interface LinkRow {
  global_position: string;
  seq: string;
  event_id: string;
  digest: Buffer;
  hash: Buffer;
}

interface CheckpointRow {
  global_position: string;
  events: string;
  head_hash: string;
  created_at: string;
  algorithm: string;
  signature: string;
  key_id: string;
  public_key: string;
  certificate: string | null;
}

const LINK_COLUMNS = 'global_position, seq, event_id, digest, hash';
const CHECKPOINT_COLUMNS =
  'global_position, events, head_hash, created_at, algorithm, signature, key_id, public_key, certificate';

@injectable()
export class PgHistoryChainStore implements HistoryChainStore {
  constructor(@inject(PG_POOL) private readonly pool: pg.Pool) {}

  async head(): Promise<ChainLink | null> {
    const { rows } = await this.pool.query<LinkRow>(
      `SELECT ${LINK_COLUMNS} FROM es_chain ORDER BY global_position DESC LIMIT 1`,
    );
    return rows[0] ? toLink(rows[0]) : null;
  }

  async append(links: ChainLink[], expectedHead: bigint | null): Promise<boolean> {
    if (links.length === 0) return true;
    // Another process chained the same positions at the same moment: a unique violation (23505).
    const appended = await this.pool
      .query<{ appended: boolean }>(
        'SELECT es_chain_append($1::bigint[], $2::bigint[], $3::uuid[], $4::bytea[], $5::bytea[], $6::bigint) AS appended',
        [
          links.map((l) => String(l.position)),
          links.map((l) => l.seq),
          links.map((l) => l.eventId),
          links.map((l) => l.digest),
          links.map((l) => l.hash),
          expectedHead === null ? null : String(expectedHead),
        ],
      )
      .then(
        ({ rows }) => rows[0]!.appended,
        (error: { code?: string }) => {
          if (error.code === '23505') return false;
          throw error;
        },
      );
    return appended;
  }

  async read(options: { after?: bigint; maxCount?: number } = {}): Promise<ChainLink[]> {
    const { rows } = await this.pool.query<LinkRow>(
      `SELECT ${LINK_COLUMNS} FROM es_chain WHERE global_position > $1 ORDER BY global_position LIMIT $2`,
      [String(options.after ?? -1n), options.maxCount ?? 1000],
    );
    return rows.map(toLink);
  }

  async linkAt(position: bigint): Promise<ChainLink | null> {
    const { rows } = await this.pool.query<LinkRow>(`SELECT ${LINK_COLUMNS} FROM es_chain WHERE global_position = $1`, [
      String(position),
    ]);
    return rows[0] ? toLink(rows[0]) : null;
  }

  async linkBefore(position: bigint): Promise<ChainLink | null> {
    const { rows } = await this.pool.query<LinkRow>(
      `SELECT ${LINK_COLUMNS} FROM es_chain WHERE global_position < $1 ORDER BY global_position DESC LIMIT 1`,
      [String(position)],
    );
    return rows[0] ? toLink(rows[0]) : null;
  }

  async linkAtSeq(seq: number): Promise<ChainLink | null> {
    // No index on seq: asked only to split a verification into ranges, a few times per walk.
    const { rows } = await this.pool.query<LinkRow>(`SELECT ${LINK_COLUMNS} FROM es_chain WHERE seq = $1 LIMIT 1`, [
      seq,
    ]);
    return rows[0] ? toLink(rows[0]) : null;
  }

  async saveCheckpoint(checkpoint: SignedCheckpoint): Promise<SignedCheckpoint> {
    const { rows } = await this.pool.query<CheckpointRow>(
      `WITH inserted AS (
         INSERT INTO es_checkpoints (${CHECKPOINT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (global_position) DO NOTHING RETURNING ${CHECKPOINT_COLUMNS})
       SELECT ${CHECKPOINT_COLUMNS} FROM inserted
       UNION ALL SELECT ${CHECKPOINT_COLUMNS} FROM es_checkpoints WHERE global_position = $1`,
      [
        String(checkpoint.position),
        checkpoint.events,
        checkpoint.headHash,
        checkpoint.createdAt,
        checkpoint.algorithm,
        checkpoint.signature,
        checkpoint.keyId,
        checkpoint.publicKey,
        checkpoint.certificate,
      ],
    );
    return toCheckpoint(rows[0]!);
  }

  async checkpoints(options: {
    limit: number;
    offset?: number;
  }): Promise<{ items: SignedCheckpoint[]; total: number }> {
    const [page, count] = await Promise.all([
      this.pool.query<CheckpointRow>(
        `SELECT ${CHECKPOINT_COLUMNS} FROM es_checkpoints ORDER BY global_position DESC LIMIT $1 OFFSET $2`,
        [options.limit, options.offset ?? 0],
      ),
      this.pool.query<{ total: string }>('SELECT count(*) AS total FROM es_checkpoints'),
    ]);
    return { items: page.rows.map(toCheckpoint), total: Number(count.rows[0]!.total) };
  }

  async checkpointsAfter(after: bigint | null, maxCount: number): Promise<SignedCheckpoint[]> {
    const { rows } = await this.pool.query<CheckpointRow>(
      `SELECT ${CHECKPOINT_COLUMNS} FROM es_checkpoints WHERE global_position > $1 ORDER BY global_position LIMIT $2`,
      [String(after ?? -1n), maxCount],
    );
    return rows.map(toCheckpoint);
  }

  async checkpointCovering(position: bigint): Promise<SignedCheckpoint | null> {
    const { rows } = await this.pool.query<CheckpointRow>(
      `SELECT ${CHECKPOINT_COLUMNS} FROM es_checkpoints WHERE global_position >= $1 ORDER BY global_position LIMIT 1`,
      [String(position)],
    );
    return rows[0] ? toCheckpoint(rows[0]) : null;
  }

  async latestCheckpoint(): Promise<SignedCheckpoint | null> {
    const { rows } = await this.pool.query<CheckpointRow>(
      `SELECT ${CHECKPOINT_COLUMNS} FROM es_checkpoints ORDER BY global_position DESC LIMIT 1`,
    );
    return rows[0] ? toCheckpoint(rows[0]) : null;
  }
}

function toLink(row: LinkRow): ChainLink {
  return {
    position: BigInt(row.global_position),
    seq: Number(row.seq),
    eventId: row.event_id,
    digest: row.digest,
    hash: row.hash,
  };
}

function toCheckpoint(row: CheckpointRow): SignedCheckpoint {
  return {
    position: BigInt(row.global_position),
    events: Number(row.events),
    headHash: row.head_hash,
    createdAt: row.created_at,
    algorithm: row.algorithm,
    signature: row.signature,
    keyId: row.key_id,
    publicKey: row.public_key,
    certificate: row.certificate,
  };
}
