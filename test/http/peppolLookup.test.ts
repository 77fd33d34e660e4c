import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import EInvoice from 'e-invoice-api';
import { bearer, createOrganization, startTestService, type TestService } from '../support/service.js';
import { belgianNumber, createPeppolTenant, registerPeppol } from '../support/peppol.js';
import { startDnsServer, type TestDnsServer } from '../support/dnsServer.js';
import { makeTestCertificate, type TestCertificate } from '../support/testCertificate.js';
import { loadPeppolConfig } from '../../src/infrastructure/peppolConfig.js';
import { smlDnsName } from '../../src/application/peppol/smlDnsName.js';
import { parsePeppolId, type PeppolId } from '../../src/domain/document/invoice/peppolId.js';
import {
  BIS_BILLING_CREDIT_NOTE,
  BIS_BILLING_INVOICE,
  BIS_BILLING_PROCESS,
  INVOICE_RESPONSE_DOCUMENT_TYPE,
  INVOICE_RESPONSE_PROCESS,
  serviceGroupXml,
} from '../../src/domain/peppol/smpDocuments.js';
import { SmpPublication } from '../../src/application/peppol/smpPublication.js';
import { ParticipantLookup } from '../../src/application/peppol/participantLookup.js';
import { DnsSmlLocator } from '../../src/infrastructure/peppol/dnsSmlLocator.js';
import { FetchHttpGetter } from '../../src/infrastructure/peppol/httpGetter.js';
import { SmpXmlSignatures } from '../../src/infrastructure/peppol/xmlSignatures.js';
import { SmpXmlReader } from '../../src/infrastructure/peppol/remoteXml.js';
import type { LookupResult } from '../../src/application/peppol/lookupResult.js';
import { sharedDir } from '../domain/document/sharedDir.js';

