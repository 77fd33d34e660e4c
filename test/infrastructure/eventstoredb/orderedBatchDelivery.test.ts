import { expect } from 'chai';
import { OrderedBatchDelivery } from '../../../src/infrastructure/eventstoredb/orderedBatchDelivery.js';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A deliver function whose calls stay pending until released, recording what it received. */
function gatedConsumer() {
  const batches: number[][] = [];
  const gates: Array<() => void> = [];
  let active = 0;
  let maxActive = 0;
  return {
    batches,
    get maxActive() {
      return maxActive;
    },
    deliver: async (batch: number[]) => {
      active++;
      maxActive = Math.max(maxActive, active);
      batches.push(batch);
      await new Promise<void>((resolve) => gates.push(resolve));
      active--;
    },
    releaseNext: async () => {
      gates.shift()?.();
      await tick();
    },
  };
}

describe('OrderedBatchDelivery', () => {
  it('delivers the first item at once and batches whatever arrives while a call is in flight, in order', async () => {
    const consumer = gatedConsumer();
    const delivery = new OrderedBatchDelivery<number>({
      batchSize: 3,
      deliver: consumer.deliver,
      onFailure: () => undefined,
    });
    delivery.push(1);
    await tick();
    expect(consumer.batches).to.deep.equal([[1]]);
    for (const n of [2, 3, 4, 5, 6]) delivery.push(n);
    await tick();
    expect(consumer.batches).to.deep.equal([[1]]); // still waiting for the first call
    await consumer.releaseNext();
    expect(consumer.batches).to.deep.equal([[1], [2, 3, 4]]);
    await consumer.releaseNext();
    expect(consumer.batches).to.deep.equal([[1], [2, 3, 4], [5, 6]]);
    await consumer.releaseNext();
    expect(consumer.maxActive).to.equal(1);
    delivery.push(7);
    await tick();
    expect(consumer.batches.at(-1)).to.deep.equal([7]);
    await consumer.releaseNext();
    await delivery.close();
  });

  it('stops on the first rejection, reports it once and delivers nothing more', async () => {
    const delivered: number[][] = [];
    const failures: unknown[] = [];
    const delivery = new OrderedBatchDelivery<number>({
      batchSize: 2,
      deliver: async (batch) => {
        delivered.push(batch);
        if (batch.includes(1)) throw new Error('handler failed');
      },
      onFailure: (error) => failures.push(error),
    });
    delivery.push(1);
    delivery.push(2);
    delivery.push(3);
    await tick();
    delivery.push(4);
    await tick();
    expect(delivered).to.deep.equal([[1]]);
    expect(failures).to.have.length(1);
    expect((failures[0] as Error).message).to.equal('handler failed');
    await delivery.close();
  });

  it('pauses the source above the high-water mark and resumes it once the buffer drains', async () => {
    const consumer = gatedConsumer();
    const flow: string[] = [];
    const delivery = new OrderedBatchDelivery<number>({
      batchSize: 2,
      highWaterMark: 4,
      deliver: consumer.deliver,
      onFailure: () => undefined,
      flow: { pause: () => flow.push('pause'), resume: () => flow.push('resume') },
    });
    for (let n = 1; n <= 6; n++) delivery.push(n); // 1 in flight, 5 buffered
    expect(flow).to.deep.equal(['pause']);
    await consumer.releaseNext(); // takes [2,3]: 3 left, still above half the mark
    expect(flow).to.deep.equal(['pause']);
    await consumer.releaseNext(); // takes [4,5]: 1 left
    expect(flow).to.deep.equal(['pause', 'resume']);
    await consumer.releaseNext();
    await consumer.releaseNext();
    expect(consumer.batches).to.deep.equal([[1], [2, 3], [4, 5], [6]]);
    await delivery.close();
  });

  it('close waits for the delivery in flight and drops the rest', async () => {
    const consumer = gatedConsumer();
    const delivery = new OrderedBatchDelivery<number>({
      batchSize: 10,
      deliver: consumer.deliver,
      onFailure: () => undefined,
    });
    delivery.push(1);
    delivery.push(2);
    let closed = false;
    const closing = delivery.close().then(() => (closed = true));
    await tick();
    expect(closed).to.equal(false);
    await consumer.releaseNext();
    await closing;
    expect(closed).to.equal(true);
    delivery.push(3);
    await tick();
    expect(consumer.batches).to.deep.equal([[1]]);
  });

  it('refuses a batch size below one', () => {
    expect(
      () =>
        new OrderedBatchDelivery<number>({ batchSize: 0, deliver: async () => undefined, onFailure: () => undefined }),
    ).to.throw(RangeError);
  });
});
