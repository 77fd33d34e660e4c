import { expect } from 'chai';
import pg from 'pg';
import { applyPostgresSchema } from '../../../src/infrastructure/postgres/pgSchema.js';
import { PgIdempotencyStore } from '../../../src/infrastructure/postgres/pgIdempotencyStore.js';
import { freshDatabase } from '../../support/postgres.js';

/**
 * Claims of Idempotency-Keys between processes sharing one database: each store below stands for
 * one process (its own claim session). A claim lives as long as the session of the process that
 * holds it; the key's row keeps the request it was first used with and, once answered, its result.
 */
describe('PgIdempotencyStore: claims that die with their process (real PostgreSQL)', function () {
  this.timeout(60_000);
  let url: string;
  let pool: pg.Pool;
  const stores: PgIdempotencyStore[] = [];
  const process = (ttlHours = 24) => {
    const store = new PgIdempotencyStore(pool, url, { ttlHours });
    stores.push(store);
    return store;
  };

  before(async () => {
    url = await freshDatabase('idempotency');
    pool = new pg.Pool({ connectionString: url, max: 5 });
    await applyPostgresSchema(pool);
  });
  after(async () => {
    await Promise.all(stores.map((s) => s.close()));
    await pool.end();
  });

  it('a key held by a live process is busy for the others and for a twin in the same process; another request with it is refused', async () => {
    const a = process();
    const b = process();
    expect(await a.claim('t1', 'k-live', 'req-1')).to.deep.equal({ kind: 'claimed' });
    expect(await a.claim('t1', 'k-live', 'req-1')).to.deep.equal({ kind: 'in_progress' });
    expect(await b.claim('t1', 'k-live', 'req-1')).to.deep.equal({ kind: 'in_progress' });
    expect(await b.claim('t1', 'k-live', 'req-2')).to.deep.equal({ kind: 'mismatch' });
    // Keys are per scope (tenant).
    expect(await b.claim('t2', 'k-live', 'req-9')).to.deep.equal({ kind: 'claimed' });
    await a.complete('t1', 'k-live', 200, { id: 'doc-1' });
    expect(await b.claim('t1', 'k-live', 'req-1')).to.deep.equal({
      kind: 'completed',
      status: 200,
      body: { id: 'doc-1' },
    });
    expect(await b.claim('t1', 'k-live', 'req-2')).to.deep.equal({ kind: 'mismatch' });
  });

  it('the claim of a process whose session ends is free at once for the same request, and still refuses another', async () => {
    const dying = process();
    const other = process();
    expect(await dying.claim('t1', 'k-dead', 'req-1')).to.deep.equal({ kind: 'claimed' });
    expect(await other.claim('t1', 'k-dead', 'req-1')).to.deep.equal({ kind: 'in_progress' });
    // What SIGKILL does to the process's connection: its session ends, and its locks with it.
    await dying.close();
    expect(await other.claim('t1', 'k-dead', 'req-2')).to.deep.equal({ kind: 'mismatch' });
    expect(await other.claim('t1', 'k-dead', 'req-1')).to.deep.equal({ kind: 'claimed' });
    await other.complete('t1', 'k-dead', 201, { ok: true });
    expect(await process().claim('t1', 'k-dead', 'req-1')).to.deep.include({ kind: 'completed', status: 201 });
  });

  it('a session killed by the server (pg_terminate_backend) frees the claims it held', async () => {
    const a = process();
    const b = process();
    expect(await a.claim('t1', 'k-terminated', 'req-1')).to.deep.equal({ kind: 'claimed' });
    const { rowCount } = await pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_locks
        WHERE locktype = 'advisory' AND granted AND pid <> pg_backend_pid()
          AND pid IN (SELECT pid FROM pg_stat_activity
                       WHERE application_name LIKE '% claims' AND datname = current_database())`,
    );
    expect(rowCount).to.be.greaterThan(0);
    // The server ends the session at once; its lock is gone when the next claim asks.
    let claim = await b.claim('t1', 'k-terminated', 'req-1');
    for (let i = 0; i < 50 && claim.kind === 'in_progress'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      claim = await b.claim('t1', 'k-terminated', 'req-1');
    }
    expect(claim).to.deep.equal({ kind: 'claimed' });
    // The process that lost its session claims again on a new one.
    expect(await a.claim('t1', 'k-after', 'req-1')).to.deep.equal({ kind: 'claimed' });
    expect(await b.claim('t1', 'k-after', 'req-1')).to.deep.equal({ kind: 'in_progress' });
  });

  it('a released key (the work failed, nothing done) is free for any request; a key past its time is new', async () => {
    const a = process();
    expect(await a.claim('t1', 'k-released', 'req-1')).to.deep.equal({ kind: 'claimed' });
    await a.release('t1', 'k-released');
    expect(await process().claim('t1', 'k-released', 'req-2')).to.deep.equal({ kind: 'claimed' });

    const kept = process();
    expect(await kept.claim('t1', 'k-old', 'req-1')).to.deep.equal({ kind: 'claimed' });
    await kept.complete('t1', 'k-old', 200, {});
    // Kept for no hours: the answer recorded before this statement counts as expired.
    expect(await process(0).claim('t1', 'k-old', 'req-2')).to.deep.equal({ kind: 'claimed' });
  });
});
