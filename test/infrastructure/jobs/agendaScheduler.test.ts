import { expect } from 'chai';
import pg from 'pg';
import { pino } from 'pino';
import { PostgresBackend } from '@agendajs/postgres-backend';
import { AgendaScheduler } from '../../../src/infrastructure/jobs/agendaScheduler.js';
import { freshDatabase } from '../../support/postgres.js';

describe('Agenda scheduler on PostgreSQL', () => {
  let pool: pg.Pool;
  let scheduler: AgendaScheduler;
  const runs: Array<{ n: number }> = [];

  before(async () => {
    pool = new pg.Pool({ connectionString: await freshDatabase('jobs') });
    // Agenda's LISTEN connection comes from this pool; it may outlive stop() briefly.
    pool.on('error', () => undefined);
    scheduler = new AgendaScheduler({ backend: new PostgresBackend({ pool }), logger: pino({ level: 'silent' }), processEveryMs: 100, lockLifetimeMs: 2000 });
    scheduler.define<{ n: number }>('record', async (data) => {
      runs.push({ n: data.n });
    });
    scheduler.define<{ n: number }>('flaky', async (data) => {
      runs.push({ n: data.n });
      if (runs.filter((r) => r.n === data.n).length === 1) throw new Error('the database went away');
    });
    await scheduler.start();
  });
  after(async () => {
    await scheduler.stop();
    await pool.end();
  });

  async function until(predicate: () => boolean, ms = 10_000) {
    const deadline = Date.now() + ms;
    while (!predicate()) {
      if (Date.now() > deadline) throw new Error('condition not reached');
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('runs a scheduled job, and a job scheduled twice with one unique key once', async () => {
    await scheduler.schedule('record', { n: 1 });
    await scheduler.schedule('record', { n: 2 }, { uniqueKey: 'event-42' });
    await scheduler.schedule('record', { n: 2 }, { uniqueKey: 'event-42' });
    await until(() => runs.some((r) => r.n === 1) && runs.some((r) => r.n === 2));
    await new Promise((r) => setTimeout(r, 500));
    expect(runs.filter((r) => r.n === 2)).to.have.length(1);
    const { rows } = await pool.query("SELECT count(*)::int AS n FROM agenda_jobs WHERE name = 'record'");
    expect(rows[0].n).to.equal(2);
  });

  it('runs a job that threw again later, until it succeeds', async () => {
    await scheduler.schedule('flaky', { n: 4 });
    await until(() => runs.filter((r) => r.n === 4).length === 2);
    await new Promise((r) => setTimeout(r, 1500));
    expect(runs.filter((r) => r.n === 4)).to.have.length(2);
  });

  it('runs a job at its scheduled time, not before', async () => {
    const at = new Date(Date.now() + 1000);
    await scheduler.schedule('record', { n: 3 }, { at });
    await new Promise((r) => setTimeout(r, 300));
    expect(runs.some((r) => r.n === 3)).to.equal(false);
    await until(() => runs.some((r) => r.n === 3));
  });
});
