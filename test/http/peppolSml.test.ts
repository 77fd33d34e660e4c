import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import libxmljs, { type XMLElement } from 'libxmljs';
import { bearer, createOrganization, startTestService, type TestService } from '../support/service.js';
import { belgianNumber, createPeppolTenant, registerPeppol } from '../support/peppol.js';
import { loadPeppolConfig } from '../../src/infrastructure/peppolConfig.js';

interface SmlCall {
  soapAction: string;
  operation: string;
  smpId: string;
  participant: string;
  scheme: string;
}

const fault = (message: string, detail: string) =>
  `<?xml version="1.0"?><S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"><S:Body><S:Fault><faultcode>S:Server</faultcode>` +
  `<faultstring>${message}</faultstring><detail><ns2:${detail} xmlns:ns2="http://busdox.org/serviceMetadata/ManageBusinessIdentifierService/1.0/">` +
  `<FaultMessage>${message}</FaultMessage></ns2:${detail}></detail></S:Fault></S:Body></S:Envelope>`;

describe('Publishing registrations to the SML (SOAP, against a local HTTP server)', function () {
  let t: TestService;
  let off: TestService;
  let sml: http.Server;
  const calls: SmlCall[] = [];
  let answer: { status: number; body: string } | null = null;
  let adminKey: string;

  before(async () => {
    sml = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const doc = libxmljs.parseXml(Buffer.concat(chunks).toString('utf8'), { nonet: true });
        const ns = {
          S: 'http://schemas.xmlsoap.org/soap/envelope/',
          lrs: 'http://busdox.org/serviceMetadata/locator/1.0/',
          ids: 'http://busdox.org/transport/identifiers/1.0/',
        };
        const operation = doc.get('/S:Envelope/S:Body/*', ns) as XMLElement;
        const participant = operation.get('ids:ParticipantIdentifier', ns) as XMLElement;
        calls.push({
          soapAction: String(req.headers.soapaction),
          operation: `{${operation.namespace()?.href()}}${operation.name()}`,
          smpId: (operation.get('lrs:ServiceMetadataPublisherID', ns) as XMLElement).text(),
          participant: participant.text(),
          scheme: participant.getAttribute('scheme')!.value(),
        });
        const reply = answer ?? {
          status: 200,
          body: '<S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"><S:Body/></S:Envelope>',
        };
        res.writeHead(reply.status, { 'Content-Type': 'text/xml' }).end(reply.body);
      });
    });
    await new Promise<void>((resolve) => sml.listen(0, '127.0.0.1', resolve));
    const smlUrl = `http://127.0.0.1:${(sml.address() as AddressInfo).port}/manageparticipantidentifier`;
    t = await startTestService({ peppol: { ...loadPeppolConfig({}), smlUrl, smlSmpId: 'TEST-SMP-1' } });
    off = await startTestService({}, t.databaseUrl);
    adminKey = (await createOrganization(t)).adminKey;
  });
  after(async () => {
    await off?.stop();
    await t?.stop();
    await new Promise<void>((resolve) => sml.close(() => resolve()));
  });
  beforeEach(() => {
    calls.length = 0;
    answer = null;
  });

  it('creates the participant at the SML on registration and deletes it on unregistration', async () => {
    const tenant = await createPeppolTenant(t, adminKey);
    const id = `0208:${belgianNumber()}`;
    const result = await registerPeppol(t, adminKey, tenant.id, { peppol_id: id, company_name: 'Published NV' });
    expect(result).to.include({ status: 'active', sml: 'published' });
    expect(result.message).to.match(/published to the SML/);
    expect(calls).to.deep.equal([
      {
        soapAction: '"http://busdox.org/serviceMetadata/ManageBusinessIdentifierService/1.0/:createIn"',
        operation: '{http://busdox.org/serviceMetadata/locator/1.0/}CreateParticipantIdentifier',
        smpId: 'TEST-SMP-1',
        participant: id,
        scheme: 'iso6523-actorid-upis',
      },
    ]);
    const unregistered = await t.http.post(`/api/admin/tenants/${tenant.id}/peppol/unregister`).set(bearer(adminKey));
    expect(unregistered.status).to.equal(200);
    expect(calls.map((c) => [c.operation.replace(/.*}/, ''), c.participant])).to.deep.equal([
      ['CreateParticipantIdentifier', id],
      ['DeleteParticipantIdentifier', id],
    ]);
  });

  it('answers 502 and changes nothing when the SML fails; the id stays free', async () => {
    const tenant = await createPeppolTenant(t, adminKey);
    const id = `0208:${belgianNumber()}`;
    answer = { status: 500, body: fault('Internal error', 'InternalErrorFault') };
    const before = await t.service.eventStore.readStream(`tenant-${tenant.id}`);
    const res = await t.http
      .post(`/api/admin/tenants/${tenant.id}/peppol/register`)
      .set(bearer(adminKey))
      .send({ peppol_id: id, company_name: 'Failing NV' });
    expect(res.status).to.equal(502);
    expect(res.body.detail).to.match(/SML did not accept.*Internal error/);
    expect(await t.service.eventStore.readStream(`tenant-${tenant.id}`)).to.have.length(before.length);
    expect(
      (await t.http.get(`/api/admin/tenants/${tenant.id}/peppol/status`).set(bearer(adminKey))).body.registered,
    ).to.equal(false);
    answer = null;
    const other = await createPeppolTenant(t, adminKey);
    expect((await registerPeppol(t, adminKey, other.id, { peppol_id: id, company_name: 'Next NV' })).status).to.equal(
      'active',
    );
  });

  it('answers 409 when the SML says another SMP holds the participant', async () => {
    const tenant = await createPeppolTenant(t, adminKey);
    answer = { status: 500, body: fault('The participant identifier already exists', 'BadRequestFault') };
    const res = await t.http
      .post(`/api/admin/tenants/${tenant.id}/peppol/register`)
      .set(bearer(adminKey))
      .send({ peppol_id: `0208:${belgianNumber()}`, company_name: 'Taken NV' });
    expect(res.status).to.equal(409);
    expect(res.body.detail).to.match(/another SMP/);
  });

  it('keeps the registration when the SML refuses its removal (502), and accepts a removal the SML no longer knows', async () => {
    const tenant = await createPeppolTenant(t, adminKey);
    await registerPeppol(t, adminKey, tenant.id, { peppol_id: `0208:${belgianNumber()}`, company_name: 'Sticky NV' });
    answer = { status: 500, body: fault('Unauthorized', 'UnauthorizedFault') };
    const refused = await t.http.post(`/api/admin/tenants/${tenant.id}/peppol/unregister`).set(bearer(adminKey));
    expect(refused.status).to.equal(502);
    expect(
      (await t.http.get(`/api/admin/tenants/${tenant.id}/peppol/status`).set(bearer(adminKey))).body.registered,
    ).to.equal(true);
    answer = { status: 500, body: fault('The participant identifier was not found', 'NotFoundFault') };
    const gone = await t.http.post(`/api/admin/tenants/${tenant.id}/peppol/unregister`).set(bearer(adminKey));
    expect(gone.status).to.equal(200);
  });

  it('answers 502, not 500, when deleting a registered tenant meets an SML that refuses the removal; the tenant stays', async () => {
    const tenant = await createPeppolTenant(t, adminKey);
    await registerPeppol(t, adminKey, tenant.id, { peppol_id: `0208:${belgianNumber()}`, company_name: 'Staying NV' });
    answer = { status: 500, body: fault('Unauthorized', 'UnauthorizedFault') };
    const refused = await t.http.delete(`/api/admin/tenants/${tenant.id}`).set(bearer(adminKey));
    expect(refused.status).to.equal(502);
    expect(refused.body.detail).to.be.a('string');
    expect(
      (await t.http.get(`/api/admin/tenants/${tenant.id}/peppol/status`).set(bearer(adminKey))).body.registered,
    ).to.equal(true);
  });

  it('does not publish simulated (test-mode) registrations, nor anything when SML_URL is not set', async () => {
    const tenant = await createPeppolTenant(t, adminKey);
    await t.http
      .put(`/api/operator/tenants/${tenant.id}/test-mode`)
      .set(bearer(t.operatorKey))
      .send({ test_mode: true, email: 'x@example.com' });
    expect(
      (await registerPeppol(t, adminKey, tenant.id, { peppol_id: `0208:${belgianNumber()}`, company_name: 'Test NV' }))
        .status,
    ).to.equal('simulated');
    const live = await createPeppolTenant(off, adminKey);
    expect(
      (
        await registerPeppol(off, adminKey, live.id, {
          peppol_id: `0208:${belgianNumber()}`,
          company_name: 'Unpublished NV',
        })
      ).sml,
    ).to.equal('off');
    expect(calls).to.deep.equal([]);
  });
});
