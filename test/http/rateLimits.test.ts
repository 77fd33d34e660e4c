import { expect } from 'chai';
import type { Response } from 'supertest';
import type { Config } from '../../src/infrastructure/config.js';
import { bearer, createOrganization, createTenant, startTestService, type TestService } from '../support/service.js';

// Limits count requests; every test uses fresh keys, whose window opens at their first request,
// so no test depends on how long it takes (as long as it is under the one-minute window).
const small: Partial<Config> = {
  rateLimitStandardPerMinute: 3,
  rateLimitPremiumPerMinute: 5,
  rateLimitAdminPerMinute: 4,
  rateLimitAdminPerHour: 1000,
};

function expectRefused(res: Response, windowSeconds: number): void {
  expect(res.status).to.equal(429);
  expect(res.body.detail)
    .to.be.a('string')
    .and.match(/Rate limit exceeded/);
  const retryAfter = Number(res.headers['retry-after']);
  expect(
    Number.isInteger(retryAfter) && retryAfter >= 0 && retryAfter <= windowSeconds,
    `Retry-After ${res.headers['retry-after']}`,
  ).to.equal(true);
}

/** Sends `count` requests one after the other and returns their statuses. */
async function statuses(count: number, send: (i: number) => Promise<Response>): Promise<number[]> {
  const result: number[] = [];
  for (let i = 0; i < count; i++) result.push((await send(i)).status);
  return result;
}

const allowed = (list: number[]) => list.filter((s) => s === 200).length;

