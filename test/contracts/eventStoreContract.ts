import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { expectRejection } from '../support/rejection.js';
import { historyChainContract } from './historyChainContract.js';
import {
  type EventStore,
  type RecordedEvent,
  WrongExpectedRevisionError,
} from '../../src/application/ports/eventStore.js';

export interface EventStoreFixture {
  store: EventStore;
  dispose(): Promise<void>;
}

const stream = (kind = 'contract') => `${kind}-${randomUUID()}`;
const event = (n: number) => ({ type: 'Happened', data: { n, amount: '12.30' }, metadata: { tenantId: 't1' } });

/** The behaviour every event store adapter must have; each adapter's test calls this. */
export function eventStoreContract(adapterName: string, create: () => Promise<EventStoreFixture>): void {
  describe(`EventStore contract: ${adapterName}`, function () {
    let fixture: EventStoreFixture;
    let store: EventStore;

    before(async function () {
      fixture = await create();
      store = fixture.store;
    });
    after(async () => fixture?.dispose());

    it('appends to a new stream and reads the events back in order with revisions', async () => {
      const name = stream();
      const id = randomUUID();
      const result = await store.append(name, [{ ...event(1), id }, event(2), event(3)], 'no_stream');
      expect(result.nextExpectedRevision).to.equal(2);
      const events = await store.readStream(name);
      expect(events.map((e) => e.revision)).to.deep.equal([0, 1, 2]);
      expect(events.map((e) => (e.data as { n: number }).n)).to.deep.equal([1, 2, 3]);
      expect(events[0]!.id).to.equal(id);
      expect(events[0]!.type).to.equal('Happened');
      expect(events[0]!.metadata.tenantId).to.equal('t1');
      expect(events[0]!.streamName).to.equal(name);
      expect(Date.parse(events[0]!.recordedAt)).to.be.a('number').and.not.NaN;
      expect(result.lastGlobalPosition).to.equal(events[2]!.globalPosition);
    });

    it('reads an absent stream as empty', async () => {
      expect(await store.readStream(stream())).to.deep.equal([]);
    });

    it('reads part of a stream from a revision', async () => {
      const name = stream();
      await store.append(name, [event(1), event(2), event(3), event(4)], 'no_stream');
      const part = await store.readStream(name, { fromRevision: 1, maxCount: 2 });
      expect(part.map((e) => e.revision)).to.deep.equal([1, 2]);
    });

    it('appends with the exact expected revision and refuses a stale one', async () => {
      const name = stream();
      await store.append(name, [event(1)], 'no_stream');
      await store.append(name, [event(2)], 0);
      const error = await expectRejection(store.append(name, [event(3)], 0));
      expect(error).to.be.instanceOf(WrongExpectedRevisionError);
      expect((error as WrongExpectedRevisionError).actual).to.equal(1);
      expect((await store.readStream(name)).length).to.equal(2);
    });

    it("honours 'no_stream', 'stream_exists' and 'any'", async () => {
      const name = stream();
      expect(await expectRejection(store.append(name, [event(1)], 'stream_exists'))).to.be.instanceOf(
        WrongExpectedRevisionError,
      );
      await store.append(name, [event(1)], 'any');
      expect(await expectRejection(store.append(name, [event(2)], 'no_stream'))).to.be.instanceOf(
        WrongExpectedRevisionError,
      );
      await store.append(name, [event(2)], 'stream_exists');
      await store.append(name, [event(3)], 'any');
      expect((await store.readStream(name)).map((e) => e.revision)).to.deep.equal([0, 1, 2]);
    });

    it('writes all events of a refused append or none: a refused multi-event append leaves nothing', async () => {
      const name = stream();
      await store.append(name, [event(1)], 'no_stream');
      await expectRejection(store.append(name, [event(2), event(3), event(4)], 5));
      expect((await store.readStream(name)).length).to.equal(1);
    });

    it('appends in order: each append only if the ones before it were; the first failure is the answer', async () => {
      const reservation = stream('reservation');
      const document = stream('document');
      await store.append(document, [event(0)], 'no_stream');
      const results = await store.appendInOrder([
        { streamName: reservation, events: [event(1)], expectedRevision: 'no_stream' },
        { streamName: document, events: [event(2), event(3)], expectedRevision: 0 },
      ]);
      expect(results.map((r) => r.nextExpectedRevision)).to.deep.equal([0, 2]);
      expect(results[1]!.lastGlobalPosition > results[0]!.lastGlobalPosition).to.equal(true);
      // The first refused: nothing after it is appended.
      const refused = await expectRejection(
        store.appendInOrder([
          { streamName: reservation, events: [event(4)], expectedRevision: 'no_stream' },
          { streamName: document, events: [event(5)], expectedRevision: 2 },
        ]),
      );
      expect(refused).to.be.instanceOf(WrongExpectedRevisionError);
      expect((refused as WrongExpectedRevisionError).streamName).to.equal(reservation);
      expect((await store.readStream(document)).length).to.equal(3);
      // A later one refused: the earlier ones stay made.
      const later = await expectRejection(
        store.appendInOrder([
          { streamName: reservation, events: [event(6)], expectedRevision: 0 },
          { streamName: document, events: [event(7)], expectedRevision: 0 },
        ]),
      );
      expect((later as WrongExpectedRevisionError).streamName).to.equal(document);
      expect((await store.readStream(reservation)).length).to.equal(2);
      expect((await store.readStream(document)).length).to.equal(3);
    });

    it('lets exactly one of many concurrent appends with the same expected revision win', async () => {
      const name = stream();
      await store.append(name, [event(0)], 'no_stream');
      const outcomes = await Promise.allSettled(
        Array.from({ length: 12 }, (_, i) => store.append(name, [event(i + 1), event(i + 100)], 0)),
      );
      const won = outcomes.filter((o) => o.status === 'fulfilled');
      const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
      expect(won).to.have.length(1);
      expect(lost).to.have.length(11);
      for (const o of lost) expect(o.reason).to.be.instanceOf(WrongExpectedRevisionError);
      expect((await store.readStream(name)).map((e) => e.revision)).to.deep.equal([0, 1, 2]);
    });

    it('lets exactly one of concurrent creators of the same new stream win', async () => {
      const name = stream();
      const outcomes = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) => store.append(name, [event(i)], 'no_stream')),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).to.have.length(1);
      expect((await store.readStream(name)).length).to.equal(1);
    });

    it('gives every event one global position, increasing in append order, readable from a position', async () => {
      const before = await store.headPosition();
      const a = stream();
      const b = stream();
      await store.append(a, [event(1)], 'no_stream');
      await store.append(b, [event(2), event(3)], 'no_stream');
      await store.append(a, [event(4)], 0);
      const after = await store.readAll({ after: before, maxCount: 1000 });
      const ours = after.filter((e) => e.streamName === a || e.streamName === b);
      expect(ours.map((e) => (e.data as { n: number }).n)).to.deep.equal([1, 2, 3, 4]);
      const positions = after.map((e) => e.globalPosition);
      for (let i = 1; i < positions.length; i++) expect(positions[i]! > positions[i - 1]!).to.equal(true);
      expect(await store.headPosition()).to.equal(positions[positions.length - 1]);
      const limited = await store.readAll({ after: before, maxCount: 2 });
      expect(limited).to.have.length(2);
      const rest = await store.readAll({ after: limited[1]!.globalPosition });
      expect(rest[0]!.globalPosition > limited[1]!.globalPosition).to.equal(true);
    });

    it('delivers to a subscriber every event exactly once, in global order, catching up then live', async () => {
      const start = await store.headPosition();
      const name = stream('sub');
      await store.append(name, [event(1), event(2)], 'no_stream');
      const seen: RecordedEvent[] = [];
      let resolveDone: () => void;
      const done = new Promise<void>((resolve) => (resolveDone = resolve));
      const subscription = store.subscribeToAll({
        after: start,
        batchSize: 3,
        onEvents: async (events) => {
          seen.push(...events.filter((e) => e.streamName.startsWith('sub-') && e.streamName === name));
          if (seen.length >= 42) resolveDone();
        },
      });
      // Concurrent live appends from many writers while the subscriber follows.
      await Promise.all(
        Array.from({ length: 20 }, async (_, w) => {
          await store.append(name, [event(100 + w * 2), event(101 + w * 2)], 'any');
        }),
      );
      await Promise.race([
        done,
        new Promise((_, reject) => setTimeout(() => reject(new Error('subscriber missed events')), 15_000)),
      ]);
      await subscription.stop();
      expect(seen).to.have.length(42);
      expect(seen.map((e) => e.revision)).to.deep.equal(Array.from({ length: 42 }, (_, i) => i));
      const positions = seen.map((e) => e.globalPosition);
      for (let i = 1; i < positions.length; i++) expect(positions[i]! > positions[i - 1]!).to.equal(true);
    });

    it('refuses an empty append', async () => {
      await expectRejection(store.append(stream(), [], 'any'));
    });

    historyChainContract(adapterName, () => store);
  });
}
