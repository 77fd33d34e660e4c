import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { MongoReadModelStore } from '../../../src/infrastructure/mongo/mongoReadModelStore.js';
import { readModelStoreContract } from '../../contracts/readModelStoreContract.js';
import { describeWithMongo, ferretDbVersion, testMongoUrl } from '../../support/mongo.js';

// Runs against MONGODB_URL (e.g. mongodb://localhost:27017/?replicaSet=rs0), else against the
// FerretDB that .ci/run builds; without either it is skipped with a warning (a failure in CI).
describeWithMongo('MongoDB read-model store contract', () => {
  readModelStoreContract('MongoDB', async () => {
    const url = await testMongoUrl();
    // A fresh database per run, dropped afterwards, so runs never see each other's data.
    const dbName = `rm_contract_${randomBytes(6).toString('hex')}`;
    const store = await MongoReadModelStore.connect(url, { dbName });
    const ferretdb = await ferretDbVersion(url);
    const kind = store.transactional
      ? 'transactional (replica set)'
      : ferretdb
        ? 'non-transactional (FerretDB has no transactions)'
        : 'non-transactional (standalone)';
    console.log(`    MongoDB read models: ${kind}`);
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
});
