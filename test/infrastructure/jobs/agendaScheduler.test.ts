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
