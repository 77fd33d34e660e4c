import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import libxmljs, { type XMLDocument, type XMLElement } from 'libxmljs';
import { bearer, createOrganization, startTestService, type TestService } from '../support/service.js';
import { belgianNumber, createPeppolTenant, registerPeppol } from '../support/peppol.js';
import { makeTestCertificate, type TestCertificate } from '../support/testCertificate.js';
import { loadPeppolConfig } from '../../src/infrastructure/peppolConfig.js';
import { SmpXmlSignatures } from '../../src/infrastructure/peppol/xmlSignatures.js';
import {
  BIS_BILLING_CREDIT_NOTE,
  BIS_BILLING_INVOICE,
  BIS_BILLING_PROCESS,
  INVOICE_RESPONSE_DOCUMENT_TYPE,
  INVOICE_RESPONSE_PROCESS,
} from '../../src/domain/peppol/smpDocuments.js';
import { sharedDir } from '../domain/document/sharedDir.js';

const SMP = 'http://busdox.org/serviceMetadata/publishing/1.0/';
const IDS = 'http://busdox.org/transport/identifiers/1.0/';
const WSA = 'http://www.w3.org/2005/08/addressing';
const DS = 'http://www.w3.org/2000/09/xmldsig#';
const BC = 'http://www.peppol.eu/schema/pd/businesscard/20180621/';
const NS = { smp: SMP, ids: IDS, wsa: WSA, ds: DS, bc: BC };
const PUBLIC_URL = 'https://invoicing.example.test';
const businessCardXsd = path.join(
  sharedDir(),
  'peppol-vectors',
  'peppol-commons',
  'businesscard',
  'schemas',
  'peppol-directory-business-card-20180621.xsd',
);

const parse = (xml: string): XMLDocument => libxmljs.parseXml(xml, { nonet: true, replaceEntities: false });
const one = (node: XMLDocument | XMLElement, xpath: string): XMLElement => {
  const found = node.get(xpath, NS) as XMLElement | null;
  expect(found, xpath).to.not.equal(null);
  return found!;
};
const childNames = (element: XMLElement) =>
  (element.childNodes() as XMLElement[])
    .filter((n) => n.type() === 'element')
    .map((n) => `{${n.namespace()?.href()}}${n.name()}`);

