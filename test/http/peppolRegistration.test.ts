import { expect } from 'chai';
import { bearer, createOrganization, startTestService, type TestService } from '../support/service.js';
import { belgianNumber, createPeppolTenant, registerPeppol } from '../support/peppol.js';
import { ParticipantRegistry } from '../../src/application/peppol/participantRegistry.js';

describe('Peppol registration (administrative interface)', function () {
  let t: TestService;
  let org: { id: string; adminKey: string };
  let other: { id: string; adminKey: string };
  const admin = () => bearer(org.adminKey);
  const registry = () => t.service.resolve(ParticipantRegistry);
  const base = (tenantId: string) => `/api/admin/tenants/${tenantId}/peppol`;

  before(async () => {
    t = await startTestService();
    org = await createOrganization(t, 'Peppol reseller');
    other = await createOrganization(t, 'Other reseller');
  });
  after(async () => t?.stop());

  it('answers the status of a tenant that is not registered with its profile id', async () => {
    const number = belgianNumber();
    const tenant = await createPeppolTenant(t, org.adminKey, { peppol_ids: [`0208:${number}`] });
    const status = await t.http.get(`${base(tenant.id)}/status`).set(admin());
    expect(status.status).to.equal(200);
    expect(status.body).to.include({
      registered: false,
      peppol_id: `0208:${number}`,
      status: 'unregistered',
      registered_at: null,
    });
  });

  it("registers a Belgian 0208 id without a name, taking the name from the tenant's data, and shows it everywhere", async () => {
    const number = belgianNumber();
    const tenant = await createPeppolTenant(t, org.adminKey, {
      description: 'Acme Belgium NV',
      peppol_ids: [`0208:${number}`],
    });
    const result = await registerPeppol(t, org.adminKey, tenant.id, { peppol_id: `0208:${number}` });
    expect(result).to.include({
      registered: true,
      peppol_id: `0208:${number}`,
      status: 'active',
      simulated: false,
      company_name: 'Acme Belgium NV',
      country_code: 'BE',
    });
    expect(result.sml).to.equal('off');
    expect(result.message).to.match(/SML is not configured/);
    expect(Date.parse(result.registered_at)).to.be.closeTo(Date.now(), 60_000);

    const status = await t.http.get(`${base(tenant.id)}/status`).set(admin());
    expect(status.body).to.include({
      registered: true,
      status: 'active',
      peppol_id: `0208:${number}`,
      registered_at: result.registered_at,
    });

    await t.service.projections.catchUp();
    const found = await registry().findByPeppolId(`iso6523-actorid-upis::0208:${number}`);
    expect(found).to.deep.equal({
      tenant_id: tenant.id,
      peppol_id: `0208:${number}`,
      company_name: 'Acme Belgium NV',
      country_code: 'BE',
      registered_at: result.registered_at,
      simulated: false,
    });
    expect(await registry().findByPeppolId(`ISO6523-ACTORID-UPIS::0208:${number}`)).to.deep.equal(found);
    expect(await registry().findByPeppolId('0208:not-an-id')).to.equal(null);

    const me = await t.http.get('/api/me').set(bearer(tenant.key));
    expect(me.body).to.include({
      smp_registration: true,
      smp_registration_date: result.registered_at,
      company_name: 'Acme Belgium NV',
      company_country: 'BE',
      credit_balance: 0,
    });
    expect(me.body.peppol_ids).to.deep.equal([`0208:${number}`]);
  });

  it('uses the tenant name for a 0208 id when the tenant has no description, and a given company_name over both', async () => {
    const first = await createPeppolTenant(t, org.adminKey, { name: 'named-only-tenant' });
    expect(
      (await registerPeppol(t, org.adminKey, first.id, { peppol_id: `0208:${belgianNumber()}` })).company_name,
    ).to.equal('named-only-tenant');
    const second = await createPeppolTenant(t, org.adminKey, { description: 'Ignored' });
    expect(
      (
        await registerPeppol(t, org.adminKey, second.id, {
          peppol_id: `0208:${belgianNumber()}`,
          company_name: 'Given BV',
        })
      ).company_name,
    ).to.equal('Given BV');
  });

  it('registers the same id again without change (200), and refuses another id with 409 changing nothing', async () => {
    const tenant = await createPeppolTenant(t, org.adminKey);
    const id = `0208:${belgianNumber()}`;
    await registerPeppol(t, org.adminKey, tenant.id, { peppol_id: id, company_name: 'Twice NV' });
    const again = await registerPeppol(t, org.adminKey, tenant.id, { peppol_id: `iso6523-actorid-upis::${id}` });
    expect(again).to.include({ peppol_id: id, company_name: 'Twice NV' });
    expect(again.message).to.match(/nothing changed/);
    const before = await t.service.eventStore.headPosition();
    const another = await t.http
      .post(`${base(tenant.id)}/register`)
      .set(admin())
      .send({ peppol_id: `0208:${belgianNumber()}`, company_name: 'X' });
    expect(another.status).to.equal(409);
    expect(another.body.detail).to.match(/already registered as/);
    expect(await t.service.eventStore.headPosition()).to.equal(before);
  });

  it('refuses an id already registered by another tenant of this instance with 409, and frees it on unregister', async () => {
    const id = `0208:${belgianNumber()}`;
    const holder = await createPeppolTenant(t, org.adminKey);
    const contender = await createPeppolTenant(t, other.adminKey);
    await registerPeppol(t, org.adminKey, holder.id, { peppol_id: id, company_name: 'Holder NV' });
    const before = await t.service.eventStore.headPosition();
    const taken = await t.http
      .post(`${base(contender.id)}/register`)
      .set(bearer(other.adminKey))
      .send({ peppol_id: id.replace('0208:', 'iso6523-actorid-upis::0208:'), company_name: 'Contender NV' });
    expect(taken.status).to.equal(409);
    expect(taken.body.detail).to.match(/another tenant/);
    expect(await t.service.eventStore.headPosition()).to.equal(before);

    const unregistered = await t.http.post(`${base(holder.id)}/unregister`).set(admin());
    expect(unregistered.status).to.equal(200);
    expect(unregistered.body).to.include({ registered: false, status: 'unregistered', peppol_id: id });
    expect(unregistered.body.unregistered_at).to.be.a('string');
    await t.service.projections.catchUp();
    expect(await registry().findByPeppolId(id)).to.equal(null);

    const now = await registerPeppol(t, other.adminKey, contender.id, { peppol_id: id, company_name: 'Contender NV' });
    expect(now.status).to.equal('active');
    await t.service.projections.catchUp();
    expect((await registry().findByPeppolId(id))?.tenant_id).to.equal(contender.id);
  });

  it('simulates the registration of a tenant in test mode and says so; it is in the registry as simulated only', async () => {
    const tenant = await createPeppolTenant(t, org.adminKey);
    const mode = await t.http
      .put(`/api/operator/tenants/${tenant.id}/test-mode`)
      .set(bearer(t.operatorKey))
      .send({ test_mode: true, email: 'test@example.com' });
    expect(mode.status).to.equal(200);
    const id = `0208:${belgianNumber()}`;
    const result = await registerPeppol(t, org.adminKey, tenant.id, { peppol_id: id, company_name: 'Test Mode BV' });
    expect(result).to.include({ registered: true, status: 'simulated', simulated: true, sml: 'not_published' });
    expect(result.message).to.match(/simulated/);
    expect((await t.http.get(`${base(tenant.id)}/status`).set(admin())).body.status).to.equal('simulated');
    await t.service.projections.catchUp();
    expect(await registry().findByPeppolId(id)).to.include({ tenant_id: tenant.id, simulated: true });
    const me = await t.http.get('/api/me').set(bearer(tenant.key));
    expect(me.body).to.include({ smp_registration: false, smp_registration_date: null, test_mode: true });
  });

  it('updates the business card name, and refuses it (409) for a tenant that is not registered', async () => {
    const tenant = await createPeppolTenant(t, org.adminKey);
    const refused = await t.http
      .post(`${base(tenant.id)}/business-card`)
      .set(admin())
      .send({ company_name: 'Nobody' });
    expect(refused.status).to.equal(409);
    expect(refused.body.detail).to.match(/not registered/);
    const id = `0208:${belgianNumber()}`;
    const registered = await registerPeppol(t, org.adminKey, tenant.id, { peppol_id: id, company_name: 'Old Name NV' });
    const card = await t.http
      .post(`${base(tenant.id)}/business-card`)
      .set(admin())
      .send({ company_name: 'New Name NV' });
    expect(card.status).to.equal(200);
    expect(card.body).to.include({
      peppol_id: id,
      company_name: 'New Name NV',
      country_code: 'BE',
      registration_date: registered.registered_at.slice(0, 10),
    });
    await t.service.projections.catchUp();
    expect((await registry().findByPeppolId(id))?.company_name).to.equal('New Name NV');
    const empty = await t.http
      .post(`${base(tenant.id)}/business-card`)
      .set(admin())
      .send({ company_name: '  ' });
    expect(empty.status).to.equal(422);
    expect(empty.body.detail[0].loc).to.deep.equal(['body', 'company_name']);
  });

  it('refuses unregistering a tenant that is not registered with 409', async () => {
    const tenant = await createPeppolTenant(t, org.adminKey);
    const res = await t.http.post(`${base(tenant.id)}/unregister`).set(admin());
    expect(res.status).to.equal(409);
    expect(res.body.detail).to.match(/not registered/);
  });

  it('answers bad input with 422 naming the field, and changes nothing', async () => {
    const tenant = await createPeppolTenant(t, org.adminKey);
    const before = await t.service.eventStore.headPosition();
    const cases: Array<[object, Array<string | number>, RegExp]> = [
      [{}, ['body', 'peppol_id'], /required/i],
      [{ peppol_id: 42 }, ['body', 'peppol_id'], /./],
      [{ peppol_id: 'BE0123456749' }, ['body', 'peppol_id'], /<scheme>:<identifier>/],
      [{ peppol_id: '0208:0123456748' }, ['body', 'peppol_id'], /mod-97/],
      [{ peppol_id: '1234:abc' }, ['body', 'peppol_id'], /unknown Peppol identifier scheme/],
      [{ peppol_id: '0106:12345678' }, ['body', 'company_name'], /required unless/],
      [{ peppol_id: '0088:5060482240009', company_name: 'Global Ltd' }, ['body', 'country_code'], /cannot be derived/],
      [{ peppol_id: `0208:${belgianNumber()}`, country_code: 'XX' }, ['body', 'country_code'], /ISO 3166/],
    ];
    for (const [body, loc, msg] of cases) {
      const res = await t.http
        .post(`${base(tenant.id)}/register`)
        .set(admin())
        .send(body);
      expect(res.status, JSON.stringify(body)).to.equal(422);
      expect(res.body.detail[0].loc, JSON.stringify(body)).to.deep.equal(loc);
      expect(res.body.detail[0].msg, JSON.stringify(body)).to.match(msg);
    }
    const malformed = await t.http
      .post(`${base(tenant.id)}/register`)
      .set(admin())
      .set('Content-Type', 'application/json')
      .send('{"peppol_id":');
    expect(malformed.status).to.equal(400);
    expect(await t.service.eventStore.headPosition()).to.equal(before);
  });

  it('derives the country from the tax id for an international scheme, or takes country_code', async () => {
    const tenant = await createPeppolTenant(t, org.adminKey, { company_tax_id: 'NL123456789B01' });
    const gln = await registerPeppol(t, org.adminKey, tenant.id, {
      peppol_id: '0088:5060482240009',
      company_name: 'Global BV',
    });
    expect(gln.country_code).to.equal('NL');
    const another = await createPeppolTenant(t, org.adminKey);
    const given = await registerPeppol(t, org.adminKey, another.id, {
      peppol_id: '0088:4000001000005',
      company_name: 'Given Ltd',
      country_code: 'ie',
    });
    expect(given.country_code).to.equal('IE');
  });

  it("refuses an id other than the tenant profile's with 409", async () => {
    const tenant = await createPeppolTenant(t, org.adminKey, { peppol_ids: [`0208:${belgianNumber()}`] });
    const res = await t.http
      .post(`${base(tenant.id)}/register`)
      .set(admin())
      .send({ peppol_id: `0208:${belgianNumber()}` });
    expect(res.status).to.equal(409);
    expect(res.body.detail).to.match(/peppol_ids/);
  });

  it("refuses to change a registered tenant's peppol_ids to another id (409) until it unregisters", async () => {
    const id = `0208:${belgianNumber()}`;
    const tenant = await createPeppolTenant(t, org.adminKey, { peppol_ids: [id] });
    await registerPeppol(t, org.adminKey, tenant.id, { peppol_id: id });
    const moved = `0208:${belgianNumber()}`;
    const refused = await t.http
      .put(`/api/admin/tenants/${tenant.id}`)
      .set(admin())
      .send({ peppol_ids: [moved] });
    expect(refused.status).to.equal(409);
    expect(refused.body.detail).to.match(/unregister it before changing peppol_ids/);
    expect((await t.http.post(`${base(tenant.id)}/unregister`).set(admin())).status).to.equal(200);
    const accepted = await t.http
      .put(`/api/admin/tenants/${tenant.id}`)
      .set(admin())
      .send({ peppol_ids: [moved] });
    expect(accepted.status).to.equal(200);
    expect(accepted.body.peppol_ids).to.deep.equal([moved]);
  });

  it("answers 404 for an unknown tenant and another organization's tenant, 401 without an organization key", async () => {
    const tenant = await createPeppolTenant(t, org.adminKey);
    for (const [method, path] of [
      ['get', 'status'],
      ['post', 'register'],
      ['post', 'business-card'],
      ['post', 'unregister'],
    ] as const) {
      const body = { peppol_id: `0208:${belgianNumber()}`, company_name: 'X' };
      expect(
        (
          await t.http[method](`${base('00000000-0000-0000-0000-000000000000')}/${path}`)
            .set(admin())
            .send(body)
        ).status,
        path,
      ).to.equal(404);
      expect(
        (
          await t.http[method](`${base(tenant.id)}/${path}`)
            .set(bearer(other.adminKey))
            .send(body)
        ).status,
        path,
      ).to.equal(404);
      expect(
        (
          await t.http[method](`${base(tenant.id)}/${path}`)
            .set(bearer(tenant.key))
            .send(body)
        ).status,
        path,
      ).to.equal(401);
      expect((await t.http[method](`${base(tenant.id)}/${path}`).send(body)).status, path).to.equal(401);
    }
    expect((await t.http.get(`${base(tenant.id)}/status`).set(admin())).body.registered).to.equal(false);
  });

  it('unregisters a tenant when it is deleted, and refuses to register a deleted tenant (409)', async () => {
    const tenant = await createPeppolTenant(t, org.adminKey);
    const id = `0208:${belgianNumber()}`;
    await registerPeppol(t, org.adminKey, tenant.id, { peppol_id: id, company_name: 'Soon Gone NV' });
    expect((await t.http.delete(`/api/admin/tenants/${tenant.id}`).set(admin())).status).to.equal(200);
    await t.service.projections.catchUp();
    expect(await registry().findByPeppolId(id)).to.equal(null);
    expect((await t.http.get(`${base(tenant.id)}/status`).set(admin())).body).to.include({
      registered: false,
      status: 'unregistered',
    });
    const res = await t.http
      .post(`${base(tenant.id)}/register`)
      .set(admin())
      .send({ peppol_id: id, company_name: 'Back NV' });
    expect(res.status).to.equal(409);
    expect(res.body.detail).to.match(/deleted/);
    // The id is free for another tenant.
    const next = await createPeppolTenant(t, org.adminKey);
    expect(
      (await registerPeppol(t, org.adminKey, next.id, { peppol_id: id, company_name: 'Next NV' })).status,
    ).to.equal('active');
  });

  it('lets only one of two concurrent registrations of one id by different tenants win', async () => {
    const id = `0208:${belgianNumber()}`;
    const a = await createPeppolTenant(t, org.adminKey);
    const b = await createPeppolTenant(t, org.adminKey);
    const results = await Promise.all(
      [a, b].map((tenant) =>
        t.http
          .post(`${base(tenant.id)}/register`)
          .set(admin())
          .send({ peppol_id: id, company_name: 'Race NV' }),
      ),
    );
    expect(results.map((r) => r.status).sort()).to.deep.equal([200, 409]);
    await t.service.projections.catchUp();
    const winner = results[0]!.status === 200 ? a : b;
    expect((await registry().findByPeppolId(id))?.tenant_id).to.equal(winner.id);
  });
});
