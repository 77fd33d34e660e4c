import { expect } from 'chai';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import pg from 'pg';
import { pino } from 'pino';
import type { EventStore } from '../../src/application/ports/eventStore.js';
import { applyPostgresSchema } from '../../src/infrastructure/postgres/pgSchema.js';
import { PgHistoryChainStore } from '../../src/infrastructure/postgres/pgHistoryChain.js';
import { KeyCheckpointSigner } from '../../src/infrastructure/history/checkpointSigner.js';
import { noCheckpointFile } from '../../src/infrastructure/history/checkpointFile.js';
import { HistoryChainer } from '../../src/application/history/historyChainer.js';
import { HistoryCheckpoints } from '../../src/application/history/historyCheckpoints.js';
import { eventJson, HistoryProofs, verifyHistoryProofs } from '../../src/application/history/historyProofs.js';
import { walkChain } from '../../src/application/history/chainWalk.js';
import { eventDigest } from '../../src/application/history/canonicalEvent.js';
import { freshDatabase } from '../support/postgres.js';

/**
 * The hash chain over an event store adapter: the chainer follows the adapter's global order as
 * committed, and what it chained verifies against what the adapter reads back. The chain itself is
 * kept in PostgreSQL (as in every profile). Run from the event store contract, for every adapter.
 */
export function historyChainContract(adapterName: string, store: () => EventStore): void {
  describe(`History chain over ${adapterName}`, function () {
    let pool: pg.Pool;
    let chain: PgHistoryChainStore;
    let chainer: HistoryChainer;
    let checkpoints: HistoryCheckpoints;
    const signer = new KeyCheckpointSigner(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey, null, 'test');
    const logger = pino({ level: 'silent' });

    before(async () => {
      pool = new pg.Pool({ connectionString: await freshDatabase('chain'), max: 4 });
      await applyPostgresSchema(pool);
      chain = new PgHistoryChainStore(pool);
      chainer = new HistoryChainer(store(), chain, logger, { paceMs: 0, batchSize: 200 });
      checkpoints = new HistoryCheckpoints(
        chain,
        chainer,
        signer,
        noCheckpointFile,
        { intervalMs: 0, everyEvents: 0 },
        logger,
      );
      await chainer.start();
    });
    after(async () => {
      await chainer?.stop();
      await pool?.end();
    });

    const walk = () =>
      walkChain({
        readEvents: (after, maxCount) => store().readAll({ after, maxCount }),
        readLinks: (after, maxCount) => chain.read({ after, maxCount }),
        readCheckpoints: (after, maxCount) => chain.checkpointsAfter(after ?? null, maxCount),
        trustedKeyIds: new Set([signer.keyId]),
      });

    it('chains every event in the global order it was committed in, concurrent writers included, and the chain verifies', async () => {
      const streams = Array.from({ length: 8 }, () => `chained-${randomUUID()}`);
      await Promise.all(
        streams.map(async (name) => {
          for (let i = 0; i < 5; i++) {
            await store().append(
              name,
              [{ type: 'Happened', data: { i, ref: { sha256: 'a'.repeat(64) } } }],
              i === 0 ? 'no_stream' : i - 1,
            );
          }
        }),
      );
      expect(await chainer.catchUp(30_000)).to.equal(true);
      const mine = (await store().readStream(streams[3]!))[2]!;
      const link = await chain.linkAt(mine.globalPosition);
      expect(link?.eventId).to.equal(mine.id);
      expect(link!.digest.equals(eventDigest(mine))).to.equal(true);
      await checkpoints.checkpointNow();
      const report = await walk();
      expect(report.ok, JSON.stringify(report.problems)).to.equal(true);
      expect(report.checkpoints_checked).to.be.greaterThan(0);
    });

    it("links a stream's events to a signed checkpoint in a proof that is checked offline, and names an event changed since", async () => {
      const name = `proved-${randomUUID()}`;
      await store().append(
        name,
        [
          { type: 'Opened', data: { n: 1 } },
          { type: 'Closed', data: { n: 2 } },
        ],
        'no_stream',
      );
      const events = await store().readStream(name);
      const proofs = await new HistoryProofs(chain, checkpoints).proofsFor(events.map((e) => e.globalPosition));
      const carried = events.map(eventJson);
      expect(verifyHistoryProofs(carried, proofs, new Set([signer.keyId]))).to.deep.equal([]);
      const forged = carried.map((e, i) => (i === 1 ? { ...e, data: { n: 3 } } : e));
      expect(
        verifyHistoryProofs(forged, proofs)
          .map((p) => p.detail)
          .join(),
      ).to.contain(`event ${events[1]!.id}`);
      expect(
        verifyHistoryProofs(carried, proofs, new Set(['0'.repeat(64)]))
          .map((p) => `${p.part}: ${p.detail}`)
          .join(),
      ).to.contain('not trusted');
    });

    it('names a changed link of the chain at its position; the event is as chained', async () => {
      const name = `edited-${randomUUID()}`;
      await store().append(name, [{ type: 'Happened', data: {} }], 'no_stream');
      expect(await chainer.catchUp(30_000)).to.equal(true);
      const [event] = await store().readStream(name);
      const { rows } = await pool.query<{ hash: Buffer }>('SELECT hash FROM es_chain WHERE global_position = $1', [
        String(event!.globalPosition),
      ]);
      await pool.query('UPDATE es_chain SET hash = sha256(hash) WHERE global_position = $1', [
        String(event!.globalPosition),
      ]);
      try {
        const report = await walk();
        expect(report.first_problem).to.include({ kind: 'link_changed', position: String(event!.globalPosition) });
      } finally {
        await pool.query('UPDATE es_chain SET hash = $2 WHERE global_position = $1', [
          String(event!.globalPosition),
          rows[0]!.hash,
        ]);
      }
      expect((await walk()).ok).to.equal(true);
    });
  });
}