describe('Peppol SMP REST interface (SMP 1.x)', function () {
  let t: TestService;
  let plain: TestService;
  let signing: TestCertificate;
  let ap: TestCertificate;
  let org: { id: string; adminKey: string };
  let id: string;

  before(async () => {
    signing = await makeTestCertificate('smp.invoicing.example.test');
    ap = await makeTestCertificate('ap.invoicing.example.test');
    t = await startTestService({
      peppol: {
        ...loadPeppolConfig({}),
        publicUrl: PUBLIC_URL,
        as4CertificateFile: ap.certificateFile,
        smpSigningKeyFile: signing.keyFile,
        smpSigningCertificateFile: signing.certificateFile,
        smpTechnicalContactUrl: 'mailto:peppol@invoicing.example.test',
      },
    });
    org = await createOrganization(t);
    id = `0208:${belgianNumber()}`;
    const tenant = await createPeppolTenant(t, org.adminKey, { peppol_ids: [id] });
    await registerPeppol(t, org.adminKey, tenant.id, { peppol_id: id, company_name: 'Published & Co NV' });
    await t.service.projections.catchUp();
    plain = await startTestService();
  });
  after(async () => {
    await t?.stop();
    await plain?.stop();
    await signing?.dispose();
    await ap?.dispose();
  });

  it('serves the ServiceGroup with a reference per document type, for the raw and the URL-encoded participant', async () => {
    for (const participant of [
      `iso6523-actorid-upis::${id}`,
      encodeURIComponent(`iso6523-actorid-upis::${id}`),
      `ISO6523-ACTORID-UPIS::${id}`,
    ]) {
      const res = await t.http.get(`/${participant}`);
      expect(res.status, participant).to.equal(200);
      expect(res.headers['content-type']).to.match(/^text\/xml/);
      const doc = parse(res.text);
      const root = doc.root()!;
      expect([root.namespace()?.href(), root.name()]).to.deep.equal([SMP, 'ServiceGroup']);
      expect(childNames(root)).to.deep.equal([
        `{${IDS}}ParticipantIdentifier`,
        `{${SMP}}ServiceMetadataReferenceCollection`,
      ]);
      const participantId = one(doc, '/smp:ServiceGroup/ids:ParticipantIdentifier');
      expect([participantId.getAttribute('scheme')?.value(), participantId.text()]).to.deep.equal([
        'iso6523-actorid-upis',
        id,
      ]);
      const hrefs = (
        doc.find(
          '/smp:ServiceGroup/smp:ServiceMetadataReferenceCollection/smp:ServiceMetadataReference',
          NS,
        ) as XMLElement[]
      ).map((r) => r.getAttribute('href')!.value());
      expect(hrefs).to.deep.equal(
        [BIS_BILLING_INVOICE, BIS_BILLING_CREDIT_NOTE, INVOICE_RESPONSE_DOCUMENT_TYPE].map(
          (doctype) =>
            `${PUBLIC_URL}/${encodeURIComponent(`iso6523-actorid-upis::${id}`)}/services/${encodeURIComponent(`busdox-docid-qns::${doctype}`)}`,
        ),
      );
    }
  });

  it('serves signed ServiceMetadata for Invoice, CreditNote and Invoice Response: their processes, AS4 endpoint at PUBLIC_URL/as4, the AP certificate', async () => {
    const group = parse((await t.http.get(`/iso6523-actorid-upis::${id}`)).text);
    const hrefs = (group.find('//smp:ServiceMetadataReference', NS) as XMLElement[]).map((r) =>
      r.getAttribute('href')!.value(),
    );
    const documentTypes: string[] = [];
    for (const href of hrefs) {
      const res = await t.http.get(href.slice(PUBLIC_URL.length));
      expect(res.status, href).to.equal(200);
      const doc = parse(res.text);
      const root = doc.root()!;
      expect([root.namespace()?.href(), root.name()]).to.deep.equal([SMP, 'SignedServiceMetadata']);
      expect(childNames(root)).to.deep.equal([`{${SMP}}ServiceMetadata`, `{${DS}}Signature`]);
      const info = one(doc, '/smp:SignedServiceMetadata/smp:ServiceMetadata/smp:ServiceInformation');
      expect(childNames(info)).to.deep.equal([
        `{${IDS}}ParticipantIdentifier`,
        `{${IDS}}DocumentIdentifier`,
        `{${SMP}}ProcessList`,
      ]);
      expect(one(info, 'ids:ParticipantIdentifier').text()).to.equal(id);
      const documentId = one(info, 'ids:DocumentIdentifier');
      expect(documentId.getAttribute('scheme')?.value()).to.equal('busdox-docid-qns');
      documentTypes.push(documentId.text());
      const process = one(info, 'smp:ProcessList/smp:Process');
      expect(one(process, 'ids:ProcessIdentifier').getAttribute('scheme')?.value()).to.equal('cenbii-procid-ubl');
      // Invoices and credit notes under BIS Billing, the Invoice Responses to our invoices under their own process.
      expect(one(process, 'ids:ProcessIdentifier').text()).to.equal(
        documentId.text() === INVOICE_RESPONSE_DOCUMENT_TYPE ? INVOICE_RESPONSE_PROCESS : BIS_BILLING_PROCESS,
      );
      const endpoint = one(process, 'smp:ServiceEndpointList/smp:Endpoint');
      expect(endpoint.getAttribute('transportProfile')?.value()).to.equal('peppol-transport-as4-v2_0');
      expect(childNames(endpoint)).to.deep.equal(
        [
          'wsa:EndpointReference',
          'RequireBusinessLevelSignature',
          'Certificate',
          'ServiceDescription',
          'TechnicalContactUrl',
        ].map((n) => (n.startsWith('wsa:') ? `{${WSA}}${n.slice(4)}` : `{${SMP}}${n}`)),
      );
      expect(one(endpoint, 'wsa:EndpointReference/wsa:Address').text()).to.equal(`${PUBLIC_URL}/as4`);
      expect(one(endpoint, 'smp:RequireBusinessLevelSignature').text()).to.equal('false');
      expect(one(endpoint, 'smp:TechnicalContactUrl').text()).to.equal('mailto:peppol@invoicing.example.test');
      const certificate = one(endpoint, 'smp:Certificate').text();
      expect(certificate).to.equal(ap.certificatePem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''));
      const signature = new SmpXmlSignatures().verify(res.text);
      expect(signature).to.include({ signed: true, valid: true });
      expect((signature.certificate?.details as { subject: string }).subject).to.include(
        'CN=smp.invoicing.example.test',
      );
    }
    expect(documentTypes).to.deep.equal([BIS_BILLING_INVOICE, BIS_BILLING_CREDIT_NOTE, INVOICE_RESPONSE_DOCUMENT_TYPE]);
  });

  it('serves the business card, valid against the Peppol Directory business card v3 schema', async function () {
    const res = await t.http.get(`/businesscard/${encodeURIComponent(`iso6523-actorid-upis::${id}`)}`);
    expect(res.status).to.equal(200);
    const doc = parse(res.text);
    expect([doc.root()!.namespace()?.href(), doc.root()!.name()]).to.deep.equal([BC, 'BusinessCard']);
    expect(one(doc, '/bc:BusinessCard/bc:ParticipantIdentifier').text()).to.equal(id);
    expect(one(doc, '/bc:BusinessCard/bc:BusinessEntity/bc:Name').text()).to.equal('Published & Co NV');
    expect(one(doc, '/bc:BusinessCard/bc:BusinessEntity/bc:CountryCode').text()).to.equal('BE');
    expect(one(doc, '/bc:BusinessCard/bc:BusinessEntity').getAttribute('registrationDate')?.value()).to.match(
      /^\d{4}-\d{2}-\d{2}$/,
    );
    if (!fs.existsSync(businessCardXsd)) {
      if (process.env.CI === 'true') throw new Error(`business card schema missing at ${businessCardXsd}`);
      console.log(`  [skipped schema check] ${businessCardXsd} not found (set SHARED_DIR)`);
      return;
    }
    const schema = libxmljs.parseXml(fs.readFileSync(businessCardXsd, 'utf8'), { nonet: true });
    expect(doc.validate(schema), JSON.stringify(doc.validationErrors)).to.equal(true);
  });

  it('answers 404 for unknown and simulated participants and for document types it does not receive', async () => {
    const unknown = await t.http.get(`/iso6523-actorid-upis::0208:${belgianNumber()}`);
    expect(unknown.status).to.equal(404);
    expect(unknown.body).to.deep.equal({ detail: 'Unknown participant' });
    expect((await t.http.get('/iso6523-actorid-upis::0208:0123456748')).status).to.equal(404);
    expect((await t.http.get(`/businesscard/iso6523-actorid-upis::0208:${belgianNumber()}`)).status).to.equal(404);
    const order =
      'busdox-docid-qns::urn:oasis:names:specification:ubl:schema:xsd:Order-2::Order##urn:fdc:peppol.eu:poacc:trns:order:3::2.1';
    const wrongType = await t.http.get(`/iso6523-actorid-upis::${id}/services/${encodeURIComponent(order)}`);
    expect(wrongType.status).to.equal(404);

    const testTenant = await createPeppolTenant(t, org.adminKey);
    await t.http
      .put(`/api/operator/tenants/${testTenant.id}/test-mode`)
      .set(bearer(t.operatorKey))
      .send({ test_mode: true, email: 'x@example.com' });
    const simulatedId = `0208:${belgianNumber()}`;
    await registerPeppol(t, org.adminKey, testTenant.id, { peppol_id: simulatedId, company_name: 'Simulated NV' });
    await t.service.projections.catchUp();
    expect((await t.http.get(`/iso6523-actorid-upis::${simulatedId}`)).status).to.equal(404);
    expect((await t.http.get(`/businesscard/iso6523-actorid-upis::${simulatedId}`)).status).to.equal(404);
  });

  it('matches only participant paths, so /healthz, /api and other paths are not shadowed', async () => {
    expect((await t.http.get('/healthz')).body).to.deep.equal({ status: 'ok' });
    expect((await t.http.get('/api/openapi.json')).status).to.equal(200);
    for (const path of ['/0208:0123456749', '/something', '/businesscard/0208:0123456749', '/x/services/y']) {
      const res = await t.http.get(path);
      expect(res.status, path).to.equal(404);
      expect(res.body, path).to.deep.equal({ detail: 'Not Found' });
    }
    const paths = Object.keys((await t.http.get('/api/openapi.json')).body.paths);
    expect(paths).to.include.members([
      '/{participant}',
      '/{participant}/services/{documentType}',
      '/businesscard/{participant}',
    ]);
  });

  it('without signing key, certificate or PUBLIC_URL: unsigned metadata, an empty Certificate, URLs of the request', async () => {
    const reseller = await createOrganization(plain);
    const plainId = `0208:${belgianNumber()}`;
    const tenant = await createPeppolTenant(plain, reseller.adminKey);
    await registerPeppol(plain, reseller.adminKey, tenant.id, { peppol_id: plainId, company_name: 'Plain NV' });
    await plain.service.projections.catchUp();
    const group = await plain.http.get(`/iso6523-actorid-upis::${plainId}`).set('Host', 'smp.local.test:8080');
    const href = one(parse(group.text), '//smp:ServiceMetadataReference').getAttribute('href')!.value();
    expect(
      href.startsWith(`http://smp.local.test:8080/${encodeURIComponent(`iso6523-actorid-upis::${plainId}`)}/services/`),
    ).to.equal(true);
    const metadata = await plain.http
      .get(href.slice('http://smp.local.test:8080'.length))
      .set('Host', 'smp.local.test:8080');
    const doc = parse(metadata.text);
    expect(doc.get('//ds:Signature', NS)).to.equal(null);
    expect(one(doc, '//smp:Endpoint/smp:Certificate').text()).to.equal('');
    expect(one(doc, '//wsa:Address').text()).to.equal('http://smp.local.test:8080/as4');
  });
});
