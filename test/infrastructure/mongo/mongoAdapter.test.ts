import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { MongoReadModelStore } from '../../../src/infrastructure/mongo/mongoReadModelStore.js';
import { readModelStoreContract } from '../../contracts/readModelStoreContract.js';
import { requireEnv } from '../../support/skip.js';

// Runs only against a real server (e.g. MONGODB_URL=mongodb://localhost:27017/?replicaSet=rs0);
// without one no test is registered and requireEnv prints why.
const url = requireEnv('MONGODB_URL', 'MongoDB read-model store contract');

if (url) {
  readModelStoreContract('MongoDB', async () => {
    // A fresh database per run, dropped afterwards, so runs never see each other's data.
    const dbName = `rm_contract_${randomBytes(6).toString('hex')}`;
    const store = await MongoReadModelStore.connect(url, { dbName });
    console.log(`    MongoDB read models: ${store.transactional ? 'transactional (replica set)' : 'non-transactional (standalone)'}`);
    return {
      store,
      atomicCheckpoint: store.transactional,
      dispose: async () => {
        await store.close();
        const admin = await new MongoClient(url).connect();
        try {
          await admin.db(dbName).dropDatabase();
        } finally {
          await admin.close();
        }
      },
    };
  });
}
