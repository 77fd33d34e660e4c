import { expect } from 'chai';
import type { RecordedEvent } from '../../src/application/ports/eventStore.js';
import { followAll } from '../../src/infrastructure/eventStoreFollower.js';

/** A log in memory with a wake-up signal per append: the follower's pacing is pure logic. */
function memoryLog() {
  const events: RecordedEvent[] = [];
  const listeners = new Set<() => void>();
  let reads = 0;
  return {
    get reads() {
      return reads;
    },
    append(type: string) {
      const position = BigInt(events.length);
      events.push({
        id: `e${position}`,
        streamName: 's',
        revision: events.length,
        globalPosition: position,
        type,
        data: {},
        metadata: {},
        recordedAt: new Date().toISOString(),
      });
      for (const wake of listeners) wake();
    },
    store: {
      async readAll({ after = -1n, maxCount = 500 }: { after?: bigint; maxCount?: number }) {
        reads++;
        return events.filter((e) => e.globalPosition > after).slice(0, maxCount);
      },
    },
    listen(wake: () => void) {
      listeners.add(wake);
      return () => listeners.delete(wake);
    },
  };
}

describe('Following the log', () => {
  it('reads events appended in quick succession as one batch, and the first of them at once', async () => {
    const log = memoryLog();
    const batches: string[][] = [];
    let delivered: () => void = () => undefined;
    let next = new Promise<void>((resolve) => (delivered = resolve));
    // A long interval makes "quick succession" certain: the appends below are synchronous.
    const subscription = followAll(
      log.store,
      {
        onEvents: async (events) => {
          batches.push(events.map((e) => e.type));
          delivered();
          next = new Promise<void>((resolve) => (delivered = resolve));
        },
      },
      (wake) => log.listen(wake),
      60_000,
    );
    try {
      log.append('first');
      await next;
      expect(batches).to.deep.equal([['first']]);
      // Within the interval: no read until it has passed, however many signals arrive.
      const readsBefore = log.reads;
      log.append('second');
      log.append('third');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(log.reads).to.equal(readsBefore);
      expect(batches).to.have.length(1);
    } finally {
      // Stopping ends the pause instead of waiting it out (the test would time out otherwise).
      await subscription.stop();
    }
  });

  it('delivers every event once and in order when the pause is short', async () => {
    const log = memoryLog();
    const seen: string[] = [];
    const subscription = followAll(
      log.store,
      {
        onEvents: async (events) => {
          seen.push(...events.map((e) => e.type));
        },
      },
      (wake) => log.listen(wake),
      20,
    );
    try {
      for (let i = 0; i < 30; i++) {
        log.append(`e${i}`);
        if (i % 5 === 4) await new Promise((resolve) => setTimeout(resolve, 5));
      }
      for (let i = 0; i < 200 && seen.length < 30; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(seen).to.deep.equal(Array.from({ length: 30 }, (_, i) => `e${i}`));
    } finally {
      await subscription.stop();
    }
  });
});
