import { expect } from 'chai';
import { FairQueue } from '../../../src/infrastructure/fairness/fairQueue.js';

describe('FairQueue: tenants take turns', () => {
  const drain = (queue: FairQueue<string>, eligible?: (tenantId: string, item: string) => boolean) => {
    const taken: string[] = [];
    for (let next = queue.take(eligible); next; next = queue.take(eligible)) taken.push(next.item);
    return taken;
  };

  it('Given a backlog of one tenant and one task of another, Then the other goes second, not last', () => {
    const queue = new FairQueue<string>();
    for (const item of ['a1', 'a2', 'a3']) queue.push('a', item);
    queue.push('b', 'b1');
    expect(drain(queue)).to.deep.equal(['a1', 'b1', 'a2', 'a3']);
  });

  it('Given a tenant just served, When another arrives later, Then the newcomer goes first; an idle tenant starts afresh', () => {
    const queue = new FairQueue<string>();
    queue.push('a', 'a1');
    expect(queue.take()?.item).to.equal('a1');
    queue.push('a', 'a2');
    queue.push('b', 'b1');
    expect(queue.take()?.item).to.equal('b1');
    expect(queue.take()?.item).to.equal('a2');
    queue.idle('a');
    queue.idle('b');
    queue.push('b', 'b2');
    queue.push('a', 'a3');
    expect(drain(queue)).to.deep.equal(['b2', 'a3']);
  });

  it('passes over a tenant whose first item is not eligible, keeping its order, and counts what waits', () => {
    const queue = new FairQueue<string>();
    queue.push('a', 'large');
    queue.push('a', 'small');
    queue.push('b', 'b1');
    expect(queue.waiting('a')).to.equal(2);
    expect(queue.tenantsWaiting).to.equal(2);
    expect(drain(queue, (_tenant, item) => item !== 'large')).to.deep.equal(['b1']);
    expect(drain(queue)).to.deep.equal(['large', 'small']);
    expect(queue.drain()).to.deep.equal([]);
  });
});
