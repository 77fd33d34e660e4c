import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { pino } from 'pino';
import { MongoClient } from 'mongodb';
import { PostgresBackend } from '@agendajs/postgres-backend';
import { MongoBackend } from '@agendajs/mongo-backend';
import { AgendaScheduler } from '../../../src/infrastructure/jobs/agendaScheduler.js';
import { jobSchedulerContract } from '../../contracts/jobSchedulerContract.js';
import { freshDatabase } from '../../support/postgres.js';
import { describeWithMongo, testMongoUrl } from '../../support/mongo.js';
import { capturingLogger, eventually } from '../../support/service.js';
import { expect } from 'chai';

const fast = { logger: pino({ level: 'silent' }), processEveryMs: 100, lockLifetimeMs: 2000 };

jobSchedulerContract('Agenda on PostgreSQL', async () => {
  const pool = new pg.Pool({ connectionString: await freshDatabase('jobs') });
  // Agenda's LISTEN connection comes from this pool; it may outlive stop() briefly.
  pool.on('error', () => undefined);
  return {
    scheduler: new AgendaScheduler({ backend: new PostgresBackend({ pool }), ...fast }),
    countJobs: async (name) =>
      (await pool.query('SELECT count(*)::int AS n FROM agenda_jobs WHERE name = $1', [name])).rows[0].n,
    dispose: () => pool.end(),
  };
});

// Against MONGODB_URL, else the FerretDB that .ci/run builds (see test/support/mongo.ts).
describeWithMongo('Agenda on MongoDB', () => {
  jobSchedulerContract('Agenda on MongoDB', async () => {
    const url = await testMongoUrl();
    const client = await new MongoClient(url).connect();
    // A fresh database per run, dropped afterwards.
    const db = client.db(`jobs_${randomBytes(6).toString('hex')}`);
    return {
      scheduler: new AgendaScheduler({ backend: new MongoBackend({ mongo: db }), ...fast }),
      countJobs: (name) => db.collection('agendaJobs').countDocuments({ name }),
      dispose: async () => {
        try {
          await db.dropDatabase();
        } finally {
          await client.close();
        }
      },
    };
  });
});

describe('Agenda on PostgreSQL: a failing job', function () {
  this.timeout(60_000);

  it('logs one warn line naming what the job is about and why it failed, and runs it again', async () => {
    const pool = new pg.Pool({ connectionString: await freshDatabase('jobs') });
    pool.on('error', () => undefined);
    const log = capturingLogger('warn');
    const scheduler = new AgendaScheduler({ backend: new PostgresBackend({ pool }), ...fast, logger: log.logger });
    const runs: string[] = [];
    scheduler.define<{ document_id: string }>('deliver-test', async (data) => {
      runs.push(data.document_id);
      if (runs.length === 1) throw new Error('database went away');
    });
    try {
      await scheduler.start();
      await scheduler.schedule('deliver-test', { document_id: 'doc-1' });
      await eventually(async () => runs.length >= 2, 'the job run again after its failure');
      const lines = log.records.filter((r) => r.job === 'deliver-test');
      expect(lines).to.have.length(1);
      expect(lines[0]).to.include({
        level: 40,
        msg: 'job deliver-test for document doc-1 failed (database went away); it runs again later',
      });
    } finally {
      await scheduler.stop();
      await pool.end();
    }
  });
});
