import { EsdbEventStore } from '../../../src/infrastructure/eventstoredb/esdbEventStore.js';
import { eventStoreContract } from '../../contracts/eventStoreContract.js';
import { requireEnv } from '../../support/skip.js';

// Runs only against a real server (e.g. EVENTSTORE_URL=esdb://localhost:2113?tls=false);
// without one no test is registered and requireEnv prints why.
const url = requireEnv('EVENTSTORE_URL', 'EventStoreDB event store contract');

if (url) {
  eventStoreContract('EventStoreDB', async () => {
    const store = new EsdbEventStore(url);
    // Every test uses fresh random stream names, so a shared server needs no cleanup.
    return { store, dispose: () => store.close() };
  });
}
