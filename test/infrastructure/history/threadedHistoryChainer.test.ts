import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { pino } from 'pino';
import { applyPostgresSchema } from '../../../src/infrastructure/postgres/pgSchema.js';
import { PgEventStore } from '../../../src/infrastructure/postgres/pgEventStore.js';
import { PgHistoryChainStore } from '../../../src/infrastructure/postgres/pgHistoryChain.js';
import { ThreadedHistoryChainer } from '../../../src/infrastructure/history/threadedHistoryChainer.js';
import { linksFor } from '../../../src/application/history/historyChainer.js';
import { freshDatabase } from '../../support/postgres.js';

/**
 * The service's chainer runs in a worker thread on connections of its own: what it chains is what
 * the in-process chainer computes from the same events, it follows appends made after it started,
 * and its owner sees each new head (catchUp, chainHead).
 */
describe('ThreadedHistoryChainer (worker thread, PostgreSQL)', function () {
  this.timeout(60_000);
  let pool: pg.Pool;
  let url: string;
  let store: PgEventStore;
  let chain: PgHistoryChainStore;
  let chainer: ThreadedHistoryChainer | null = null;

  before(async () => {
    url = await freshDatabase('threaded_chain');
    pool = new pg.Pool({ connectionString: url, max: 8 });
    await applyPostgresSchema(pool);
    store = new PgEventStore(pool, url);
    chain = new PgHistoryChainStore(pool);
  });
  after(async () => {
    await chainer?.stop();
    await store?.close();
    await pool?.end();
  });

  const appendSome = (writers: number, each: number) =>
    Promise.all(
      Array.from({ length: writers }, async (_, w) => {
        const stream = `threaded-${randomUUID()}`;
        for (let i = 0; i < each; i++)
          await store.append(
            stream,
            [{ type: 'Noted', data: { writer: w, i, amount: '10.00' }, metadata: { requestId: randomUUID() } }],
            i === 0 ? 'no_stream' : i - 1,
          );
      }),
    );

  const expectChainAsComputedHere = async () => {
    const events = await store.readAll({ maxCount: 10_000 });
    const links = await chain.read({ maxCount: 10_000 });
    const expected = linksFor(events, null);
    expect(
      links.map((l) => [String(l.position), l.seq, l.eventId, l.digest.toString('hex'), l.hash.toString('hex')]),
    ).to.deep.equal(
      expected.map((l) => [String(l.position), l.seq, l.eventId, l.digest.toString('hex'), l.hash.toString('hex')]),
    );
    return expected;
  };

  it('chains what was appended before it started and what comes after, as the in-process chainer computes it', async () => {
    await appendSome(4, 25);
    chainer = new ThreadedHistoryChainer(
      store,
      chain,
      pino({ level: 'silent' }),
      { paceMs: 50, batchSize: 40 },
      { databaseUrl: url, eventStoreUrl: null },
    );
    await chainer.start();
    expect(await chainer.catchUp(30_000)).to.equal(true);
    expect((await expectChainAsComputedHere()).length).to.equal(100);

    await appendSome(3, 10);
    expect(await chainer.catchUp(30_000)).to.equal(true);
    const all = await expectChainAsComputedHere();
    expect(all.length).to.equal(130);
    // The owner knows the head the thread wrote last.
    expect(String(chainer.chainHead()!.position)).to.equal(String(all[all.length - 1]!.position));
    expect(await chainer.status()).to.include({ chained_events: 130 });
  });

  it('stops its thread on stop, and chains nothing more until started again', async () => {
    await chainer!.stop();
    await appendSome(1, 5);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await chain.head())!.seq).to.equal(129);
    await chainer!.start();
    expect(await chainer!.catchUp(30_000)).to.equal(true);
    expect((await expectChainAsComputedHere()).length).to.equal(135);
  });
});
