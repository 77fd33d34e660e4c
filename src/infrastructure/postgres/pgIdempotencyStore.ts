import { createHash } from 'node:crypto';
import pg from 'pg';
import type { IdempotencyClaim, IdempotencyStore } from '../../application/ports/idempotencyStore.js';
import { inject, injectable } from '../../application/injection.js';
import { failpoint } from '../failpoints.js';
import { DATABASE_URL, PG_POOL } from './tokens.js';

/** How long a key's first result is kept. */
export interface IdempotencyRetention {
  ttlHours: number;
}
export const IDEMPOTENCY_RETENTION = Symbol('IdempotencyRetention');

/** The advisory lock of a key: 64 bits of its hash (a collision only makes one claim wait, a 409). */
const lockOf = (scope: string, key: string): string =>
  BigInt.asIntN(64, createHash('sha256').update(`idempotency\n${scope}\n${key}`).digest().readBigUInt64BE()).toString();

interface KeyRow {
  fingerprint: string;
  status: number | null;
  body: unknown;
}

/**
 * Idempotency keys in PostgreSQL (table `idempotency_keys`), shared by every process. A row says
 * which request a key was first used with and, once answered, its result. While a request is
 * worked on, its key is held by a session-level advisory lock of this process's claim session:
 * a connection of its own, so the claim lives exactly as long as the process (SIGKILL closes the
 * socket and PostgreSQL frees the lock at once; a vanished host, after the TCP keepalives set on
 * that session). A key whose row has no result and whose lock is free was claimed by a process
 * that died: the next claim takes it over, keeping the first request's fingerprint, and the
 * handler finds in the events what that request did (application/idempotentEffect.ts).
 */
@injectable()
export class PgIdempotencyStore implements IdempotencyStore {
  private readonly session: ClaimSession;
  /** Keys this process holds now (advisory locks are re-entrant within a session: they say nothing here). */
  private readonly held = new Map<string, pg.Client | null>();
  private readonly cleanup: NodeJS.Timeout;

  constructor(
    @inject(PG_POOL) private readonly pool: pg.Pool,
    @inject(DATABASE_URL) databaseUrl: string,
    @inject(IDEMPOTENCY_RETENTION) private readonly options: IdempotencyRetention,
  ) {
    this.session = new ClaimSession(databaseUrl, (lost) => {
      // The session is gone and its locks with it: what this process held may be claimed elsewhere.
      for (const [lock, client] of this.held) if (client === lost) this.held.delete(lock);
    });
    // Expired keys are removed hourly; until then a claim treats them as absent.
    // (The timer does not keep the process alive; a query on an ended pool just fails.)
    this.cleanup = setInterval(() => {
      this.pool
        .query(`DELETE FROM idempotency_keys WHERE created_at < now() - $1 * interval '1 hour'`, [
          this.options.ttlHours,
        ])
        .catch(() => undefined);
    }, 3_600_000).unref();
  }

