import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { MongoClient } from 'mongodb';
import { READ_MODEL_STORE } from '../../src/application/ports/readModelStore.js';
import { RECORDED_EVENT_STORE } from '../../src/application/ports/eventStore.js';
import { MongoReadModelStore } from '../../src/infrastructure/mongo/mongoReadModelStore.js';
import { PgEventStore } from '../../src/infrastructure/postgres/pgEventStore.js';
import { realisticDocuments } from '../domain/document/fixtures/realisticDocuments.js';
import { describeWithMongo, testMongoUrl } from '../support/mongo.js';
import {
  bearer,
  createOrganization,
  createTenant,
  startTestService,
  waitForState,
  type TestService,
} from '../support/service.js';

// The scale-out composition root with MONGODB_URL (read models and Agenda jobs in MongoDB, events
// in PostgreSQL), the whole service on it: against MONGODB_URL, else the FerretDB .ci/run builds.
const what = 'Scale-out profile: read models and jobs in MongoDB (real app)';
describeWithMongo(what, () =>
  describe(what, function () {
    let t: TestService;
    let mongoUrl: string;
    const dbName = `svc_${randomBytes(6).toString('hex')}`;

    before(async () => {
      const url = new URL(await testMongoUrl());
      url.pathname = `/${dbName}`;
      mongoUrl = url.toString();
      t = await startTestService({ mongodbUrl: mongoUrl });
    });
    after(async () => {
      await t?.stop();
      const client = await new MongoClient(mongoUrl).connect();
      try {
        await client.db(dbName).dropDatabase();
      } finally {
        await client.close();
      }
    });

    it('is composed with the MongoDB read-model store and the PostgreSQL event store', () => {
      expect(t.service.resolve(READ_MODEL_STORE)).to.be.instanceOf(MongoReadModelStore);
      expect(t.service.resolve(RECORDED_EVENT_STORE)).to.be.instanceOf(PgEventStore);
    });

    it('creates, reads (from the read model in MongoDB), lists and sends a document', async () => {
      const org = await createOrganization(t);
      // It sends the fixture seller's invoice (BE0403013026) as that id.
      const tenant = await createTenant(t, org.adminKey, undefined, { peppol_ids: ['0208:0403013026'] });
      expect(
        (
          await t.http
            .put(`/api/operator/tenants/${tenant.id}/test-mode`)
            .set(bearer(t.operatorKey))
            .send({ test_mode: true, email: 'buyer@example.test' })
        ).status,
      ).to.equal(200);

      const created = await t.http.post('/api/documents/').set(bearer(tenant.key)).send(realisticDocuments()[0]!.body);
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      const read = await t.http.get(`/api/documents/${created.body.id}`).set(bearer(tenant.key));
      expect(read.status).to.equal(200);
      expect(read.body).to.deep.equal(created.body);
      const list = await t.http.get('/api/documents').set(bearer(tenant.key));
      expect(list.body.documents.map((d: { id: string }) => d.id)).to.deep.equal([created.body.id]);

      // The row the GET read is in MongoDB.
      const client = await new MongoClient(mongoUrl).connect();
      try {
        expect(
          await client
            .db(dbName)
            .collection('rm_documents')
            .countDocuments({ _id: created.body.id } as never),
        ).to.equal(1);
      } finally {
        await client.close();
      }

      const sent = await t.http.post(`/api/documents/${created.body.id}/send`).set(bearer(tenant.key));
      expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
      expect(sent.body.state).to.equal('TRANSIT');
      await waitForState(t, tenant.key, created.body.id, ['SENT']);
    });
  }),
);
