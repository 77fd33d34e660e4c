import { expect } from 'chai';
import { bearer, createOrganization, createTenant, startTestService, type TestService } from '../support/service.js';

describe('HTTP foundation (real app, real PostgreSQL)', function () {
  let t: TestService;
  let org: { id: string; adminKey: string };

  before(async () => {
    t = await startTestService();
    org = await createOrganization(t);
  });
  after(async () => t?.stop());

  describe('health', () => {
    it('answers /healthz and /readyz without credentials', async () => {
      expect((await t.http.get('/healthz')).body).to.deep.equal({ status: 'ok' });
      const ready = await t.http.get('/readyz');
      expect(ready.status).to.equal(200);
      expect(ready.body.database).to.equal('ok');
    });

    it('echoes a sane X-Request-Id and makes one up otherwise', async () => {
      expect((await t.http.get('/healthz').set('X-Request-Id', 'abc-123')).headers['x-request-id']).to.equal('abc-123');
      const made = (await t.http.get('/healthz').set('X-Request-Id', 'bad id with spaces')).headers['x-request-id'];
      expect(made).to.match(/^[0-9a-f-]{36}$/);
    });
  });

  describe('authentication', () => {
    it('answers 401 with a detail when the key is missing, malformed, unknown or of the wrong kind', async () => {
      const tenant = await createTenant(t, org.adminKey);
      const cases: Array<[string, Record<string, string>]> = [
        ['/api/me', {}],
        ['/api/me', { Authorization: 'Basic Zm9vOmJhcg==' }],
        ['/api/me', bearer('ik_00000000000000000000000000000000.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')],
        ['/api/me', bearer(org.adminKey)],
        ['/api/admin/tenants', bearer(tenant.key)],
        ['/api/admin/tenants', bearer(t.operatorKey)],
        ['/api/operator/tenants/x', bearer(org.adminKey)],
      ];
      for (const [path, headers] of cases) {
        const res = await t.http.get(path).set(headers);
        expect(res.status, `${path} ${JSON.stringify(headers)}`).to.equal(401);
        expect(res.body.detail).to.be.a('string');
        expect(res.headers['www-authenticate']).to.equal('Bearer');
      }
    });

    it('lets a tenant key read its own account', async () => {
      const tenant = await createTenant(t, org.adminKey, 'acme-me');
      const me = await t.http.get('/api/me').set(bearer(tenant.key));
      expect(me.status).to.equal(200);
      expect(me.body).to.include({ name: 'acme-me', plan: 'starter', credit_balance: 0 });
    });

    it('stops a revoked key at once, and keeps the other keys of the tenant working', async () => {
      const tenant = await createTenant(t, org.adminKey);
      const second = await t.http
        .post(`/api/admin/tenants/${tenant.id}/api-keys`)
        .set(bearer(org.adminKey))
        .send({ name: 'second' });
      expect((await t.http.get('/api/me').set(bearer(tenant.key))).status).to.equal(200);
      const revoked = await t.http
        .delete(`/api/admin/tenants/${tenant.id}/api-keys/${tenant.keyId}`)
        .set(bearer(org.adminKey));
      expect(revoked.status).to.equal(200);
      expect(revoked.body.is_deleted).to.equal(true);
      expect((await t.http.get('/api/me').set(bearer(tenant.key))).status).to.equal(401);
      expect((await t.http.get('/api/me').set(bearer(second.body.key))).status).to.equal(200);
    });

    it('stores keys only as hashes: no key value appears in any event', async () => {
      const tenant = await createTenant(t, org.adminKey);
      const all = await t.service.eventStore.readAll({ maxCount: 100000 });
      const serialized = JSON.stringify(all.map((e) => [e.data, e.metadata]));
      expect(serialized).to.not.include(tenant.key);
      expect(serialized).to.not.include(org.adminKey);
      expect(serialized).to.not.include(tenant.key.split('.')[1]);
    });
  });

  describe('error formats', () => {
    it('answers malformed JSON with 400 and a detail, never 500', async () => {
      const res = await t.http
        .post('/api/admin/tenants')
        .set(bearer(org.adminKey))
        .set('Content-Type', 'application/json')
        .send('{"name": "x",');
      expect(res.status).to.equal(400);
      expect(res.body.detail).to.be.a('string');
    });

    it('answers wrong types and missing fields with 422 and the path of each field', async () => {
      const res = await t.http
        .post('/api/admin/tenants')
        .set(bearer(org.adminKey))
        .send({ description: 5, peppol_ids: ['0208:1', 'bad'] });
      expect(res.status).to.equal(422);
      const locs = res.body.detail.map((d: { loc: unknown[] }) => d.loc);
      expect(locs).to.deep.include(['body', 'name']);
      expect(locs).to.deep.include(['body', 'description']);
      expect(locs).to.deep.include(['body', 'peppol_ids', 1]);
      const missing = res.body.detail.find((d: { loc: string[] }) => d.loc[1] === 'name');
      expect(missing).to.include({ type: 'missing' });
      expect(missing.msg).to.be.a('string');
    });

    it('answers a JSON primitive or array body with a 4xx', async () => {
      for (const body of ['"just a string"', '[1,2]', 'null']) {
        const res = await t.http
          .post('/api/admin/tenants')
          .set(bearer(org.adminKey))
          .set('Content-Type', 'application/json')
          .send(body);
        expect(res.status, body).to.be.oneOf([400, 422]);
        expect(res.body).to.have.property('detail');
      }
    });

    it('refuses a body over the limit with 413 and changes nothing', async () => {
      const before = await t.service.eventStore.headPosition();
      const res = await t.http
        .post('/api/admin/tenants')
        .set(bearer(org.adminKey))
        .send({ name: 'huge', description: 'x'.repeat(3 * 1024 * 1024) });
      expect(res.status).to.equal(413);
      expect(res.body.detail).to.match(/limit/);
      expect(await t.service.eventStore.headPosition()).to.equal(before);
    });

    it('answers unknown routes with 404 in the same format', async () => {
      const res = await t.http.get('/api/nothing-here').set(bearer(org.adminKey));
      expect(res.status).to.equal(404);
      expect(res.body).to.deep.equal({ detail: 'Not Found' });
    });
  });

  describe('administration basics', () => {
    it('creates tenants, refuses a similar name with 409, and lists them', async () => {
      const other = await createOrganization(t, 'Other reseller');
      const first = await t.http
        .post('/api/admin/tenants')
        .set(bearer(other.adminKey))
        .send({ name: 'acme-corp', peppol_ids: ['0208:0123456749'] });
      expect(first.status).to.equal(201);
      expect(first.body).to.include({ name: 'acme-corp', is_deleted: false, test_mode: false });
      const similar = await t.http.post('/api/admin/tenants').set(bearer(other.adminKey)).send({ name: 'acme_corp' });
      expect(similar.status).to.equal(409);
      expect(similar.body.detail).to.match(/similar name/);
      const list = await t.http.get('/api/admin/tenants').set(bearer(other.adminKey));
      expect(list.status).to.equal(200);
      expect(list.body.total).to.equal(1);
      expect(list.body.tenants[0]).to.include({ id: first.body.id, name: 'acme-corp' });
      // Another organization neither lists nor reads it.
      const mine = await t.http.get('/api/admin/tenants').set(bearer(org.adminKey));
      expect(mine.body.tenants.map((x: { id: string }) => x.id)).to.not.include(first.body.id);
      expect((await t.http.get(`/api/admin/tenants/${first.body.id}`).set(bearer(org.adminKey))).status).to.equal(404);
    });

    it('lists tenant keys without their values, and pages with skip/limit', async () => {
      const tenant = await createTenant(t, org.adminKey);
      await t.http.post(`/api/admin/tenants/${tenant.id}/api-keys`).set(bearer(org.adminKey)).send({ name: 'two' });
      const list = await t.http.get(`/api/admin/tenants/${tenant.id}/api-keys?limit=1`).set(bearer(org.adminKey));
      expect(list.status).to.equal(200);
      expect(list.body.total).to.equal(2);
      expect(list.body.api_keys).to.have.length(1);
      expect(list.body.api_keys[0]).to.not.have.property('key');
      expect(list.body.api_keys[0].prefix).to.match(/^ik_/);
      const bad = await t.http.get(`/api/admin/tenants/${tenant.id}/api-keys?limit=abc`).set(bearer(org.adminKey));
      expect(bad.status).to.equal(422);
      expect(bad.body.detail[0].loc).to.deep.equal(['query', 'limit']);
    });
  });

  describe('operator interface', () => {
    it("sets a tenant's test mode and rate tier, shown on the tenant", async () => {
      const tenant = await createTenant(t, org.adminKey);
      const mode = await t.http
        .put(`/api/operator/tenants/${tenant.id}/test-mode`)
        .set(bearer(t.operatorKey))
        .send({ test_mode: true, email: 'tests@example.com' });
      expect(mode.status).to.equal(200);
      expect(mode.body).to.include({ test_mode: true, test_mode_email: 'tests@example.com' });
      const tier = await t.http
        .put(`/api/operator/tenants/${tenant.id}/tier`)
        .set(bearer(t.operatorKey))
        .send({ tier: 'premium' });
      expect(tier.body.rate_tier).to.equal('premium');
      const seen = await t.http.get(`/api/admin/tenants/${tenant.id}`).set(bearer(org.adminKey));
      expect(seen.body).to.include({ test_mode: true, rate_tier: 'premium' });
      const me = await t.http.get('/api/me').set(bearer(tenant.key));
      expect(me.body.plan).to.equal('pro');
    });

    it('refuses a bad tier with 422 and an unknown tenant with 404', async () => {
      const tenant = await createTenant(t, org.adminKey);
      const bad = await t.http
        .put(`/api/operator/tenants/${tenant.id}/tier`)
        .set(bearer(t.operatorKey))
        .send({ tier: 'gold' });
      expect(bad.status).to.equal(422);
      expect(bad.body.detail[0].loc).to.deep.equal(['body', 'tier']);
      const missing = await t.http
        .put('/api/operator/tenants/00000000-0000-0000-0000-000000000000/tier')
        .set(bearer(t.operatorKey))
        .send({ tier: 'premium' });
      expect(missing.status).to.equal(404);
    });

    it('issues further organization keys', async () => {
      const res = await t.http.post(`/api/operator/organizations/${org.id}/keys`).set(bearer(t.operatorKey));
      expect(res.status).to.equal(201);
      expect((await t.http.get('/api/admin/tenants').set(bearer(res.body.key))).status).to.equal(200);
    });
  });

  describe('OpenAPI', () => {
    it('publishes an OpenAPI 3.1 document listing exactly the routes that exist', async () => {
      const res = await t.http.get('/api/openapi.json');
      expect(res.status).to.equal(200);
      expect(res.body.openapi).to.equal('3.1.0');
      const documented = new Set<string>();
      for (const [path, methods] of Object.entries(res.body.paths as Record<string, object>)) {
        for (const method of Object.keys(methods)) documented.add(`${method.toUpperCase()} ${path}`);
      }
      // The routes express actually serves, read from its router.
      const served = new Set<string>();
      type Layer = { route?: { path: string; methods: Record<string, boolean> } };
      for (const layer of (t.service.routes.router as unknown as { stack: Layer[] }).stack) {
        if (!layer.route) continue;
        for (const method of Object.keys(layer.route.methods)) {
          served.add(`${method.toUpperCase()} ${layer.route.path.replace(/:([A-Za-z_]+)/g, '{$1}')}`);
        }
      }
      expect([...documented].sort()).to.deep.equal([...served].sort());
      expect(served.size).to.be.greaterThan(10);
      const create = res.body.paths['/api/admin/tenants'].post;
      expect(create.requestBody.content['application/json'].schema.required).to.include('name');
      expect(create.security).to.deep.equal([{ organizationKey: [] }]);
    });
  });
});

describe('BOOTSTRAP_ADMIN_KEY', () => {
  it('creates an organization holding exactly that key, once', async () => {
    const key = 'bootstrap-admin-key-for-automation-0123456789';
    const t = await startTestService({ bootstrapAdminKey: key });
    try {
      expect((await t.http.get('/api/admin/tenants').set(bearer(key))).status).to.equal(200);
      const organizations = async () =>
        (await t.service.eventStore.readAll({ maxCount: 100000 })).filter((e) => e.type === 'OrganizationCreated')
          .length;
      expect(await organizations()).to.equal(1);
      await t.service.start(); // a restart with the same key creates nothing new
      expect(await organizations()).to.equal(1);
    } finally {
      await t.stop();
    }
  });
});