  async claim(scope: string, key: string, fingerprint: string): Promise<IdempotencyClaim> {
    const lock = lockOf(scope, key);
    const found = await this.row(scope, key);
    if (found && found.status !== null)
      return found.fingerprint === fingerprint
        ? { kind: 'completed', status: found.status, body: found.body }
        : { kind: 'mismatch' };
    const busy = (): IdempotencyClaim =>
      found && found.fingerprint !== fingerprint ? { kind: 'mismatch' } : { kind: 'in_progress' };
    if (this.held.has(lock)) return busy();
    // Marked before the lock is asked for: another request of this process with the same key waits.
    this.held.set(lock, null);
    let client: pg.Client;
    try {
      client = await this.session.client();
      const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1::bigint) AS locked', [
        lock,
      ]);
      if (!rows[0]!.locked) {
        this.held.delete(lock);
        return busy();
      }
    } catch (error) {
      this.held.delete(lock);
      throw error;
    }
    this.held.set(lock, client);
    try {
      // The key is this process's now: nobody else works on it. A new key, or one kept past its
      // time, is taken for this request. An existing row without a result is a claim whose
      // process died: it keeps the request it was for.
      const { rowCount } = await this.pool.query(
        `INSERT INTO idempotency_keys AS k (scope, key, fingerprint, created_at) VALUES ($1, $2, $3, now())
         ON CONFLICT (scope, key) DO UPDATE SET
           fingerprint = EXCLUDED.fingerprint, status = NULL, body = NULL, created_at = now()
           WHERE k.created_at < now() - $4 * interval '1 hour'
         RETURNING 1`,
        [scope, key, fingerprint, this.options.ttlHours],
      );
      if (rowCount) return { kind: 'claimed' };
      const row = await this.row(scope, key);
      // Answered between the first look and the lock (its process answered, then let go).
      if (row && row.status !== null) {
        await this.unlock(lock);
        return row.fingerprint === fingerprint
          ? { kind: 'completed', status: row.status, body: row.body }
          : { kind: 'mismatch' };
      }
      if (row && row.fingerprint !== fingerprint) {
        await this.unlock(lock);
        return { kind: 'mismatch' };
      }
      return { kind: 'claimed' };
    } catch (error) {
      await this.unlock(lock).catch(() => undefined);
      throw error;
    }
  }

  async complete(scope: string, key: string, status: number, body: unknown): Promise<void> {
    // Crash tests stop the process here: the work is done (and its events carry the key), its
    // result not yet kept.
    failpoint('idempotency:before-complete');
    try {
      await this.pool.query('UPDATE idempotency_keys SET status = $3, body = $4 WHERE scope = $1 AND key = $2', [
        scope,
        key,
        status,
        JSON.stringify(body),
      ]);
    } finally {
      await this.unlock(lockOf(scope, key));
    }
  }

  async release(scope: string, key: string): Promise<void> {
    try {
      await this.pool.query('DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2 AND status IS NULL', [
        scope,
        key,
      ]);
    } finally {
      await this.unlock(lockOf(scope, key));
    }
  }

  async close(): Promise<void> {
    clearInterval(this.cleanup);
    await this.session.close();
  }

  private async row(scope: string, key: string): Promise<KeyRow | null> {
    const { rows } = await this.pool.query<KeyRow>(
      `SELECT fingerprint, status, body FROM idempotency_keys
        WHERE scope = $1 AND key = $2 AND created_at >= now() - $3 * interval '1 hour'`,
      [scope, key, this.options.ttlHours],
    );
    return rows[0] ?? null;
  }

  /** Lets the key go, on the session that holds it (a lost session let it go already). */
  private async unlock(lock: string): Promise<void> {
    const client = this.held.get(lock);
    this.held.delete(lock);
    if (client && this.session.current() === client)
      await client.query('SELECT pg_advisory_unlock($1::bigint)', [lock]).catch(() => undefined);
  }
}

/** One connection outside the pool whose session holds this process's claims; opened again when lost. */
class ClaimSession {
  private connecting: Promise<pg.Client> | null = null;
  private open: pg.Client | null = null;
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly lost: (client: pg.Client) => void,
  ) {}

  current(): pg.Client | null {
    return this.open;
  }

  client(): Promise<pg.Client> {
    if (this.closed) return Promise.reject(new Error('the idempotency store is closed'));
    this.connecting ??= this.connect().catch((error: unknown) => {
      this.connecting = null;
      throw error;
    });
    return this.connecting;
  }

  private async connect(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.url, keepAlive: true });
    const drop = () => {
      if (this.open !== client) return;
      this.open = null;
      this.connecting = null;
      client.end().catch(() => undefined);
      this.lost(client);
    };
    client.on('error', drop);
    client.on('end', drop);
    await client.connect();
    // The server drops the session of a host that vanished (no FIN, no RST) after about 25 s of
    // silence, and with it the host's claims; a process that dies on a living host closes its socket at once.
    await client.query(
      `SELECT set_config('application_name', left(current_setting('application_name') || ' claims', 63), false),
              set_config('tcp_keepalives_idle', '10', false),
              set_config('tcp_keepalives_interval', '5', false),
              set_config('tcp_keepalives_count', '3', false)`,
    );
    if (this.closed) {
      await client.end();
      throw new Error('the idempotency store is closed');
    }
    this.open = client;
    return client;
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.open;
    this.open = null;
    this.connecting = null;
    await client?.end().catch(() => undefined);
  }
}
