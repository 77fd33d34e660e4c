import { expect } from 'chai';
import pg from 'pg';
import { randomUUID } from 'node:crypto';
import type { Decider, Event } from '../../src/domain/decider.js';
import { handleCommand } from '../../src/application/commandHandler.js';
import { PgEventStore } from '../../src/infrastructure/postgres/pgEventStore.js';
import { applyPostgresSchema } from '../../src/infrastructure/postgres/pgSchema.js';
import { freshDatabase } from '../support/postgres.js';

/** A decider whose every event depends on the exact state: a lost update would show. */
type Counted = Event<'Counted', { value: number; by: string }>;
const counter: Decider<number, { type: 'Count'; by: string }, Counted> = {
  initialState: () => 0,
  decide: (command, state) => [{ type: 'Counted', data: { value: state + 1, by: command.by } }],
  evolve: (_state, event) => event.data.value,
};

describe('Command handling under contention (real PostgreSQL)', () => {
  let pool: pg.Pool;
  let store: PgEventStore;

  before(async () => {
    const url = await freshDatabase('handler');
    pool = new pg.Pool({ connectionString: url, max: 20 });
    await applyPostgresSchema(pool);
    store = new PgEventStore(pool, url);
  });
  after(async () => {
    await store.close();
    await pool.end();
  });

  it('retries a command that lost a concurrency race, deciding again on the new state', async () => {
    const stream = `counter-${randomUUID()}`;
    const writers = Array.from({ length: 16 }, (_, i) => `writer-${i}`);
    const results = await Promise.all(
      writers.map((by) => handleCommand(store, counter, stream, { type: 'Count', by })),
    );
    const events = await store.readStream(stream);
    // Every command took effect exactly once, each on top of the previous one.
    expect(events.map((e) => (e.data as Counted['data']).value)).to.deep.equal(
      Array.from({ length: 16 }, (_, i) => i + 1),
    );
    expect(new Set(events.map((e) => (e.data as Counted['data']).by))).to.deep.equal(new Set(writers));
    expect(results.map((r) => r.state).sort((a, b) => a - b)).to.deep.equal(
      Array.from({ length: 16 }, (_, i) => i + 1),
    );
  });

  it('starts from the stream a previous command left without reading it, and decides again when someone wrote since', async () => {
    const stream = `counter-${randomUUID()}`;
    const first = await handleCommand(store, counter, stream, { type: 'Count', by: 'first' });
    expect(first.stream).to.deep.equal({ state: 1, revision: 0 });

    let reads = 0;
    const counting = Object.assign(Object.create(store) as PgEventStore, {
      readStream: (...args: Parameters<PgEventStore['readStream']>) => {
        reads++;
        return store.readStream(...args);
      },
    });
    const second = await handleCommand(counting, counter, stream, { type: 'Count', by: 'second' }, {}, first.stream);
    expect(reads).to.equal(0);
    expect(second.stream).to.deep.equal({ state: 2, revision: 1 });

    // `first.stream` is stale now: the append conflicts, and the command is decided on what was read.
    const third = await handleCommand(counting, counter, stream, { type: 'Count', by: 'third' }, {}, first.stream);
    expect(reads).to.equal(1);
    expect(third.stream).to.deep.equal({ state: 3, revision: 2 });
    expect((await store.readStream(stream)).map((e) => (e.data as Counted['data']).value)).to.deep.equal([1, 2, 3]);
  });
});
