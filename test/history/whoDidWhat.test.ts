import { expect } from 'chai';
import type { EventMetadata } from '../../src/application/ports/eventStore.js';
import { bearer, createOrganization, createTenant, startTestService, type TestService } from '../support/service.js';
import { realisticDocuments } from '../domain/document/fixtures/realisticDocuments.js';

describe("Who did what: every event's actor, in words in a document's history (real app, PostgreSQL)", function () {
  let t: TestService;

  before(async () => {
    t = await startTestService();
  });
  after(async () => t?.stop());

  it("names the key by its name at the time, derives what older events' metadata allows, and says unknown for the rest", async () => {
    const { adminKey } = await createOrganization(t);
    const tenant = await createTenant(t, adminKey);
    const created = await t.http
      .post('/api/documents/')
      .set(bearer(tenant.key))
      .send({ ...structuredClone(realisticDocuments()[0]!.body), invoice_id: 'WHO-1' });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const stream = `document-${created.body.id}`;

    // Events as they were recorded before actors were tagged: a key as `key:<id>`, a job by its name, nothing.
    const legacy = (actor: string | undefined) =>
      ({ tenantId: tenant.id, ...(actor ? { actor } : {}) }) as unknown as EventMetadata;
    const validated = (n: number) => ({
      type: 'DocumentValidated',
      data: {
        document_id: created.body.id,
        validation_id: `v${n}`,
        is_valid: true,
        fatal: 0,
        warnings: 0,
        validated_at: new Date().toISOString(),
      },
    });
    await t.service.eventStore.append(
      stream,
      [
        { ...validated(1), metadata: legacy(`key:${tenant.keyId}`) },
        { ...validated(2), metadata: legacy('webhooks') },
        { ...validated(3), metadata: legacy(undefined) },
      ],
      0,
    );
    // Renamed afterwards: what the key did before keeps the name it had.
    const renamed = await t.http
      .put(`/api/admin/tenants/${tenant.id}/api-keys/${tenant.keyId}`)
      .set(bearer(adminKey))
      .send({ name: 'erp' });
    expect(renamed.status, JSON.stringify(renamed.body)).to.equal(200);
    const deleted = await t.http.delete(`/api/documents/${created.body.id}`).set(bearer(tenant.key));
    expect(deleted.status, JSON.stringify(deleted.body)).to.be.oneOf([200, 204]);

    const history = await t.http.get(`/api/documents/${created.body.id}/history`).set(bearer(tenant.key));
    expect(history.status).to.equal(200);
    const actors = history.body.events.map((e: { type: string; actor: string }) => [e.type, e.actor]);
    expect(actors).to.deep.equal([
      ['DocumentCreated', `API key 'app' (${tenant.keyId})`],
      ['DocumentValidated', `API key 'app' (${tenant.keyId})`],
      ['DocumentValidated', 'webhook dispatcher'],
      ['DocumentValidated', 'unknown'],
      ['DocumentDeleted', `API key 'erp' (${tenant.keyId})`],
    ]);
    expect(history.body.events[1].actor_detail).to.deep.equal({
      kind: 'api_key',
      key_id: tenant.keyId,
      key_name: 'app',
      tenant_id: tenant.id,
    });
    // What is recorded now is the whole actor, not a string to be looked up.
    const recorded = await t.service.eventStore.readStream(stream);
    expect(recorded[recorded.length - 1]!.metadata.actor).to.deep.equal({
      kind: 'api_key',
      keyId: tenant.keyId,
      keyName: 'erp',
      tenantId: tenant.id,
    });
  });

  it('records the operator and the organization admin as themselves on the events they cause', async () => {
    const { id: organizationId, adminKey } = await createOrganization(t, 'Reseller two');
    const tenant = await createTenant(t, adminKey);
    const testMode = await t.http
      .put(`/api/operator/tenants/${tenant.id}/test-mode`)
      .set(bearer(t.operatorKey))
      .send({ test_mode: true, email: 'test@tenant.example' });
    expect(testMode.status, JSON.stringify(testMode.body)).to.be.oneOf([200, 204]);
    const events = await t.service.eventStore.readStream(`tenant-${tenant.id}`);
    const actors = events.map((e) => e.metadata.actor);
    expect(actors[0]).to.deep.include({ kind: 'organization_admin', organizationId });
    expect(actors[actors.length - 1]).to.deep.equal({ kind: 'operator' });
  });
});
