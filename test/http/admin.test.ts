import { expect } from 'chai';
import { bearer, createOrganization, createTenant, startTestService, type TestService } from '../support/service.js';

type Problem = { loc: Array<string | number>; msg: string; type: string };
const locs = (body: { detail: Problem[] }) => body.detail.map((p) => p.loc);
const BE_NUMBER = '0123456749';
const OTHER_BE_NUMBER = '0202239951';

describe('Administrative interface (organization keys)', function () {
  let t: TestService;
  let org: { id: string; adminKey: string };
  let other: { id: string; adminKey: string };
  const admin = () => bearer(org.adminKey);

  before(async () => {
    // No rate limits here (0 = unlimited): this suite is about the routes; rateLimits.test.ts counts.
    t = await startTestService({ rateLimitAdminPerMinute: 0, rateLimitAdminPerHour: 0, rateLimitStandardPerMinute: 0 });
    org = await createOrganization(t, 'Reseller A');
    other = await createOrganization(t, 'Reseller B');
  });
  after(async () => t?.stop());

  describe('authentication', () => {
    it('answers 401 on every admin route without a key, with a tenant key and with the operator key', async () => {
      const tenant = await createTenant(t, org.adminKey);
      const base = `/api/admin/tenants/${tenant.id}`;
      const routes: Array<['get' | 'post' | 'put' | 'delete', string]> = [
        ['get', '/api/admin/tenants'],
        ['post', '/api/admin/tenants'],
        ['get', base],
        ['put', base],
        ['delete', base],
        ['post', `${base}/api-keys`],
        ['get', `${base}/api-keys`],
        ['get', `${base}/api-keys/latest`],
        ['put', `${base}/api-keys/${tenant.keyId}`],
        ['delete', `${base}/api-keys/${tenant.keyId}`],
      ];
      for (const [method, path] of routes) {
        for (const headers of [{}, bearer(tenant.key), bearer(t.operatorKey)]) {
          const res = await t.http[method](path).set(headers).send({ name: 'x' });
          expect(res.status, `${method} ${path}`).to.equal(401);
          expect(res.body.detail).to.be.a('string');
        }
      }
      // Nothing was changed by the refused calls.
      expect((await t.http.get('/api/me').set(bearer(tenant.key))).status).to.equal(200);
    });
  });

  describe('tenants', () => {
    it('creates a tenant with checked registration numbers, stored in compact form', async () => {
      const res = await t.http
        .post('/api/admin/tenants')
        .set(admin())
        .send({
          name: 'numbers-ok',
          company_number: '0123.456.749',
          company_tax_id: 'BE 0123 456 749',
          peppol_ids: ['0208:0123456749'],
        });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body).to.include({ company_number: BE_NUMBER, company_tax_id: `BE${BE_NUMBER}`, is_deleted: false });
      expect(res.body.peppol_ids).to.deep.equal(['0208:0123456749']);
      const dutch = await t.http
        .post('/api/admin/tenants')
        .set(admin())
        .send({
          name: 'dutch-ok',
          company_number: '12345678',
          company_tax_id: 'NL123456789B01',
          peppol_ids: ['0106:12345678'],
        });
      expect(dutch.status, JSON.stringify(dutch.body)).to.equal(201);
    });

    it('refuses bad registration numbers and Peppol ids with 422 naming each field, and creates nothing', async () => {
      const before = await t.service.eventStore.headPosition();
      const cases: Array<[object, Array<string | number>]> = [
        [{ company_tax_id: 'BE0123456748' }, ['body', 'company_tax_id']],
        [{ company_tax_id: '0123456749' }, ['body', 'company_tax_id']],
        [{ company_number: '0123456748' }, ['body', 'company_number']],
        [{ company_number: OTHER_BE_NUMBER, company_tax_id: `BE${BE_NUMBER}` }, ['body', 'company_number']],
        [{ company_number: '1234567', company_tax_id: 'NL123456789B01' }, ['body', 'company_number']],
        [{ peppol_ids: ['0208:0123456748'] }, ['body', 'peppol_ids', 0]],
        [{ peppol_ids: ['1234:whatever'] }, ['body', 'peppol_ids', 0]],
        [{ peppol_ids: ['0208:0123456749', '0106:12345678'] }, ['body', 'peppol_ids']],
      ];
      for (const [fields, loc] of cases) {
        const res = await t.http
          .post('/api/admin/tenants')
          .set(admin())
          .send({ name: 'bad-numbers', ...fields });
        expect(res.status, JSON.stringify(fields)).to.equal(422);
        expect(locs(res.body), JSON.stringify(fields)).to.deep.include(loc);
        expect(res.body.detail[0].msg).to.be.a('string');
      }
      expect(await t.service.eventStore.headPosition()).to.equal(before);
    });

    it('updates description, company_number, company_tax_id and peppol_ids; omitted fields are kept, null clears', async () => {
      const created = await t.http
        .post('/api/admin/tenants')
        .set(admin())
        .send({
          name: 'to-update',
          description: 'first',
          company_tax_id: `BE${BE_NUMBER}`,
          peppol_ids: [`0208:${BE_NUMBER}`],
        });
      const path = `/api/admin/tenants/${created.body.id}`;
      const res = await t.http
        .put(path)
        .set(admin())
        .send({
          name: 'to-update',
          company_number: OTHER_BE_NUMBER,
          company_tax_id: `BE${OTHER_BE_NUMBER}`,
          peppol_ids: [`0208:${OTHER_BE_NUMBER}`],
        });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.include({
        name: 'to-update',
        description: 'first',
        company_number: OTHER_BE_NUMBER,
        company_tax_id: `BE${OTHER_BE_NUMBER}`,
      });
      expect(res.body.peppol_ids).to.deep.equal([`0208:${OTHER_BE_NUMBER}`]);
      const cleared = await t.http
        .put(path)
        .set(admin())
        .send({ description: null, company_number: null, peppol_ids: null });
      expect(cleared.status).to.equal(200);
      expect(cleared.body).to.include({
        description: null,
        company_number: null,
        company_tax_id: `BE${OTHER_BE_NUMBER}`,
      });
      expect(cleared.body.peppol_ids).to.deep.equal([]);
      const read = await t.http.get(path).set(admin());
      expect(read.body).to.deep.equal(cleared.body);
    });

    it('refuses a different name with 422 (names never change), bad numbers with 422, and an unknown tenant with 404', async () => {
      const tenant = await createTenant(t, org.adminKey, 'keeps-its-name');
      const path = `/api/admin/tenants/${tenant.id}`;
      const renamed = await t.http.put(path).set(admin()).send({ name: 'new-name', description: 'x' });
      expect(renamed.status).to.equal(422);
      expect(locs(renamed.body)).to.deep.equal([['body', 'name']]);
      const badTax = await t.http.put(path).set(admin()).send({ company_tax_id: 'BE0123456748' });
      expect(badTax.status).to.equal(422);
      expect(locs(badTax.body)).to.deep.equal([['body', 'company_tax_id']]);
      const badType = await t.http.put(path).set(admin()).send({ description: 5 });
      expect(badType.status).to.equal(422);
      expect(locs(badType.body)).to.deep.equal([['body', 'description']]);
      expect((await t.http.get(path).set(admin())).body).to.include({ name: 'keeps-its-name', description: null });
      const missing = await t.http
        .put('/api/admin/tenants/00000000-0000-0000-0000-000000000000')
        .set(admin())
        .send({ description: 'x' });
      expect(missing.status).to.equal(404);
      expect(missing.body.detail).to.match(/Tenant not found/);
    });

    it('soft-deletes a tenant: data kept, marked deleted, its keys refused at once with 401', async () => {
      const tenant = await createTenant(t, org.adminKey, 'to-delete');
      const second = await t.http
        .post(`/api/admin/tenants/${tenant.id}/api-keys`)
        .set(admin())
        .send({ name: 'second' });
      expect((await t.http.get('/api/me').set(bearer(tenant.key))).status).to.equal(200);
      const deleted = await t.http.delete(`/api/admin/tenants/${tenant.id}`).set(admin());
      expect(deleted.status).to.equal(200);
      expect(deleted.body).to.include({ id: tenant.id, name: 'to-delete', is_deleted: true });
      for (const key of [tenant.key, second.body.key]) {
        expect((await t.http.get('/api/me').set(bearer(key))).status).to.equal(401);
      }
      // The data stays readable by its organization, in the tenant and in the lists.
      expect((await t.http.get(`/api/admin/tenants/${tenant.id}`).set(admin())).body).to.include({
        is_deleted: true,
        name: 'to-delete',
      });
      const list = await t.http.get('/api/admin/tenants?limit=1000').set(admin());
      expect(list.body.tenants.find((x: { id: string }) => x.id === tenant.id)).to.include({ is_deleted: true });
      expect((await t.http.get(`/api/admin/tenants/${tenant.id}/api-keys`).set(admin())).body.total).to.equal(2);
      // Deleting again answers the same; changing it or giving it keys is a conflict; its name stays taken.
      expect((await t.http.delete(`/api/admin/tenants/${tenant.id}`).set(admin())).body.is_deleted).to.equal(true);
      expect(
        (await t.http.put(`/api/admin/tenants/${tenant.id}`).set(admin()).send({ description: 'x' })).status,
      ).to.equal(409);
      expect(
        (await t.http.post(`/api/admin/tenants/${tenant.id}/api-keys`).set(admin()).send({ name: 'k' })).status,
      ).to.equal(409);
      expect(
        (await t.http.put(`/api/admin/tenants/${tenant.id}/api-keys/${tenant.keyId}`).set(admin()).send({ name: 'k' }))
          .status,
      ).to.equal(409);
      expect((await t.http.post('/api/admin/tenants').set(admin()).send({ name: 'to-delete' })).status).to.equal(409);
      expect(
        (await t.http.delete('/api/admin/tenants/00000000-0000-0000-0000-000000000000').set(admin())).status,
      ).to.equal(404);
    });
  });

  describe('tenant keys', () => {
    it('shows the latest key record (never its value), 404 when the tenant has none', async () => {
      const created = await t.http.post('/api/admin/tenants').set(admin()).send({ name: 'no-keys-yet' });
      const path = `/api/admin/tenants/${created.body.id}/api-keys`;
      const none = await t.http.get(`${path}/latest`).set(admin());
      expect(none.status).to.equal(404);
      expect(none.body.detail).to.be.a('string');
      const first = await t.http.post(path).set(admin()).send({ name: 'first' });
      const second = await t.http.post(path).set(admin()).send({ name: 'second', description: 'newest' });
      expect(first.status).to.equal(201);
      const latest = await t.http.get(`${path}/latest`).set(admin());
      expect(latest.status).to.equal(200);
      expect(latest.body).to.include({
        id: second.body.id,
        name: 'second',
        description: 'newest',
        is_deleted: false,
        tenant_id: created.body.id,
      });
      expect(latest.body).to.not.have.property('key');
      // A revoked key is still the most recently created record.
      await t.http.delete(`${path}/${second.body.id}`).set(admin());
      expect((await t.http.get(`${path}/latest`).set(admin())).body).to.include({
        id: second.body.id,
        is_deleted: true,
      });
    });

    it('renames and describes a key; omitted fields are kept; the key keeps working', async () => {
      const tenant = await createTenant(t, org.adminKey);
      const path = `/api/admin/tenants/${tenant.id}/api-keys/${tenant.keyId}`;
      const described = await t.http.put(path).set(admin()).send({ name: 'erp', description: 'ERP connector' });
      expect(described.status).to.equal(200);
      expect(described.body).to.include({
        id: tenant.keyId,
        name: 'erp',
        description: 'ERP connector',
        is_deleted: false,
      });
      expect(described.body).to.not.have.property('key');
      const renamed = await t.http.put(path).set(admin()).send({ name: 'erp-2' });
      expect(renamed.body).to.include({ name: 'erp-2', description: 'ERP connector' });
      const list = await t.http.get(`/api/admin/tenants/${tenant.id}/api-keys`).set(admin());
      expect(list.body.api_keys[0]).to.include({ name: 'erp-2', description: 'ERP connector' });
      expect((await t.http.get('/api/me').set(bearer(tenant.key))).status).to.equal(200);
    });

    it('refuses a bad key body with 422, an unknown key with 404 and a revoked key with 409', async () => {
      const tenant = await createTenant(t, org.adminKey);
      const base = `/api/admin/tenants/${tenant.id}/api-keys`;
      const empty = await t.http.put(`${base}/${tenant.keyId}`).set(admin()).send({ name: '  ' });
      expect(empty.status).to.equal(422);
      expect(locs(empty.body)).to.deep.equal([['body', 'name']]);
      const noName = await t.http.post(base).set(admin()).send({ description: 'x' });
      expect(noName.status).to.equal(422);
      expect(noName.body.detail[0]).to.include({ type: 'missing' });
      expect(
        (await t.http.put(`${base}/00000000-0000-0000-0000-000000000000`).set(admin()).send({ name: 'x' })).status,
      ).to.equal(404);
      expect((await t.http.delete(`${base}/00000000-0000-0000-0000-000000000000`).set(admin())).status).to.equal(404);
      await t.http.delete(`${base}/${tenant.keyId}`).set(admin());
      const revoked = await t.http.put(`${base}/${tenant.keyId}`).set(admin()).send({ name: 'x' });
      expect(revoked.status).to.equal(409);
      expect(revoked.body.detail).to.match(/revoked/);
    });

    it("refuses another tenant's key and the organization's own key under a tenant with 404", async () => {
      const a = await createTenant(t, org.adminKey);
      const b = await createTenant(t, org.adminKey);
      const orgKeyId = (await t.http.post(`/api/operator/organizations/${org.id}/keys`).set(bearer(t.operatorKey))).body
        .id;
      for (const keyId of [b.keyId, orgKeyId]) {
        expect(
          (await t.http.put(`/api/admin/tenants/${a.id}/api-keys/${keyId}`).set(admin()).send({ name: 'x' })).status,
        ).to.equal(404);
        expect((await t.http.delete(`/api/admin/tenants/${a.id}/api-keys/${keyId}`).set(admin())).status).to.equal(404);
      }
      expect((await t.http.get('/api/me').set(bearer(b.key))).status).to.equal(200);
    });

    it('rotates a key: create the new one, switch over, revoke the old one (old 401, new 200)', async () => {
      const tenant = await createTenant(t, org.adminKey);
      const fresh = await t.http
        .post(`/api/admin/tenants/${tenant.id}/api-keys`)
        .set(admin())
        .send({ name: 'rotated' });
      expect(fresh.status).to.equal(201);
      expect(fresh.body.key).to.match(/^ik_/);
      // Both work during the switch-over.
      expect((await t.http.get('/api/me').set(bearer(tenant.key))).status).to.equal(200);
      expect((await t.http.get('/api/me').set(bearer(fresh.body.key))).status).to.equal(200);
      const latest = await t.http.get(`/api/admin/tenants/${tenant.id}/api-keys/latest`).set(admin());
      expect(latest.body.id).to.equal(fresh.body.id);
      expect(
        (await t.http.delete(`/api/admin/tenants/${tenant.id}/api-keys/${tenant.keyId}`).set(admin())).status,
      ).to.equal(200);
      expect((await t.http.get('/api/me').set(bearer(tenant.key))).status).to.equal(401);
      expect((await t.http.get('/api/me').set(bearer(fresh.body.key))).status).to.equal(200);
    });
  });

  describe('tenant isolation', () => {
    it("answers 404 to every route about another organization's tenant or keys, and changes nothing", async () => {
      const tenant = await createTenant(t, org.adminKey, 'isolated-a');
      const base = `/api/admin/tenants/${tenant.id}`;
      const foreign = bearer(other.adminKey);
      const calls: Array<['get' | 'post' | 'put' | 'delete', string, object?]> = [
        ['get', base],
        ['put', base, { description: 'taken over' }],
        ['delete', base],
        ['post', `${base}/api-keys`, { name: 'intruder' }],
        ['get', `${base}/api-keys`],
        ['get', `${base}/api-keys/latest`],
        ['put', `${base}/api-keys/${tenant.keyId}`, { name: 'intruder' }],
        ['delete', `${base}/api-keys/${tenant.keyId}`],
      ];
      const before = await t.service.eventStore.headPosition();
      for (const [method, path, body] of calls) {
        const res = await t.http[method](path)
          .set(foreign)
          .send(body ?? {});
        expect(res.status, `${method} ${path}`).to.equal(404);
        expect(res.body.detail).to.be.a('string');
      }
      expect(await t.service.eventStore.headPosition()).to.equal(before);
      const list = await t.http.get('/api/admin/tenants?limit=1000').set(foreign);
      expect(list.body.tenants.map((x: { id: string }) => x.id)).to.not.include(tenant.id);
      expect((await t.http.get(base).set(admin())).body).to.include({ is_deleted: false, description: null });
      expect((await t.http.get('/api/me').set(bearer(tenant.key))).status).to.equal(200);
    });
  });
});
