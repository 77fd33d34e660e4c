import { expect } from 'chai';
import pg from 'pg';
import { pino } from 'pino';
import { Writable } from 'node:stream';
import { checkConnectionBudget, namedConnections } from '../../../src/infrastructure/postgres/connectionBudget.js';
import { freshDatabase } from '../../support/postgres.js';

describe('PostgreSQL connection budget of the processes sharing a server (real PostgreSQL)', () => {
  it('names each process’s connections, keeping a name the URL gives', () => {
    expect(namedConnections('postgres://u:p@h:5432/db')).to.match(
      new RegExp(`^postgres://u:p@h:5432/db\\?application_name=invoicing%20.*%3A${process.pid}$`),
    );
    expect(namedConnections('postgres://h/db?sslmode=disable')).to.match(/\?sslmode=disable&application_name=/);
    expect(namedConnections('postgres://h/db?application_name=mine')).to.equal('postgres://h/db?application_name=mine');
  });

  it('warns when the processes on the server could open more connections than it takes, and not otherwise', async () => {
    const url = namedConnections(await freshDatabase('budget'));
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    const lines: string[] = [];
    const logger = pino(
      { level: 'warn' },
      new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    );
    try {
      await checkConnectionBudget(pool, 20, logger);
      expect(lines).to.deep.equal([]);
      // The test server takes 300 connections.
      await checkConnectionBudget(pool, 400, logger);
      expect(lines).to.have.length(1);
      expect(JSON.parse(lines[0]!).msg).to.match(
        /PostgreSQL takes 29\d connections; .* may open 404 each .*lower DATABASE_POOL_SIZE/,
      );
    } finally {
      await pool.end();
    }
  });
});
