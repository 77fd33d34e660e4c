import pg from 'pg';
import { applyPostgresSchema } from '../../../src/infrastructure/postgres/pgSchema.js';
import { PgEventStore } from '../../../src/infrastructure/postgres/pgEventStore.js';
import { PgReadModelStore } from '../../../src/infrastructure/postgres/pgReadModelStore.js';
import { freshDatabase } from '../../support/postgres.js';
import { eventStoreContract } from '../../contracts/eventStoreContract.js';
import { readModelStoreContract } from '../../contracts/readModelStoreContract.js';

async function pgFixture() {
  const url = await freshDatabase('contract');
  const pool = new pg.Pool({ connectionString: url, max: 20 });
  await applyPostgresSchema(pool);
  return { url, pool };
}

eventStoreContract('PostgreSQL', async () => {
  const { url, pool } = await pgFixture();
  const store = new PgEventStore(pool, url);
  return {
    store,
    dispose: async () => {
      await store.close();
      await pool.end();
    },
  };
});

readModelStoreContract('PostgreSQL (JSONB)', async () => {
  const { pool } = await pgFixture();
  return { store: new PgReadModelStore(pool), atomicCheckpoint: true, dispose: () => pool.end() };
});
