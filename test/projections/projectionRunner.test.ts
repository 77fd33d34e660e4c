import { expect } from 'chai';
import pg from 'pg';
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { PgEventStore } from '../../src/infrastructure/postgres/pgEventStore.js';
import { PgReadModelStore } from '../../src/infrastructure/postgres/pgReadModelStore.js';
import { applyPostgresSchema } from '../../src/infrastructure/postgres/pgSchema.js';
import { ProjectionRunner, resetProjection } from '../../src/projections/projectionRunner.js';
import type { Projection } from '../../src/application/ports/projection.js';
import { freshDatabase } from '../support/postgres.js';

interface Total {
  id: string;
  sum: number;
  count: number;
}

/** Sums amounts per account: double or missed application of an event changes the sum. */
const totals: Projection = {
  name: 'test_totals',
  version: 1,
  collections: [{ name: 'test_totals' }],
  handles: ['Deposited'],
  async handle(event, session) {
    const data = event.data as { account: string; amount: number };
    const c = session.collection<Total>('test_totals');
    const current = (await c.get(data.account)) ?? { id: data.account, sum: 0, count: 0 };
    await c.upsert(data.account, { id: data.account, sum: current.sum + data.amount, count: current.count + 1 });
  },
};

describe('Projection runner (real PostgreSQL)', () => {
  let pool: pg.Pool;
  let url: string;
  let store: PgEventStore;
  const readModels = () => new PgReadModelStore(pool);
  const logger = pino({ level: 'silent' });

  before(async () => {
    url = await freshDatabase('projections');
    pool = new pg.Pool({ connectionString: url, max: 20 });
    await applyPostgresSchema(pool);
    store = new PgEventStore(pool, url);
  });
  after(async () => {
    await store.close();
    await pool.end();
  });

  async function deposit(account: string, times: number) {
    for (let i = 0; i < times; i++) {
      await store.append(
        `account-${account}`,
        [
          { type: 'Deposited', data: { account, amount: 1 } },
          { type: 'Ignored', data: {} },
        ],
        'any',
      );
    }
  }

  async function totalsOf(account: string): Promise<Total | null> {
    return readModels().collection<Total>('test_totals').get(account);
  }

  it('applies every event once, resumes from its checkpoint after a restart, and rebuilds to the same result', async () => {
    const account = randomUUID();
    await deposit(account, 30);
    const first = new ProjectionRunner(store, readModels(), [totals], logger);
    await first.start();
    expect(await first.catchUp(10_000)).to.equal(true);
    expect(await totalsOf(account)).to.deep.include({ sum: 30, count: 30 });
    await first.stop();

    // Events appended while no runner runs are picked up by the next one, from its checkpoint.
    await deposit(account, 12);
    const second = new ProjectionRunner(store, readModels(), [totals], logger);
    await second.start();
    expect(await second.catchUp(10_000)).to.equal(true);
    expect(await totalsOf(account)).to.deep.include({ sum: 42, count: 42 });
    await second.stop();

    await resetProjection(readModels(), totals);
    expect(await totalsOf(account)).to.equal(null);
    const rebuild = new ProjectionRunner(store, readModels(), [totals], logger);
    await rebuild.start();
    expect(await rebuild.catchUp(10_000)).to.equal(true);
    expect(await totalsOf(account)).to.deep.include({ sum: 42, count: 42 });
    await rebuild.stop();
  });

  it('keeps read models exact when two processes run the same projection concurrently', async () => {
    const account = randomUUID();
    const a = new ProjectionRunner(store, readModels(), [totals], logger);
    const b = new ProjectionRunner(store, readModels(), [totals], logger);
    await Promise.all([a.start(), b.start()]);
    await Promise.all(Array.from({ length: 8 }, () => deposit(account, 10)));
    expect(await a.catchUp(20_000)).to.equal(true);
    expect(await b.catchUp(20_000)).to.equal(true);
    expect(await totalsOf(account)).to.deep.include({ sum: 80, count: 80 });
    await Promise.all([a.stop(), b.stop()]);
  });
});