const ZONE = 'sml.peppol.test';
const idOf = (text: string): PeppolId => {
  const parsed = parsePeppolId(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
};
const urlOf = (server: http.Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

describe('Peppol lookup (SML DNS on a loopback port, SMPs over HTTP)', function () {
  let dns: TestDnsServer;
  let remote: TestService;
  let local: TestService;
  let remoteUrl: string;
  let localUrl: string;
  const certificates: TestCertificate[] = [];
  let tenantKey: string;
  let localAdmin: string;
  let remoteId: string;
  let remoteRegistrationDate: string;

  const lookup = async (peppolId: string): Promise<LookupResult> => {
    const res = await local.http.get('/api/lookup').query({ peppol_id: peppolId }).set(bearer(tenantKey));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body as LookupResult;
  };

  before(async () => {
    dns = await startDnsServer();
    const [remoteSigning, remoteAp, localSigning] = await Promise.all([
      makeTestCertificate('smp.remote.test'),
      makeTestCertificate('ap.remote.test'),
      makeTestCertificate('smp.local.test'),
    ]);
    certificates.push(remoteSigning, remoteAp, localSigning);
    // Another instance of the service, on its own database, reachable only over HTTP.
    remote = await startTestService({
      peppol: {
        ...loadPeppolConfig({}),
        smpSigningKeyFile: remoteSigning.keyFile,
        smpSigningCertificateFile: remoteSigning.certificateFile,
        as4CertificateFile: remoteAp.certificateFile,
      },
    });
    remoteUrl = urlOf(await remote.service.listen(0, '127.0.0.1'));
    local = await startTestService({
      peppol: {
        ...loadPeppolConfig({}),
        smlDnsZone: ZONE,
        smlDnsServer: dns.address,
        lookupTimeoutMs: 3000,
        smpSigningKeyFile: localSigning.keyFile,
        smpSigningCertificateFile: localSigning.certificateFile,
      },
    });
    localUrl = urlOf(await local.service.listen(0, '127.0.0.1'));

    const remoteOrg = await createOrganization(remote);
    remoteId = `0208:${belgianNumber()}`;
    const remoteTenant = await createPeppolTenant(remote, remoteOrg.adminKey, { peppol_ids: [remoteId] });
    remoteRegistrationDate = (
      await registerPeppol(remote, remoteOrg.adminKey, remoteTenant.id, {
        peppol_id: remoteId,
        company_name: 'Remote Receiver NV',
      })
    ).registered_at.slice(0, 10);
    await remote.service.projections.catchUp();
    dns.pointToSmp(smlDnsName(idOf(remoteId), ZONE), remoteUrl);

    const org = await createOrganization(local);
    localAdmin = org.adminKey;
    tenantKey = (await createPeppolTenant(local, org.adminKey)).key;
  });
  after(async () => {
    await local?.stop();
    await remote?.stop();
    await dns?.close();
    await Promise.all(certificates.map((c) => c.dispose()));
  });

  it("finds a participant of another instance through DNS and that instance's SMP: endpoint, document types, certificates, business card", async () => {
    const result = await lookup(remoteId);
    expect(result.status, JSON.stringify(result.errors)).to.equal('success');
    expect(result.errors).to.deep.equal([]);
    expect(result.queryMetadata).to.include({
      identifierScheme: 'iso6523-actorid-upis',
      identifierValue: remoteId,
      smlDomain: ZONE,
      source: 'sml',
    });
    expect(result.dnsInfo).to.deep.equal({
      status: 'success',
      smlHostname: smlDnsName(idOf(remoteId), ZONE),
      dnsRecords: [{ ip: '127.0.0.1' }],
      error: null,
    });
    expect(dns.queries).to.include(smlDnsName(idOf(remoteId), ZONE));

    expect(result.serviceMetadata.status).to.equal('success');
    expect(result.serviceMetadata.endpoints.map((e) => e.status)).to.deep.equal(['success', 'success', 'success']);
    expect(result.serviceMetadata.endpoints.flatMap((e) => e.documentTypes)).to.deep.equal([
      { scheme: 'busdox-docid-qns', value: BIS_BILLING_INVOICE },
      { scheme: 'busdox-docid-qns', value: BIS_BILLING_CREDIT_NOTE },
      { scheme: 'busdox-docid-qns', value: INVOICE_RESPONSE_DOCUMENT_TYPE },
    ]);
    for (const endpoint of result.serviceMetadata.endpoints) {
      expect(endpoint.url.startsWith(`${remoteUrl}/`)).to.equal(true);
      expect(endpoint.processes).to.have.length(1);
      expect(endpoint.processes[0]!.processId).to.deep.equal({
        scheme: 'cenbii-procid-ubl',
        value:
          endpoint.documentTypes[0]!.value === INVOICE_RESPONSE_DOCUMENT_TYPE
            ? INVOICE_RESPONSE_PROCESS
            : BIS_BILLING_PROCESS,
      });
      const ap = endpoint.processes[0]!.endpoints[0]!;
      expect(ap).to.include({ address: `${remoteUrl}/as4`, transportProfile: 'peppol-transport-as4-v2_0' });
      expect(ap.certificate?.status).to.equal('success');
      expect((ap.certificate?.details as { subject: string }).subject).to.include('CN=ap.remote.test');
    }
    const purposes = result.certificates.map((c) => [
      c.details?.purpose,
      (c.details as { subject: string }).subject.replace(/.*CN=/, ''),
    ]);
    expect(purposes).to.have.deep.members([
      ['smp-signature', 'smp.remote.test'],
      ['endpoint', 'ap.remote.test'],
    ]);
    expect(result.businessCard).to.include({ status: 'success', error: null });
    expect(result.businessCard.entities).to.have.length(1);
    expect(result.businessCard.entities[0]).to.include({ name: 'Remote Receiver NV', countryCode: 'BE' });
    expect(result.executionTimeMs).to.be.a('number');
  });

  it('validates the same participant: valid, DNS valid, business card, supported document types', async () => {
    const res = await local.http
      .get('/api/validate/peppol-id')
      .query({ peppol_id: `iso6523-actorid-upis::${remoteId}` })
      .set(bearer(tenantKey));
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({
      is_valid: true,
      dns_valid: true,
      business_card_valid: true,
      business_card: { name: 'Remote Receiver NV', country_code: 'BE', registration_date: remoteRegistrationDate },
      supported_document_types: [BIS_BILLING_INVOICE, BIS_BILLING_CREDIT_NOTE, INVOICE_RESPONSE_DOCUMENT_TYPE],
    });
  });

  it('reports a participant the SML does not know as not registered, with the later steps pending', async () => {
    const unknown = `0208:${belgianNumber()}`;
    const result = await lookup(unknown);
    expect(result.status).to.equal('error');
    expect(result.dnsInfo.status).to.equal('error');
    expect(result.dnsInfo.error).to.match(/no NAPTR record/);
    expect(result.errors.join(' ')).to.match(/is not registered in the Peppol network/);
    expect(result.serviceMetadata).to.include({ status: 'pending' });
    expect(result.businessCard).to.include({ status: 'pending' });
    const validation = await local.http
      .get('/api/validate/peppol-id')
      .query({ peppol_id: unknown })
      .set(bearer(tenantKey));
    expect(validation.body).to.deep.equal({
      is_valid: false,
      dns_valid: false,
      business_card_valid: false,
      business_card: null,
      supported_document_types: [],
    });
  });

  it('reports an SMP that does not know the participant the SML points to it for', async () => {
    const stray = `0208:${belgianNumber()}`;
    dns.pointToSmp(smlDnsName(idOf(stray), ZONE), remoteUrl);
    const result = await lookup(stray);
    expect(result.status).to.equal('error');
    expect(result.dnsInfo.status).to.equal('success');
    expect(result.serviceMetadata.status).to.equal('error');
    expect(result.serviceMetadata.error).to.match(/does not know/);
    expect(result.businessCard.status).to.equal('error');
  });

  it('answers a participant registered on this instance locally, without DNS', async () => {
    const tenant = await createPeppolTenant(local, localAdmin);
    const localId = `0208:${belgianNumber()}`;
    await registerPeppol(local, localAdmin, tenant.id, { peppol_id: localId, company_name: 'Local Receiver NV' });
    const result = await lookup(localId);
    expect(result.status).to.equal('success');
    expect(result.queryMetadata.source).to.equal('local');
    expect(dns.queries).to.not.include(smlDnsName(idOf(localId), ZONE));
    expect(result.serviceMetadata.endpoints.flatMap((e) => e.documentTypes.map((d) => d.value))).to.deep.equal([
      BIS_BILLING_INVOICE,
      BIS_BILLING_CREDIT_NOTE,
      INVOICE_RESPONSE_DOCUMENT_TYPE,
    ]);
    expect(result.serviceMetadata.endpoints[0]!.processes[0]!.endpoints[0]!.address).to.match(/\/as4$/);
    expect(result.businessCard.entities[0]).to.include({ name: 'Local Receiver NV', countryCode: 'BE' });
  });

  it("resolves this instance's own participant through DNS and its own listening SMP when local answers are off", async () => {
    const tenant = await createPeppolTenant(local, localAdmin);
    const ownId = `0208:${belgianNumber()}`;
    await registerPeppol(local, localAdmin, tenant.id, { peppol_id: ownId, company_name: 'Own SMP NV' });
    await local.service.projections.catchUp();
    dns.pointToSmp(smlDnsName(idOf(ownId), ZONE), localUrl);
    const viaNetwork = new ParticipantLookup(
      local.service.resolve(SmpPublication),
      new DnsSmlLocator(ZONE, dns.address, 3000),
      new FetchHttpGetter(3000),
      new SmpXmlSignatures(),
      new SmpXmlReader(),
      { resolveLocally: false },
    );
    const result = await viaNetwork.lookup(idOf(ownId), 'http://unused.test', 'test');
    expect(result.status, JSON.stringify(result.errors)).to.equal('success');
    expect(result.queryMetadata.source).to.equal('sml');
    expect(dns.queries).to.include(smlDnsName(idOf(ownId), ZONE));
    expect(result.serviceMetadata.endpoints.map((e) => e.url.startsWith(localUrl))).to.deep.equal([true, true, true]);
    expect(result.serviceMetadata.endpoints[0]!.processes[0]!.endpoints[0]!.address).to.equal(`${localUrl}/as4`);
    expect(result.certificates.map((c) => (c.details as { subject: string }).subject)).to.satisfy((s: string[]) =>
      s.some((x) => x.includes('CN=smp.local.test')),
    );
  });

  it('does not resolve a simulated (test-mode) registration locally: it is not on the network', async () => {
    const tenant = await createPeppolTenant(local, localAdmin);
    await local.http
      .put(`/api/operator/tenants/${tenant.id}/test-mode`)
      .set(bearer(local.operatorKey))
      .send({ test_mode: true, email: 't@example.com' });
    const simulated = `0208:${belgianNumber()}`;
    await registerPeppol(local, localAdmin, tenant.id, { peppol_id: simulated, company_name: 'Simulated NV' });
    const result = await lookup(simulated);
    expect(result.status).to.equal('error');
    expect(result.queryMetadata.source).to.equal('sml');
  });

  it('answers bad or missing ids with 422 in the spec format, and no key with 401', async () => {
    for (const route of ['/api/lookup', '/api/validate/peppol-id']) {
      for (const [query, msg] of [
        [{ peppol_id: 'not-an-id' }, /<scheme>:<identifier>/],
        [{ peppol_id: '0208:0123456748' }, /mod-97/],
        [{ peppol_id: '4242:abc' }, /unknown Peppol identifier scheme/],
      ] as const) {
        const res = await local.http.get(route).query(query).set(bearer(tenantKey));
        expect(res.status, `${route} ${query.peppol_id}`).to.equal(422);
        expect(res.body.detail[0]).to.include({ type: 'value_error' });
        expect(res.body.detail[0].loc).to.deep.equal(['query', 'peppol_id']);
        expect(res.body.detail[0].msg).to.match(msg);
      }
      const missing = await local.http.get(route).set(bearer(tenantKey));
      expect(missing.status).to.equal(422);
      expect(missing.body.detail[0]).to.deep.include({ loc: ['query', 'peppol_id'], type: 'missing' });
      expect((await local.http.get(route).query({ peppol_id: remoteId })).status).to.equal(401);
    }
  });

  it('does not follow HTTP redirects of an SMP (the SML decides where to ask)', async () => {
    const redirecting = http.createServer((req, res) =>
      res.writeHead(302, { Location: `${remoteUrl}${req.url}` }).end(),
    );
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    try {
      dns.pointToSmp(smlDnsName(idOf('0208:0202239951'), ZONE), urlOf(redirecting));
      const result = await lookup('0208:0202239951');
      expect(result.dnsInfo.status).to.equal('success');
      expect(result.serviceMetadata.status).to.equal('error');
      expect(result.serviceMetadata.error).to.match(/redirect \(HTTP 302\), which is not followed/);
    } finally {
      await new Promise<void>((resolve) => redirecting.close(() => resolve()));
    }
  });

  it('answers the public e-invoice-api client: lookup, validate peppol id, participant search, me', async () => {
    const client = new EInvoice({ apiKey: tenantKey, baseURL: localUrl, maxRetries: 0 });
    const found = await client.lookup.retrieve({ peppol_id: remoteId });
    expect(found.status).to.equal('success');
    expect(found.serviceMetadata.endpoints[0]!.processes![0]!.endpoints[0]!.address).to.equal(`${remoteUrl}/as4`);
    expect(found.businessCard.entities[0]!.name).to.equal('Remote Receiver NV');
    const validated = await client.validate.validatePeppolID({ peppol_id: remoteId });
    expect(validated).to.include({ is_valid: true, dns_valid: true, business_card_valid: true });
    const tenant = await createPeppolTenant(local, localAdmin);
    const searchable = `0208:${belgianNumber()}`;
    await registerPeppol(local, localAdmin, tenant.id, { peppol_id: searchable, company_name: 'Client Searchable NV' });
    const participants = await client.lookup.retrieveParticipants({ query: 'client searchable', country_code: 'BE' });
    expect(participants.participants!.map((p) => p.peppol_id)).to.deep.equal([searchable]);
    expect(participants.used_count).to.equal(1);
    const me = await client.me.retrieve();
    expect(me).to.include({ credit_balance: 0, plan: 'starter', smp_registration: false });
  });

  describe('against the signed SMP responses of peppol-commons, served by a local HTTP server', () => {
    const smpDir = path.join(sharedDir(), 'peppol-vectors', 'peppol-commons', 'smp');
    let server: http.Server;

    before(async function () {
      if (!fs.existsSync(path.join(smpDir, 'signed-service-metadata3-c14n-inclusive.xml'))) {
        if (process.env.CI === 'true') throw new Error(`SMP vectors missing under ${smpDir}`);
        console.log(`  [skipped] SMP vectors not found under ${smpDir} (set SHARED_DIR)`);
        return this.skip();
      }
      // ServiceGroups of our own making (the vectors have none) pointing at the captured, signed ServiceMetadata.
      const files: Record<string, [string, string]> = {
        '0106:55872255': ['signed-service-metadata3-c14n-inclusive.xml', '/metadata3'],
        '0088:5026744000002': ['signed-service-metadata1.xml', '/metadata1'],
      };
      server = http.createServer((req, res) => {
        const url = decodeURIComponent(req.url ?? '');
        for (const [participant, [file, route]] of Object.entries(files)) {
          if (url === `/iso6523-actorid-upis::${participant}`) {
            res
              .writeHead(200, { 'Content-Type': 'text/xml' })
              .end(
                serviceGroupXml({ scheme: 'iso6523-actorid-upis', value: participant }, [`${urlOf(server)}${route}`]),
              );
            return;
          }
          if (url === route) {
            res.writeHead(200, { 'Content-Type': 'text/xml' }).end(fs.readFileSync(path.join(smpDir, file)));
            return;
          }
        }
        res.writeHead(404).end();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      for (const participant of Object.keys(files)) dns.pointToSmp(smlDnsName(idOf(participant), ZONE), urlOf(server));
    });
    after(async () => {
      if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    it('verifies the signature of a production SMP response but refuses its expired signing certificate', async () => {
      const result = await lookup('0106:55872255');
      expect(result.dnsInfo.status).to.equal('success');
      const [endpoint] = result.serviceMetadata.endpoints;
      expect(endpoint!.status).to.equal('error');
      expect(endpoint!.error).to.match(/signing certificate is not acceptable: expired on 2020-08-04/);
      // The content is still reported: two transports for one process.
      expect(endpoint!.processes[0]!.endpoints.map((e) => e.transportProfile)).to.deep.equal([
        'busdox-transport-as2-ver1p0',
        'peppol-transport-as4-v2_0',
      ]);
      expect(result.certificates.find((c) => c.details?.purpose === 'smp-signature')).to.include({ status: 'error' });
      expect(result.status).to.equal('error');
      expect(result.businessCard.status).to.equal('error');
    });

    it('refuses a response whose signature does not match (re-formatted after signing)', async () => {
      const result = await lookup('0088:5026744000002');
      const [endpoint] = result.serviceMetadata.endpoints;
      expect(endpoint).to.include({ status: 'error' });
      expect(endpoint!.error).to.match(/invalid signature/);
      expect(endpoint!.documentTypes).to.deep.equal([]);
      expect(result.status).to.equal('error');
    });
  });
});
