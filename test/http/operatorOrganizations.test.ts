import { expect } from 'chai';
import { bearer, createOrganization, createTenant, startTestService, type TestService } from '../support/service.js';
import { realisticDocuments } from '../domain/document/fixtures/realisticDocuments.js';

const invoice = () => structuredClone(realisticDocuments()[0]!.body) as Record<string, unknown>;
/** The fixture's buyer (BE0451234595) and seller (BE0403013026) as Peppol participants. */
const BUYER_ID = '0208:0451234595';
const SELLER_ID = '0208:0403013026';

describe('Operator: organizations, their tenants and usage (real app, PostgreSQL)', function () {
  let t: TestService;

  before(async () => {
    t = await startTestService();
  });
  after(async () => {
    await t?.stop();
  });

  const operator = (path: string) => t.http.get(path).set(bearer(t.operatorKey));

  it('lists organizations a page at a time, oldest first, each with its tenant count and usage', async () => {
    const made: string[] = [];
    for (const name of ['Alpha', 'Bravo', 'Charlie']) made.push((await createOrganization(t, name)).id);
    const first = await operator('/api/operator/organizations?page=1&page_size=2');
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    expect(first.body).to.include({ total: 3, page: 1, page_size: 2, pages: 2, has_next_page: true });
    expect(first.body.items.map((o: { name: string }) => o.name)).to.deep.equal(['Alpha', 'Bravo']);
    const second = await operator('/api/operator/organizations?page=2&page_size=2');
    expect(second.body).to.include({ total: 3, page: 2, has_next_page: false });
    expect(second.body.items.map((o: { id: string }) => o.id)).to.deep.equal([made[2]]);
    expect(second.body.items[0]).to.deep.include({
      tenant_count: 0,
      usage: { documents_sent: 0, documents_received: 0, documents_failed: 0, documents_in_transit: 0, drafts: 0 },
    });

    const bad = await operator('/api/operator/organizations?page_size=101');
    expect(bad.status).to.equal(422);
    expect(bad.body.detail[0].loc).to.deep.equal(['query', 'page_size']);
  });

  it("shows one organization's tenants with what each sent and received; only the operator may look", async () => {
    const org = await createOrganization(t, 'Delta');
    const seller = await createTenant(t, org.adminKey, 'seller', { peppol_ids: [SELLER_ID] });
    const buyer = await createTenant(t, org.adminKey, 'buyer', { peppol_ids: [BUYER_ID] });
    const idle = await createTenant(t, org.adminKey, 'idle');
    expect(
      (
        await t.http
          .post(`/api/admin/tenants/${buyer.id}/peppol/register`)
          .set(bearer(org.adminKey))
          .send({ peppol_id: BUYER_ID, company_name: 'Brouwerij De Zwaan NV' })
      ).status,
    ).to.equal(200);
    const doc = await t.http.post('/api/documents/').set(bearer(seller.key)).send(invoice());
    expect(doc.status).to.equal(200);
    await t.http
      .post('/api/documents/')
      .set(bearer(seller.key))
      .send({ ...invoice(), invoice_id: 'DRAFT-2' });
    expect((await t.http.post(`/api/documents/${doc.body.id}/send`).set(bearer(seller.key))).status).to.equal(200);
    expect((await t.http.delete(`/api/admin/tenants/${idle.id}`).set(bearer(org.adminKey))).status).to.be.oneOf([
      200, 204,
    ]);

    // Delivery to a tenant of this instance happens in the background: wait until it is counted.
    let detail = await operator(`/api/operator/organizations/${org.id}`);
    for (let i = 0; i < 200 && detail.body.usage?.documents_sent !== 1; i++) {
      await new Promise((r) => setTimeout(r, 50));
      detail = await operator(`/api/operator/organizations/${org.id}`);
    }
    expect(detail.status, JSON.stringify(detail.body)).to.equal(200);
    expect(detail.body).to.deep.include({
      id: org.id,
      name: 'Delta',
      tenant_count: 2,
      usage: { documents_sent: 1, documents_received: 1, documents_failed: 0, documents_in_transit: 0, drafts: 1 },
    });
    const byName = Object.fromEntries(
      (detail.body.tenants as Array<{ name: string; usage: object; is_deleted: boolean }>).map((x) => [x.name, x]),
    );
    expect(Object.keys(byName)).to.have.members(['seller', 'buyer', 'idle']);
    expect(byName.seller!.usage).to.deep.include({ documents_sent: 1, documents_received: 0, drafts: 1 });
    expect(byName.buyer!.usage).to.deep.include({ documents_sent: 0, documents_received: 1 });
    expect(byName.idle!.is_deleted).to.equal(true);

    const listed = await operator('/api/operator/organizations?page_size=100');
    const delta = listed.body.items.find((o: { id: string }) => o.id === org.id);
    expect(delta).to.deep.include({ tenant_count: 2 });
    expect(delta.usage).to.deep.equal(detail.body.usage);

    expect((await operator('/api/operator/organizations/no-such-org')).status).to.equal(404);
    for (const key of [org.adminKey, seller.key]) {
      expect((await t.http.get('/api/operator/organizations').set(bearer(key))).status).to.equal(401);
      expect((await t.http.get(`/api/operator/organizations/${org.id}`).set(bearer(key))).status).to.equal(401);
    }
  });
});
