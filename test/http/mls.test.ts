import { randomUUID, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import {
  bearer,
  createOrganization,
  createTenant,
  eventually,
  startTestService,
  waitForState,
  type TestService,
} from '../support/service.js';
import { registerPeppol } from '../support/peppol.js';
import { startDnsServer, type TestDnsServer } from '../support/dnsServer.js';
import { makeTestPki, type TestAccessPoint, type TestPki } from '../support/testPki.js';
import { senderPeppolConfig, smlNameOf, urlOf } from '../support/as4Peers.js';
import { buildAs4, invoiceSbdh, signingKeyOf } from '../support/as4Sender.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver.js';
import { realisticDocuments } from '../domain/document/fixtures/realisticDocuments.js';
import { as4MessageStream, type As4MessageReceived } from '../../src/application/documents/as4MessageRecord.js';
import { MlsResponder, mlsMessageId } from '../../src/application/inbox/mlsResponder.js';
import { DocumentContent } from '../../src/application/documents/documentContent.js';
import { networkMessageStream, type NetworkMessageState } from '../../src/domain/peppol/networkMessage.js';
import { NetworkMessages } from '../../src/application/network/networkMessages.js';
import {
  MLS_DOCUMENT_TYPE,
  MLS_PROCESS,
  readMls,
  writeMls,
  type MessageLevelStatus,
} from '../../src/domain/peppol/mls/messageLevelStatus.js';
import { validateMls } from '../../src/domain/validation/rules/mls/mlsRules.js';
import { parseUntrustedXml } from '../../src/infrastructure/xml/xmlParser.js';
import { PARTICIPANT_SCHEME } from '../../src/domain/peppol/participantId.js';
import { DOCUMENT_ID_SCHEME, PROCESS_ID_SCHEME } from '../../src/domain/peppol/smpDocuments.js';
import type { MlsType } from '../../src/domain/peppol/as4/sbdh.js';

const BUYER_ID = '0208:0451234595';
const SELLER_ID = '0208:0403013026';
const A_SPID = '0242:000001';
const B_SPID = '0242:000002';
const UNIT_MS = 5;

const invoice = (invoiceId: string) => ({
  ...(structuredClone(realisticDocuments()[0]!.body) as Record<string, unknown>),
  invoice_id: invoiceId,
});

/**
 * Message Level Status between two instances of the service on loopback, found through a real DNS
 * server answering the SML zone and each other's signed SMP: A (POP000001, SPID 0242:000001) sends,
 * B (POP000002, SPID 0242:000002) receives. A asks for MLS FAILURE_ONLY here, so what A records is
 * driven by MLS this suite signs with B's key; what B sends is driven by the SBDH of messages this
 * suite sends to B as A.
 */
describe('Message Level Status: C2 records it, C3 sends it (two instances, AS4, SML DNS, SMP)', function () {
  this.timeout(180_000);
  let pki: TestPki;
  let dns: TestDnsServer;
  let a: TestService;
  let b: TestService;
  let seller: { id: string; key: string };
  let hooks: WebhookReceiver;
  let aCertificate: X509Certificate;
  let bCertificate: X509Certificate;

  const settings = (i: 1 | 2, extra: Record<string, unknown>) => {
    const ap = pki.instance(i);
    return senderPeppolConfig(pki, dns, {
      as4KeyFile: ap.keyFile,
      as4CertificateFile: ap.certificateFile,
      smpSigningKeyFile: ap.smpKeyFile,
      smpSigningCertificateFile: ap.smpCertificateFile,
      as4AllowPlainHttpLoopback: true,
      as4SendTimeoutMs: 30_000,
      ...extra,
    });
  };

  before(async () => {
    pki = await makeTestPki({ instances: 2 });
    dns = await startDnsServer();
    hooks = await startWebhookReceiver();
    [a, b] = await Promise.all([
      startTestService({ peppol: settings(1, { mlsType: 'FAILURE_ONLY' }) }, undefined, {
        deliveryRetryUnitMs: UNIT_MS,
      }),
      startTestService({ peppol: settings(2, {}) }, undefined, { deliveryRetryUnitMs: UNIT_MS }),
    ]);
    const [aUrl, bUrl] = [urlOf(await a.service.listen(0, '127.0.0.1')), urlOf(await b.service.listen(0, '127.0.0.1'))];
    dns.pointToSmp(smlNameOf(A_SPID), aUrl);
    dns.pointToSmp(smlNameOf(B_SPID), bUrl);
    dns.pointToSmp(smlNameOf(BUYER_ID), bUrl);
    const aOrg = await createOrganization(a);
    seller = await createTenant(a, aOrg.adminKey, undefined, { peppol_ids: [SELLER_ID] });
    const bOrg = await createOrganization(b);
    const buyer = await createTenant(b, bOrg.adminKey, 'buyer', { peppol_ids: [BUYER_ID] });
    await registerPeppol(b, bOrg.adminKey, buyer.id, { peppol_id: BUYER_ID, company_name: 'Brouwerij De Zwaan NV' });
    await b.service.projections.catchUp();
    const hook = await a.http
      .post('/api/webhooks/')
      .set(bearer(seller.key))
      .send({ url: hooks.url('/a'), events: ['document.mls_received', 'document.failed'] });
    expect(hook.status, JSON.stringify(hook.body)).to.equal(201);
    aCertificate = new X509Certificate(readFileSync(pki.instance(1).certificateFile));
    bCertificate = new X509Certificate(readFileSync(pki.instance(2).certificateFile));
  });
  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await hooks?.stop();
    await dns?.close();
    await pki?.dispose();
  });

  const postAs4 = async (to: TestService, message: { contentType: string; body: Buffer }) => {
    const res = await to.http.post('/as4').set('Content-Type', message.contentType).send(message.body).buffer(true);
    expect(res.status).to.equal(200);
    expect(String(res.text ?? res.body)).to.contain('Receipt');
  };
  const from = (ap: TestAccessPoint) => ({ ...signingKeyOf(ap), seatId: ap.seatId });

  /** A sends an invoice to B's buyer; resolves once A has it SENT, with the AS4 MessageId it went out with. */
  const sendFromA = async (invoiceId: string) => {
    const created = await a.http.post('/api/documents/').set(bearer(seller.key)).send(invoice(invoiceId));
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const sent = await a.http.post(`/api/documents/${created.body.id}/send`).set(bearer(seller.key));
    expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
    await waitForState(a, seller.key, created.body.id, ['SENT']);
    const report = await a.http.get(`/api/documents/${created.body.id}/transmission-report`).set(bearer(seller.key));
    return { id: created.body.id as string, messageId: report.body.deliveries[0].message_id as string };
  };
  /** An MLS about `about`, signed by B's access point, to A's SPID. */
  const mlsToA = async (about: string, over: Partial<MessageLevelStatus> = {}) => {
    const mls: MessageLevelStatus = {
      id: randomUUID(),
      issueDate: '2026-05-01',
      issueTime: '10:00:00Z',
      sender: '000002',
      receiver: '000001',
      referenceId: about,
      code: 'AP',
      description: null,
      issues: [],
      ...over,
    };
    const sbdh = invoiceSbdh(B_SPID, A_SPID, {
      document: {
        standard: 'urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2',
        typeVersion: '2.1',
        instanceIdentifier: randomUUID(),
        type: 'ApplicationResponse',
        creationDateAndTime: new Date().toISOString(),
      },
      documentType: { scheme: DOCUMENT_ID_SCHEME, value: MLS_DOCUMENT_TYPE },
      process: { scheme: PROCESS_ID_SCHEME, value: MLS_PROCESS },
    });
    const built = await buildAs4({
      sbdh,
      businessDocument: writeMls(mls),
      from: from(pki.instance(2)),
      toSeatId: 'POP000001',
      receiverCertificate: aCertificate,
    });
    await postAs4(a, built);
  };
  const reportOf = async (id: string) =>
    (await a.http.get(`/api/documents/${id}/transmission-report`).set(bearer(seller.key))).body;

  it('C2: our SBDH asks for MLS; an AP is recorded (SENT stays), an RE fails the document (it can be sent again), an invalid one changes nothing', async () => {
    const first = await sendFromA('MLS-AP-1');
    // What B received asked for MLS: to A's SPID, as configured.
    const [record] = await b.service.eventStore.readStream(as4MessageStream(first.messageId));
    expect((record!.data as As4MessageReceived['data']).sbdh).to.deep.include({
      mls_to: { scheme: PARTICIPANT_SCHEME, value: A_SPID },
      mls_type: 'FAILURE_ONLY',
    });
    // Delivered and only failures asked for: B owes nothing.
    expect(await b.service.eventStore.readStream(networkMessageStream(mlsMessageId(first.messageId)))).to.deep.equal(
      [],
    );

    await mlsToA(first.messageId);
    const ap = await eventually(async () => (await reportOf(first.id)).deliveries[0].mls, 'the AP on the report');
    expect(ap).to.include({ code: 'AP', valid: true, sender_ap: 'POP000002' });
    expect((await reportOf(first.id)).state).to.equal('SENT');
    const timeline = await a.http.get(`/api/documents/${first.id}/timeline`).set(bearer(seller.key));
    expect(timeline.body.items.map((i: { type: string }) => i.type)).to.include('mls_received');

    const second = await sendFromA('MLS-RE-1');
    await mlsToA(second.messageId, {
      code: 'RE',
      description: 'Rejected due to validation errors',
      issues: [
        {
          location: '/Invoice/cbc:IssueDate',
          description: '[BR-03] An Invoice shall have an issue date',
          reason: 'BV',
        },
      ],
    });
    await waitForState(a, seller.key, second.id, ['FAILED']);
    const rejected = await reportOf(second.id);
    expect(rejected.deliveries[0].mls).to.include({ code: 'RE', valid: true });
    expect(rejected.deliveries[0].failure_reason).to.match(/MLS RE.*Rejected due to validation errors.*BR-03/);
    const again = await a.http.post(`/api/documents/${second.id}/send`).set(bearer(seller.key));
    expect(again.status, 'a FAILED document can be sent again').to.equal(200);
    await waitForState(a, seller.key, second.id, ['SENT']);

    const third = await sendFromA('MLS-BAD-1');
    await mlsToA(third.messageId, { code: 'RE', description: null });
    const bad = await eventually(async () => (await reportOf(third.id)).deliveries[0].mls, 'the invalid MLS');
    expect(bad.valid).to.equal(false);
    expect(bad.problems.join(' ')).to.contain('SCH-MLS-20').and.contain('SCH-MLS-23');
    expect((await reportOf(third.id)).state, 'an invalid MLS changes nothing').to.equal('SENT');

    // The subscriber heard of each MLS, and of the failure the RE caused.
    const kinds = await eventually(async () => {
      const seen = hooks.calls
        .filter((c) => c.path === '/a')
        .map((c) => JSON.parse(c.body) as { type: string; data: { document_id: string } });
      return seen.length >= 4 && seen;
    }, 'the webhooks');
    expect(kinds.filter((k) => k.type === 'document.mls_received').map((k) => k.data.document_id)).to.have.members([
      first.id,
      second.id,
      third.id,
    ]);
    expect(kinds.filter((k) => k.type === 'document.failed').map((k) => k.data.document_id)).to.deep.equal([second.id]);
  });

  it('C3: one RE for a document that fails its business rules (not delivered), one AP when asked ALWAYS_SEND, none for an MLS', async () => {
    const ubl = (
      await a.http
        .get(
          `/api/documents/${(await a.http.post('/api/documents/').set(bearer(seller.key)).send(invoice('MLS-C3'))).body.id}/ubl?format=xml`,
        )
        .set(bearer(seller.key))
    ).text;
    const sendToB = async (businessDocument: string, mlsType: MlsType) => {
      const sbdh = invoiceSbdh(SELLER_ID, BUYER_ID, { mlsTo: { scheme: PARTICIPANT_SCHEME, value: A_SPID }, mlsType });
      const built = await buildAs4({
        sbdh,
        businessDocument,
        from: from(pki.instance(1)),
        toSeatId: 'POP000002',
        receiverCertificate: bCertificate,
      });
      await postAs4(b, built);
      return { messageId: built.messageId, instanceId: sbdh.document.instanceIdentifier };
    };
    const sentBy = async (messageId: string) =>
      eventually(async () => {
        const state: NetworkMessageState = await b.service.resolve(NetworkMessages).get(mlsMessageId(messageId));
        return state.status === 'present' && state.state === 'SENT' && state;
      }, 'the MLS delivered to A');

    const receivedByB = async () =>
      (await b.service.eventStore.readAll()).filter((e) => e.type === 'DocumentReceived').length;
    const before = await receivedByB();
    const broken = await sendToB(
      ubl.replace(/(<cbc:DocumentCurrencyCode>)EUR</, '$1ZZZ<').replace(/currencyID="EUR"/g, 'currencyID="ZZZ"'),
      'FAILURE_ONLY',
    );
    const [record] = await b.service.eventStore.readStream(as4MessageStream(broken.messageId));
    expect(record!.data).to.include({ kind: 'refused', document_id: null });
    const re = await sentBy(broken.messageId);
    expect(re.envelope).to.include({ sender: B_SPID, receiver: A_SPID });
    const xml = (await b.service.resolve(DocumentContent).blob(re.document_ref)).toString('utf8');
    const tree = parseUntrustedXml(xml).root;
    expect(validateMls(tree), 'the MLS keeps the MLS rules').to.deep.equal([]);
    const said = readMls(tree);
    expect(said).to.include({ code: 'RE', referenceId: broken.instanceId, sender: B_SPID, receiver: A_SPID });
    expect(said.issues.map((i) => i.reason)).to.satisfy((r: string[]) => r.length > 0 && r.every((x) => x === 'BV'));
    expect(said.issues.map((i) => i.description).join(' ')).to.match(/\[BR-CL-04\]/);
    // Not delivered: no document entered the buyer's inbox.
    expect(await receivedByB()).to.equal(before);

    const fine = await sendToB(ubl, 'ALWAYS_SEND');
    const apMls = await sentBy(fine.messageId);
    expect(apMls.purpose).to.include({ kind: 'mls', code: 'AP', about_instance_id: fine.instanceId });
    expect(await receivedByB()).to.equal(before + 1);

    // A took in both MLS (acknowledged: they are about messages A never sent) and answered neither with an MLS.
    for (const mls of [re, apMls]) {
      const received = await eventually(
        async () => (await a.service.eventStore.readStream(as4MessageStream(mls.delivery.message_id)))[0],
        'the MLS at A',
      );
      expect(received.data).to.include({ kind: 'mls', sender_ap: 'POP000002' });
      expect(
        await a.service.eventStore.readStream(networkMessageStream(mlsMessageId(mls.delivery.message_id))),
      ).to.deep.equal([]);
    }

    // The process manager run again on the same reception (a replay) sends nothing more.
    await b.service.resolve(MlsResponder).handle(record!);
    const events = await b.service.eventStore.readStream(networkMessageStream(mlsMessageId(broken.messageId)));
    expect(events.map((e) => e.type)).to.deep.equal([
      'NetworkMessageQueued',
      'NetworkMessageAttempted',
      'NetworkMessageDelivered',
    ]);
  });
});