describe('Rate limits per key (PostgreSQL counters)', function () {
  describe('on one instance', () => {
    let t: TestService;
    before(async () => {
      t = await startTestService(small);
    });
    after(async () => t?.stop());

    it('lets a standard tenant key make its limit of requests, then answers 429 with Retry-After and RateLimit headers', async () => {
      const org = await createOrganization(t);
      const tenant = await createTenant(t, org.adminKey);
      const ok = await t.http.get('/api/me').set(bearer(tenant.key));
      expect(ok.status).to.equal(200);
      expect(ok.headers['ratelimit']).to.match(/"tenant-minute"; r=2; t=\d+/);
      expect(ok.headers['ratelimit-policy']).to.match(/"tenant-minute"; q=3; w=60/);
      expect(await statuses(2, () => t.http.get('/api/me').set(bearer(tenant.key)))).to.deep.equal([200, 200]);
      const refused = await t.http.get('/api/me').set(bearer(tenant.key));
      expectRefused(refused, 60);
      expect(refused.headers['ratelimit']).to.match(/"tenant-minute"; r=0/);
    });

    it('counts per key: another key of the same tenant still has its own allowance', async () => {
      const org = await createOrganization(t);
      const tenant = await createTenant(t, org.adminKey);
      const second = await t.http
        .post(`/api/admin/tenants/${tenant.id}/api-keys`)
        .set(bearer(org.adminKey))
        .send({ name: 'second' });
      expect(await statuses(4, () => t.http.get('/api/me').set(bearer(tenant.key)))).to.deep.equal([
        200, 200, 200, 429,
      ]);
      expect((await t.http.get('/api/me').set(bearer(second.body.key))).status).to.equal(200);
    });

    it('gives a premium tenant (set by the operator) the premium limit', async () => {
      const org = await createOrganization(t);
      const tenant = await createTenant(t, org.adminKey);
      const tier = await t.http
        .put(`/api/operator/tenants/${tenant.id}/tier`)
        .set(bearer(t.operatorKey))
        .send({ tier: 'premium' });
      expect(tier.status).to.equal(200);
      const list = await statuses(7, () => t.http.get('/api/me').set(bearer(tenant.key)));
      expect(list).to.deep.equal([200, 200, 200, 200, 200, 429, 429]);
    });

    it('limits an organization key per minute on every admin route, with both policies in the headers', async () => {
      const org = await createOrganization(t);
      const ok = await t.http.get('/api/admin/tenants').set(bearer(org.adminKey));
      expect(ok.status).to.equal(200);
      expect(ok.headers['ratelimit-policy'])
        .to.include('"admin-minute"; q=4; w=60')
        .and.include('"admin-hour"; q=1000; w=3600');
      const created = await t.http
        .post('/api/admin/tenants')
        .set(bearer(org.adminKey))
        .send({ name: `limited-${org.id.slice(0, 8)}` });
      expect(created.status).to.equal(201);
      expect((await t.http.get(`/api/admin/tenants/${created.body.id}`).set(bearer(org.adminKey))).status).to.equal(
        200,
      );
      expect(
        (await t.http.get(`/api/admin/tenants/${created.body.id}/api-keys`).set(bearer(org.adminKey))).status,
      ).to.equal(200);
      const refused = await t.http
        .put(`/api/admin/tenants/${created.body.id}`)
        .set(bearer(org.adminKey))
        .send({ description: 'x' });
      expectRefused(refused, 60);
      // The refused request changed nothing.
      expect(
        (await t.http.get(`/api/operator/tenants/${created.body.id}`).set(bearer(t.operatorKey))).body.description,
      ).to.equal(null);
      // Another key of the same organization is counted on its own.
      const key2 = await t.http.post(`/api/operator/organizations/${org.id}/keys`).set(bearer(t.operatorKey));
      expect((await t.http.get('/api/admin/tenants').set(bearer(key2.body.key))).status).to.equal(200);
    });

    it('never limits health, OpenAPI and operator routes, nor counts refused credentials', async () => {
      const org = await createOrganization(t);
      const tenant = await createTenant(t, org.adminKey);
      for (const path of ['/healthz', '/readyz', '/api/openapi.json']) {
        expect(allowed(await statuses(10, () => t.http.get(path))), path).to.equal(10);
      }
      const operatorCalls = await statuses(10, () =>
        t.http.get(`/api/operator/tenants/${tenant.id}`).set(bearer(t.operatorKey)),
      );
      expect(allowed(operatorCalls)).to.equal(10);
      const wrong = await statuses(10, () => t.http.get('/api/me').set(bearer(`${tenant.key.slice(0, -1)}x`)));
      expect(wrong.every((s) => s === 401)).to.equal(true);
      expect(await statuses(4, () => t.http.get('/api/me').set(bearer(tenant.key)))).to.deep.equal([
        200, 200, 200, 429,
      ]);
    });

    it('documents the 429 answer on limited routes only', async () => {
      const paths = (await t.http.get('/api/openapi.json')).body.paths;
      expect(paths['/api/me'].get.responses).to.have.property('429');
      expect(paths['/api/admin/tenants'].get.responses).to.have.property('429');
      expect(paths['/api/operator/tenants/{tenantId}'].get.responses).to.not.have.property('429');
    });
  });

  describe('per hour for organization keys', () => {
    let t: TestService;
    before(async () => {
      t = await startTestService({ ...small, rateLimitAdminPerMinute: 100, rateLimitAdminPerHour: 3 });
    });
    after(async () => t?.stop());

    it('refuses the request over the hourly limit even under the minute limit, with a Retry-After within the hour', async () => {
      const org = await createOrganization(t);
      expect(await statuses(3, () => t.http.get('/api/admin/tenants').set(bearer(org.adminKey)))).to.deep.equal([
        200, 200, 200,
      ]);
      const refused = await t.http.get('/api/admin/tenants').set(bearer(org.adminKey));
      expectRefused(refused, 3600);
      expect(Number(refused.headers['retry-after'])).to.be.greaterThan(60);
      expect(refused.body.detail).to.match(/per hour/);
    });
  });

  describe('on two instances sharing one database', () => {
    let a: TestService;
    let b: TestService;
    before(async () => {
      const limits = { ...small, rateLimitStandardPerMinute: 5, rateLimitAdminPerMinute: 6 };
      a = await startTestService(limits);
      b = await startTestService(limits, a.databaseUrl);
    });
    after(async () => {
      await b?.stop();
      await a?.stop();
    });

    it('enforces one shared limit for a tenant key: the total allowed over both equals the limit', async () => {
      const org = await createOrganization(a);
      const tenant = await createTenant(a, org.adminKey);
      const list = await statuses(12, (i) => (i % 2 === 0 ? a : b).http.get('/api/me').set(bearer(tenant.key)));
      expect(allowed(list)).to.equal(5);
      expect(list.slice(5).every((s) => s === 429)).to.equal(true);
    });

    it('enforces one shared limit for an organization key, also with concurrent requests', async () => {
      const org = await createOrganization(b);
      const list = await Promise.all(
        Array.from({ length: 14 }, (_, i) =>
          (i % 2 === 0 ? a : b).http.get('/api/admin/tenants').set(bearer(org.adminKey)),
        ),
      );
      expect(allowed(list.map((r) => r.status))).to.equal(6);
      expect(list.filter((r) => r.status === 429)).to.have.length(8);
    });
  });
});
