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
    const results = await Promise.all(writers.map((by) => handleCommand(store, counter, stream, { type: 'Count', by })));
    const events = await store.readStream(stream);
    // Every command took effect exactly once, each on top of the previous one.
    expect(events.map((e) => (e.data as Counted['data']).value)).to.deep.equal(Array.from({ length: 16 }, (_, i) => i + 1));
    expect(new Set(events.map((e) => (e.data as Counted['data']).by))).to.deep.equal(new Set(writers));
    expect(results.map((r) => r.state).sort((a, b) => a - b)).to.deep.equal(Array.from({ length: 16 }, (_, i) => i + 1));
  });
});
