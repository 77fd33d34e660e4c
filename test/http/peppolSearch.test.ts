import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { bearer, createOrganization, startTestService, type TestService } from '../support/service.js';
import { belgianNumber, createPeppolTenant, registerPeppol } from '../support/peppol.js';
import { loadPeppolConfig } from '../../src/infrastructure/peppolConfig.js';
import { BIS_BILLING_INVOICE } from '../../src/domain/peppol/smpDocuments.js';

type Participant = {
  peppol_id: string;
  peppol_scheme: string;
  document_types: Array<{ value: string }>;
  entities: Array<Record<string, unknown>>;
};

describe('Peppol participant search (local registry + Peppol Directory)', function () {
  let t: TestService;
  let localOnly: TestService;
  let directory: http.Server;
  let directoryFails = false;
  const directoryRequests: URL[] = [];
  let tenantKey: string;
  let acmeId: string;
  let otherAcmeId: string;

  before(async () => {
    // A real HTTP server answering the Directory's search/1.0/json format.
    directory = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://directory.test');
      directoryRequests.push(url);
      if (directoryFails || url.pathname !== '/search/1.0/json') {
        res.writeHead(directoryFails ? 503 : 404).end();
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(
        JSON.stringify({
          version: '1.0',
          'total-result-count': 2,
          'used-result-count': 2,
          'result-page-index': 0,
          'result-page-count': 20,
          'query-terms': url.searchParams.get('q'),
          'creation-dt': '2026-01-01T00:00:00Z',
          matches: [
            {
              participantID: { scheme: 'iso6523-actorid-upis', value: '9925:be0999999999' },
              docTypes: [{ scheme: 'busdox-docid-qns', value: BIS_BILLING_INVOICE }],
              entities: [
                {
                  name: [{ name: 'Acme Remote BV', language: 'nl' }],
                  countryCode: 'BE',
                  geoInfo: 'Brussels',
                  identifiers: [{ scheme: 'VAT', value: 'BE0999999999' }],
                  websites: ['https://acme-remote.example'],
                  additionalInfo: 'Remote',
                  regDate: '2020-05-01',
                },
              ],
            },
            // Also registered locally: listed once, from our registry.
            {
              participantID: { scheme: 'iso6523-actorid-upis', value: acmeId.toUpperCase() },
              docTypes: [],
              entities: [{ name: [{ name: 'Stale name' }] }],
            },
            { participantID: 'garbage', entities: 7 },
          ],
        }),
      );
    });
    await new Promise<void>((resolve) => directory.listen(0, '127.0.0.1', resolve));
    const directoryUrl = `http://127.0.0.1:${(directory.address() as AddressInfo).port}`;
    t = await startTestService({ peppol: { ...loadPeppolConfig({}), directoryUrl } });
    const org = await createOrganization(t);
    tenantKey = (await createPeppolTenant(t, org.adminKey)).key;
    acmeId = `0208:${belgianNumber()}`;
    otherAcmeId = `0208:${belgianNumber()}`;
    await registerPeppol(t, org.adminKey, (await createPeppolTenant(t, org.adminKey)).id, {
      peppol_id: acmeId,
      company_name: 'Acme Local NV',
    });
    await registerPeppol(t, org.adminKey, (await createPeppolTenant(t, org.adminKey)).id, {
      peppol_id: '0106:12345678',
      company_name: 'Acme Dutch BV',
    });
    await registerPeppol(t, org.adminKey, (await createPeppolTenant(t, org.adminKey)).id, {
      peppol_id: otherAcmeId,
      company_name: 'Unrelated NV',
    });
    const testTenant = await createPeppolTenant(t, org.adminKey);
    await t.http
      .put(`/api/operator/tenants/${testTenant.id}/test-mode`)
      .set(bearer(t.operatorKey))
      .send({ test_mode: true, email: 'x@example.com' });
    await registerPeppol(t, org.adminKey, testTenant.id, {
      peppol_id: `0208:${belgianNumber()}`,
      company_name: 'Acme Simulated NV',
    });
    localOnly = await startTestService({}, t.databaseUrl);
  });
  after(async () => {
    await localOnly?.stop();
    await t?.stop();
    await new Promise<void>((resolve) => directory.close(() => resolve()));
  });

  it('lists local participants (not simulated ones) and Directory matches once each, in the client shape', async () => {
    const res = await t.http.get('/api/lookup/participants').query({ query: 'acme' }).set(bearer(tenantKey));
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ query_terms: 'acme', total_count: 3, used_count: 3 });
    expect(Date.parse(res.body.search_date)).to.be.a('number');
    const participants = res.body.participants as Participant[];
    expect(participants.map((p) => [p.peppol_id, p.entities[0]!.name])).to.deep.equal([
      ['0106:12345678', 'Acme Dutch BV'],
      [acmeId, 'Acme Local NV'],
      ['9925:be0999999999', 'Acme Remote BV'],
    ]);
    expect(participants[1]).to.deep.include({ peppol_scheme: 'iso6523-actorid-upis' });
    expect(participants[1]!.document_types.map((d) => d.value)).to.include(BIS_BILLING_INVOICE);
    expect(participants[2]!.entities[0]).to.deep.equal({
      name: 'Acme Remote BV',
      country_code: 'BE',
      registration_date: '2020-05-01',
      identifiers: [{ scheme: 'VAT', value: 'BE0999999999' }],
      website: 'https://acme-remote.example',
      geo_info: 'Brussels',
      additional_info: 'Remote',
    });
    expect(directoryRequests.at(-1)?.searchParams.get('q')).to.equal('acme');
  });

  it('narrows to a country (passed on to the Directory) and finds local participants by id', async () => {
    const res = await t.http
      .get('/api/lookup/participants')
      .query({ query: 'acme', country_code: 'nl' })
      .set(bearer(tenantKey));
    expect(res.status).to.equal(200);
    expect((res.body.participants as Participant[]).map((p) => p.peppol_id)[0]).to.equal('0106:12345678');
    expect(directoryRequests.at(-1)?.searchParams.get('country')).to.equal('NL');
    const byId = await t.http.get('/api/lookup/participants').query({ query: otherAcmeId }).set(bearer(tenantKey));
    expect((byId.body.participants as Participant[]).map((p) => p.peppol_id)).to.include(otherAcmeId);
  });

  it('still answers the local results when the Directory fails, and says why', async () => {
    directoryFails = true;
    try {
      const res = await t.http.get('/api/lookup/participants').query({ query: 'acme' }).set(bearer(tenantKey));
      expect(res.status).to.equal(200);
      expect(res.body.used_count).to.equal(2);
      expect(res.body.directory_error).to.match(/503/);
    } finally {
      directoryFails = false;
    }
  });

  it('searches the local registry only when PEPPOL_DIRECTORY_URL is not set', async () => {
    const asked = directoryRequests.length;
    const res = await localOnly.http.get('/api/lookup/participants').query({ query: 'acme' }).set(bearer(tenantKey));
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ total_count: 2, used_count: 2 });
    expect(res.body).to.not.have.property('directory_error');
    expect(directoryRequests.length).to.equal(asked);
  });

  it('refuses a missing query and a bad country code with 422, and no key with 401', async () => {
    const missing = await t.http.get('/api/lookup/participants').set(bearer(tenantKey));
    expect(missing.status).to.equal(422);
    expect(missing.body.detail[0].loc).to.deep.equal(['query', 'query']);
    const blank = await t.http.get('/api/lookup/participants').query({ query: '   ' }).set(bearer(tenantKey));
    expect(blank.status).to.equal(422);
    const country = await t.http
      .get('/api/lookup/participants')
      .query({ query: 'acme', country_code: 'ZZ' })
      .set(bearer(tenantKey));
    expect(country.status).to.equal(422);
    expect(country.body.detail[0].loc).to.deep.equal(['query', 'country_code']);
    expect((await t.http.get('/api/lookup/participants').query({ query: 'acme' })).status).to.equal(401);
  });
});
