import { expect } from 'chai';
import pg from 'pg';
import { applyPostgresSchema } from '../../../src/infrastructure/postgres/pgSchema.js';
import { PgBlobStore } from '../../../src/infrastructure/blobs/pgBlobStore.js';
import { freshDatabase } from '../../support/postgres.js';
import { blobStoreContract } from '../../contracts/blobStoreContract.js';

async function pgFixture() {
  const pool = new pg.Pool({ connectionString: await freshDatabase('blobs'), max: 10 });
  await applyPostgresSchema(pool);
  return pool;
}

blobStoreContract('PostgreSQL (bytea)', async () => {
  const pool = await pgFixture();
  // Nothing listens on port 1: every query fails to connect.
  const nowhere = new pg.Pool({
    connectionString: 'postgres://nobody:nothing@127.0.0.1:1/none',
    connectionTimeoutMillis: 2_000,
  });
  return {
    store: new PgBlobStore(pool),
    corrupt: async (sha256) => {
      await pool.query(`UPDATE blobs SET content = set_byte(content, 0, get_byte(content, 0) # 1) WHERE sha256 = $1`, [
        sha256,
      ]);
    },
    count: async () => Number((await pool.query<{ n: string }>('SELECT count(*) AS n FROM blobs')).rows[0]!.n),
    unreachable: () => new PgBlobStore(nowhere),
    dispose: async () => {
      await nowhere.end();
      await pool.end();
    },
  };
});

describe('PostgreSQL blob store', () => {
  let pool: pg.Pool;
  before(async () => {
    pool = await pgFixture();
  });
  after(async () => pool?.end());

  it('keeps one row per hash, with its size, and the schema applies again over it', async () => {
    const store = new PgBlobStore(pool);
    const ref = await store.put(Buffer.from('<Invoice/>'), { mediaType: 'application/xml' });
    await applyPostgresSchema(pool);
    const { rows } = await pool.query('SELECT sha256, size, content FROM blobs WHERE sha256 = $1', [ref.sha256]);
    expect(rows).to.have.length(1);
    expect(rows[0]).to.deep.include({ sha256: ref.sha256, size: '10' });
    expect((rows[0].content as Buffer).toString()).to.equal('<Invoice/>');
  });

  it('stores the puts of one turn in one statement: every one answered, the same bytes twice one row', async () => {
    const store = new PgBlobStore(pool);
    let inserts = 0;
    const query = pool.query.bind(pool);
    const counting = Object.assign(Object.create(pool) as pg.Pool, {
      query: (...args: Parameters<typeof query>) => {
        if (String(args[0]).startsWith('INSERT INTO blobs')) inserts++;
        return query(...args);
      },
    });
    const batched = new PgBlobStore(counting);
    const bodies = Array.from({ length: 30 }, (_, i) => Buffer.from(`<Blob n="${i % 20}"/>`));
    const refs = await Promise.all(bodies.map((b) => batched.put(b)));
    expect(inserts, 'one statement for the turn').to.equal(1);
    expect(new Set(refs.map((r) => r.sha256)).size).to.equal(20);
    for (const [i, ref] of refs.entries()) expect((await store.get(ref.sha256))!.equals(bodies[i]!)).to.equal(true);
    // A failing statement fails every put it carried, and the next turn starts afresh.
    const failing = Object.assign(Object.create(pool) as pg.Pool, {
      query: () => Promise.reject(new Error('the database is gone')),
    });
    const broken = new PgBlobStore(failing);
    const outcomes = await Promise.allSettled([broken.put(Buffer.from('a')), broken.put(Buffer.from('b'))]);
    expect(outcomes.map((o) => o.status)).to.deep.equal(['rejected', 'rejected']);
  });

  it('refuses, in the table itself, a key that is not a lowercase SHA-256', async () => {
    const error = await pool.query(`INSERT INTO blobs (sha256, size, content) VALUES ('../x', 0, '')`).then(
      () => null,
      (e: { code?: string }) => e,
    );
    expect(error?.code).to.equal('23514'); // check_violation
  });
});
