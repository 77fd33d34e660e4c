import { randomUUID, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import supertest from 'supertest';
import {
  bearer,
  capturingLogger,
  createOrganization,
  createTenant,
  eventually,
  startTestService,
  waitForState,
  type TestService,
} from '../support/service.js';
import { registerPeppol } from '../support/peppol.js';
import { accessPointSettings, makeTestPki, type TestAccessPoint, type TestPki } from '../support/testPki.js';
import {
  buildAs4,
  buildAs4WithCompressed,
  invoiceSbdh,
  postAs4,
  signingKeyOf,
  tamperSoap,
  type As4Send,
} from '../support/as4Sender.js';
import { realisticDocuments } from '../domain/document/fixtures/realisticDocuments.js';
import { readSignalResponse, type SignalOutcome } from '../../src/infrastructure/as4/as4Signals.js';
import type { BuiltMessage } from '../../src/infrastructure/as4/as4Outbound.js';
import { PEPPOL_NOT_SERVICED } from '../../src/domain/peppol/as4/ebmsError.js';
import {
  INVOICE_RESPONSE_DOCUMENT_TYPE,
  INVOICE_RESPONSE_PROCESS,
  PROCESS_ID_SCHEME,
  DOCUMENT_ID_SCHEME,
} from '../../src/domain/peppol/smpDocuments.js';
import { writeInvoiceResponse } from '../../src/domain/document/ubl/invoiceResponse.js';
import { as4MessageStream } from '../../src/application/documents/as4MessageRecord.js';
import { parseCounts } from '../../src/infrastructure/xml/xmlParser.js';
import { DEFAULT_TASK_SIZES } from '../../src/infrastructure/workers/pooledDocumentWork.js';

/** The fixture's buyer (BE0451234595) and seller (BE0403013026) as Peppol participants. */
const BUYER_ID = '0208:0451234595';
const SELLER_ID = '0208:0403013026';
const OUR_SEAT = 'POP000001';
const THEIR_SEAT = 'POP000002';
const MAX_MESSAGE_BYTES = 512 * 1024;

const invoiceBody = () => structuredClone(realisticDocuments()[0]!.body) as Record<string, unknown>;

describe('AS4 receiving: POST /as4 (real app, PostgreSQL, test PKI)', function () {
  this.timeout(120_000);
  let pki: TestPki;
  let t: TestService;
  let adminKey: string;
  let buyer: { id: string; key: string };
  let ourCertificate: X509Certificate;
  /** A UBL invoice from the fixture's seller to the fixture's buyer, as our service writes it. */
  let invoiceUbl: string;
  const log = capturingLogger();

  const sender = (ap: TestAccessPoint = pki.instance(2)) => ({ ...signingKeyOf(ap), seatId: ap.seatId });
  const send = (overrides: Partial<As4Send> = {}): As4Send => ({
    sbdh: invoiceSbdh(SELLER_ID, BUYER_ID),
    businessDocument: invoiceUbl,
    from: sender(),
    toSeatId: OUR_SEAT,
    receiverCertificate: ourCertificate,
    ...overrides,
  });

  const post = (message: { contentType: string; body: Buffer }) => postAs4(t, message);
  /** The answer read as our sender reads it (signature against our AP certificate). */
  const signal = (body: Buffer, built: Pick<BuiltMessage, 'messageId' | 'references'>): SignalOutcome =>
    readSignalResponse(body, { messageId: built.messageId, references: built.references, receiver: ourCertificate });
  const errorsOf = (outcome: SignalOutcome) => {
    if (outcome.kind !== 'error') throw new Error(`expected an ebMS error, got ${JSON.stringify(outcome)}`);
    expect(outcome.signatureValid, 'the error signal is signed by this AP').to.equal(true);
    return outcome.errors;
  };
  const recordsOf = async (messageId: string) =>
    (await t.service.eventStore.readStream(as4MessageStream(messageId))).filter((e) => e.type === 'As4MessageReceived');
  const receivedCount = async () =>
    (await t.service.eventStore.readAll()).filter(
      (e) => e.type === 'DocumentReceived' || e.type === 'As4MessageReceived',
    ).length;
  /** Posts a message that must be refused: its single error's code (and detail), and nothing stored. */
  const refused = async (message: { contentType: string; body: Buffer }, messageId: string | null) => {
    const before = await receivedCount();
    const res = await post(message);
    expect(res.status).to.equal(200);
    expect(res.contentType).to.match(/^application\/soap\+xml/);
    const errors = errorsOf(signal(res.body, { messageId: messageId ?? 'none', references: [] }));
    expect(await receivedCount(), 'nothing stored').to.equal(before);
    if (messageId) expect(await recordsOf(messageId)).to.have.length(0);
    return errors;
  };

  before(async () => {
    pki = await makeTestPki({ instances: 2 });
    ourCertificate = new X509Certificate(readFileSync(pki.instance(1).certificateFile));
    t = await startTestService(
      {
        // The AP CA's CRL lists POP999997 only: every other signer here is accepted as before.
        peppol: accessPointSettings(pki, 1, { crlFiles: [pki.apCaCrlFile], as4MaxMessageBytes: MAX_MESSAGE_BYTES }),
      },
      undefined,
      { logger: log.logger },
    );
    adminKey = (await createOrganization(t)).adminKey;
    buyer = await createTenant(t, adminKey, 'the-buyer', { peppol_ids: [BUYER_ID] });
    await registerPeppol(t, adminKey, buyer.id, { peppol_id: BUYER_ID, company_name: 'Brouwerij De Zwaan NV' });
    // The UBL the fixture's seller would send, from a tenant of ours not on Peppol.
    const writer = await createTenant(t, adminKey);
    const doc = await t.http.post('/api/documents/').set(bearer(writer.key)).send(invoiceBody());
    expect(doc.status, JSON.stringify(doc.body)).to.equal(200);
    invoiceUbl = (await t.http.get(`/api/documents/${doc.body.id}/ubl?format=xml`).set(bearer(writer.key))).text;
  });
  after(async () => {
    await t?.stop();
    await pki?.dispose();
  });

  it('stores a valid invoice before answering a signed receipt that matches what was sent; it lands in the inbox', async () => {
    const built = await buildAs4(send({ businessDocument: invoiceUbl.replace(/<cbc:ID>[^<]*</, '<cbc:ID>AS4-IN-1<') }));
    const res = await post(built);
    expect(res.status).to.equal(200);
    expect(res.contentType).to.match(/^application\/soap\+xml/);
    const outcome = signal(res.body, built);
    expect(outcome.kind, JSON.stringify(outcome)).to.equal('receipt');

    const records = await recordsOf(built.messageId);
    expect(records).to.have.length(1);
    const record = records[0]!.data as Record<string, unknown>;
    expect(record).to.include({
      message_id: built.messageId,
      sender_ap: THEIR_SEAT,
      tenant_id: buyer.id,
      kind: 'document',
    });
    // What a MessageId received again is compared with: the digests the signature gives the payload.
    expect(record.payload_digests).to.deep.equal(
      built.references.filter((r) => r.uri.startsWith('cid:')).map((r) => `${r.digestMethod} ${r.digestValue}`),
    );

    const inbox = await eventually(async () => {
      const r = await t.http.get('/api/inbox/?search=AS4-IN-1').set(bearer(buyer.key));
      return r.body.total === 1 && r.body;
    }, 'the document in the inbox');
    const received = inbox.items[0];
    expect(received).to.include({
      id: record.document_id,
      direction: 'INBOUND',
      state: 'RECEIVED',
      invoice_id: 'AS4-IN-1',
    });
    const history = await t.http.get(`/api/documents/${received.id}/history`).set(bearer(buyer.key));
    expect(history.body.events.map((e: { type: string }) => e.type)).to.deep.equal(['DocumentReceived']);
    // Who caused it: the sending access point, by the CN of the certificate its message was signed with.
    expect(history.body.events[0]).to.deep.include({
      actor: `access point ${THEIR_SEAT}`,
      actor_detail: { kind: 'access_point', seat_id: THEIR_SEAT },
    });
    const report = await t.http.get(`/api/documents/${received.id}/transmission-report`).set(bearer(buyer.key));
    expect(report.body.received).to.include({ message_id: built.messageId });
    const events = await t.service.eventStore.readStream(`document-${received.id}`);
    expect((events[0]!.data as { sender: unknown }).sender).to.deep.equal({
      peppol_id: SELLER_ID,
      tenant_id: null,
      document_id: null,
      as4: { message_id: built.messageId, sender_ap: THEIR_SEAT },
    });
  });

  it('reads a large payload in a worker process, not on the event loop; it lands in the inbox with its attachment', async () => {
    const writer = await createTenant(t, adminKey);
    const csv = Array.from({ length: 6000 }, (_, i) => `${i};${(i * 7919) % 10007};line ${i}`).join('\n');
    const doc = await t.http
      .post('/api/documents/')
      .set(bearer(writer.key))
      .send({
        ...invoiceBody(),
        invoice_id: 'AS4-LARGE-1',
        attachments: [
          { file_name: 'lines.csv', file_type: 'text/csv', file_data: Buffer.from(csv).toString('base64') },
        ],
      });
    expect(doc.status, JSON.stringify(doc.body)).to.equal(200);
    const large = (await t.http.get(`/api/documents/${doc.body.id}/ubl?format=xml`).set(bearer(writer.key))).text;
    expect(large.length).to.be.above(DEFAULT_TASK_SIZES.inlineBytes);
    const built = await buildAs4(send({ businessDocument: large }));
    const gatesBefore = parseCounts.gate;
    const res = await post(built);
    // On this process libxml2 parsed the SOAP envelope only; the payload was parsed by a worker.
    expect(parseCounts.gate - gatesBefore).to.equal(1);
    expect(signal(res.body, built).kind).to.equal('receipt');
    const inbox = await eventually(async () => {
      const r = await t.http.get('/api/inbox/?search=AS4-LARGE-1').set(bearer(buyer.key));
      return r.body.total === 1 && r.body;
    }, 'the large document in the inbox');
    const attachments = await t.http.get(`/api/documents/${inbox.items[0].id}/attachments`).set(bearer(buyer.key));
    expect(
      attachments.body.map((a: { file_name: string; file_size: number }) => [a.file_name, a.file_size]),
    ).to.deep.equal([['lines.csv', Buffer.byteLength(csv)]]);
    // A small payload is read here: the envelope and the payload.
    const small = await buildAs4(
      send({ businessDocument: invoiceUbl.replace(/<cbc:ID>[^<]*</, '<cbc:ID>AS4-SMALL-1<') }),
    );
    const before = parseCounts.gate;
    const answer = await post(small);
    expect(parseCounts.gate - before).to.equal(2);
    expect(signal(answer.body, small).kind).to.equal('receipt');
  });

  it("answers a sender's retry (the same MessageId) with the same receipt, byte for byte, and stores no second copy", async () => {
    const message = send({ businessDocument: invoiceUbl.replace(/<cbc:ID>[^<]*</, '<cbc:ID>AS4-RETRY<') });
    const built = await buildAs4(message);
    const first = await post(built);
    const again = await post(built);
    expect(signal(first.body, built).kind).to.equal('receipt');
    expect(again.status).to.equal(200);
    expect(again.body.equals(first.body)).to.equal(true);
    // A retry built anew (a fresh encryption key, MIME boundary, signature and ebMS timestamp
    // around the same payload) gets the same receipt too.
    const rebuilt = await buildAs4({ ...message, messageId: built.messageId });
    expect(rebuilt.body.equals(built.body)).to.equal(false);
    expect((await post(rebuilt)).body.equals(first.body)).to.equal(true);
    expect(await recordsOf(built.messageId)).to.have.length(1);
    await t.service.projections.catchUp(10_000);
    const inbox = await t.http.get('/api/inbox/?search=AS4-RETRY').set(bearer(buyer.key));
    expect(inbox.body.total).to.equal(1);
  });

  it('refuses the same MessageId with other content (EBMS:0004, as phase4), storing nothing, with one warning', async () => {
    const ubl = (id: string) => invoiceUbl.replace(/<cbc:ID>[^<]*</, `<cbc:ID>${id}<`);
    const message = send({ businessDocument: ubl('AS4-REUSED-1') });
    const built = await buildAs4(message);
    const first = await post(built);
    expect(signal(first.body, built).kind).to.equal('receipt');
    const [record] = await recordsOf(built.messageId);
    const receivedAt = (record!.data as { received_at: string }).received_at;
    // Another invoice; and the same invoice in another SBDH (a new InstanceIdentifier): other payloads both.
    for (const other of [
      send({ messageId: built.messageId, businessDocument: ubl('AS4-REUSED-2') }),
      { ...message, messageId: built.messageId, sbdh: invoiceSbdh(SELLER_ID, BUYER_ID) },
    ]) {
      const warningsBefore = log.records.length;
      const errors = await refused(await buildAs4(other), null);
      expect(errors.map((e) => [e.errorCode, e.refToMessageInError])).to.deep.equal([['EBMS:0004', built.messageId]]);
      expect(errors[0]!.description).to.equal(
        `MessageId ${built.messageId} was already used for a message with other content, received ${receivedAt}: ` +
          'this message is not stored; send it with a MessageId of its own',
      );
      const warnings = log.records.slice(warningsBefore).filter((r) => r.message_id === built.messageId);
      expect(warnings.map((w) => [w.level, w.codes])).to.deep.equal([[40, ['EBMS:0004']]]);
      expect(warnings[0]!.msg).to.match(new RegExp(`^AS4 message \\S+ from \\S+ refused: EBMS:0004: `));
      expect(warnings[0]!.msg).to.include(errors[0]!.description);
    }
    expect(await recordsOf(built.messageId)).to.have.length(1);
    await t.service.projections.catchUp(10_000);
    const inbox = await t.http.get('/api/inbox/?search=AS4-REUSED').set(bearer(buyer.key));
    expect(inbox.body.items.map((i: { invoice_id: string }) => i.invoice_id)).to.deep.equal(['AS4-REUSED-1']);
    // The first message, sent again, still gets its receipt.
    expect((await post(await buildAs4({ ...message, messageId: built.messageId }))).body.equals(first.body)).to.equal(
      true,
    );
  });

  it('refuses the same MessageId from another access point (EBMS:0003), storing nothing', async () => {
    const built = await buildAs4(send());
    expect(signal((await post(built)).body, built).kind).to.equal('receipt');
    // Another valid access point of the test PKI (our own certificate, as a sender) reuses the id.
    const other = await buildAs4(send({ messageId: built.messageId, from: sender(pki.instance(1)) }));
    const res = await post(other);
    const errors = errorsOf(signal(res.body, { messageId: built.messageId, references: [] }));
    expect(errors.map((e) => e.errorCode)).to.deep.equal(['EBMS:0003']);
    expect(errors[0]!.description).to.match(/already received from another access point/);
    expect(await recordsOf(built.messageId)).to.have.length(1);
  });

  it('refuses a tampered signature (EBMS:0101)', async () => {
    const built = await buildAs4(send());
    const tampered = tamperSoap(built, (xml) =>
      xml.replace(/<eb:ConversationId>([^<]*)</, (_m, id: string) => `<eb:ConversationId>${id}x<`),
    );
    const errors = await refused(tampered, built.messageId);
    expect(errors.map((e) => e.errorCode)).to.deep.equal(['EBMS:0101']);
    expect(errors[0]!.description).to.match(/signature does not verify/);
  });

  const whyRefused = {
    expired: /not accepted: expired on/,
    untrusted: /not accepted: not issued by a trusted Peppol CA/,
    revoked: /not accepted: revoked on \S+ \(CRL of Invoicing Test Access Point CA, reason keyCompromise\)/,
  };
  for (const which of ['expired', 'untrusted', 'revoked'] as const) {
    it(`refuses a message signed with the ${which} certificate (EBMS:0101)`, async () => {
      const built = await buildAs4(send({ from: sender(pki[which]) }));
      const errors = await refused(built, built.messageId);
      expect(errors.map((e) => e.errorCode)).to.deep.equal(['EBMS:0101']);
      expect(errors[0]!.description).to.match(whyRefused[which]);
    });
  }

  it('refuses a signer whose CN is not the From party (EBMS:0003)', async () => {
    const built = await buildAs4(send({ from: { ...sender(), seatId: 'POP000777' } }));
    const errors = await refused(built, built.messageId);
    expect(errors.map((e) => e.errorCode)).to.deep.equal(['EBMS:0003']);
  });

  it('refuses a payload that is not gzip (EBMS:0303)', async () => {
    const message = send();
    const built = buildAs4WithCompressed(message, Buffer.from('this is not gzip at all'));
    const errors = await refused(built, null);
    expect(errors.map((e) => e.errorCode)).to.deep.equal(['EBMS:0303']);
  });

  it('refuses a receiver that is not a participant here, a document type we do not receive, another AP: EBMS:0004 PEPPOL:NOT_SERVICED', async () => {
    const cases: As4Send[] = [
      send({ sbdh: invoiceSbdh(SELLER_ID, '0208:0202239951') }),
      send({
        sbdh: invoiceSbdh(SELLER_ID, BUYER_ID, {
          documentType: {
            scheme: DOCUMENT_ID_SCHEME,
            value: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:other:customization::2.1',
          },
        }),
      }),
      send({ toSeatId: 'POP000003' }),
    ];
    for (const c of cases) {
      const built = await buildAs4(c);
      const errors = await refused(built, built.messageId);
      expect(errors.map((e) => [e.errorCode, e.errorDetail])).to.deep.equal([['EBMS:0004', PEPPOL_NOT_SERVICED]]);
    }
  });

  it('refuses a business document that is not UBL it can read (EBMS:0004), storing nothing', async () => {
    // A consistent SBDH around a document of another standard: AS4 and the envelope are fine, the UBL reader is not.
    const sbdh = invoiceSbdh(SELLER_ID, BUYER_ID);
    sbdh.document = { ...sbdh.document, standard: 'urn:example:not-ubl', type: 'Order' };
    const built = await buildAs4(
      send({ sbdh, businessDocument: '<Order xmlns="urn:example:not-ubl"><ID>1</ID></Order>' }),
    );
    const errors = await refused(built, built.messageId);
    expect(errors.map((e) => e.errorCode)).to.deep.equal(['EBMS:0004']);
    expect(errors[0]!.errorDetail).to.equal(null);
    expect(errors[0]!.description).to.match(/business document cannot be read/);
  });

  it('refuses an oversized body unread (EBMS:0010), by its Content-Length and while streaming', async () => {
    const big = { contentType: 'multipart/related; boundary="x"', body: Buffer.alloc(MAX_MESSAGE_BYTES + 1, 0x41) };
    const errors = await refused(big, null);
    expect(errors.map((e) => e.errorCode)).to.deep.equal(['EBMS:0010']);
    expect(errors[0]!.description).to.match(/larger than the 524288 bytes/);
    // Chunked (no Content-Length): refused once the limit is passed.
    const server = t.service.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as { port: number };
      const chunk = Buffer.alloc(64 * 1024, 0x42);
      const stream = new ReadableStream({
        start(controller) {
          for (let i = 0; i < 10; i++) controller.enqueue(chunk);
          controller.close();
        },
      });
      const res = await fetch(`http://127.0.0.1:${port}/as4`, {
        method: 'POST',
        headers: { 'Content-Type': 'multipart/related; boundary="x"' },
        body: stream,
        duplex: 'half',
      } as RequestInit);
      expect(res.status).to.equal(200);
      const chunked = errorsOf(signal(Buffer.from(await res.arrayBuffer()), { messageId: 'none', references: [] }));
      expect(chunked.map((e) => e.errorCode)).to.deep.equal(['EBMS:0010']);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('answers garbage with a signed ebMS error, never a 500: not MIME, wrong type, empty, DOCTYPE, entities', async () => {
    const bodies: [string, string, string][] = [
      ['text/plain', 'hello', 'EBMS:0007'],
      ['application/json', '{"a":1}', 'EBMS:0007'],
      ['multipart/related; boundary="b"', '', 'EBMS:0007'],
      ['', '', 'EBMS:0007'],
      ['multipart/related', '--b\r\n\r\n--b--', 'EBMS:0007'],
      ['application/soap+xml', '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e "boom">]><x>&e;</x>', 'EBMS:0009'],
      ['application/soap+xml', '<not-closed', 'EBMS:0009'],
      [
        'application/soap+xml',
        '<S:Envelope xmlns:S="http://www.w3.org/2003/05/soap-envelope"><S:Header/><S:Body/></S:Envelope>',
        'EBMS:0009',
      ],
    ];
    for (const [contentType, body, code] of bodies) {
      const errors = await refused({ contentType, body: Buffer.from(body) }, null);
      expect(
        errors.map((e) => e.errorCode),
        `${contentType} ${body}`,
      ).to.deep.equal([code]);
    }
  });

  it('records an Invoice Response received over AS4 on the invoice it answers (ResponseReceived)', async () => {
    // Our seller sends an invoice to the buyer (a tenant here, so it is delivered and SENT).
    const seller = await createTenant(t, adminKey, 'the-seller', { peppol_ids: [SELLER_ID] });
    await registerPeppol(t, adminKey, seller.id, { peppol_id: SELLER_ID, company_name: 'Acme Solutions BV' });
    const created = await t.http
      .post('/api/documents/')
      .set(bearer(seller.key))
      .send({ ...invoiceBody(), invoice_id: 'AS4-ANSWERED' });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    expect((await t.http.post(`/api/documents/${created.body.id}/send`).set(bearer(seller.key))).status).to.equal(200);
    await waitForState(t, seller.key, created.body.id, ['SENT']);
    await t.service.projections.catchUp(10_000);

    // The buyer's access point (POP000002 here) answers with a rejection over AS4.
    const response = writeInvoiceResponse({
      id: randomUUID(),
      issueDate: '2026-03-02',
      code: 'RE',
      reason: 'Wrong order number',
      invoice: {
        invoice_id: 'AS4-ANSWERED',
        invoice_date: created.body.invoice_date,
        document_type: created.body.document_type,
        customer_name: created.body.customer_name,
        vendor_name: created.body.vendor_name,
      },
      buyerPeppolId: BUYER_ID,
      sellerPeppolId: SELLER_ID,
    });
    const sbdh = invoiceSbdh(BUYER_ID, SELLER_ID, {
      documentType: { scheme: DOCUMENT_ID_SCHEME, value: INVOICE_RESPONSE_DOCUMENT_TYPE },
      process: { scheme: PROCESS_ID_SCHEME, value: INVOICE_RESPONSE_PROCESS },
    });
    sbdh.document = {
      ...sbdh.document,
      standard: 'urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2',
      type: 'ApplicationResponse',
    };
    const built = await buildAs4(send({ sbdh, businessDocument: response }));
    const res = await post(built);
    expect(signal(res.body, built).kind).to.equal('receipt');
    expect((await recordsOf(built.messageId))[0]!.data).to.include({
      kind: 'invoice-response',
      document_id: created.body.id,
      tenant_id: seller.id,
    });
    const answered = await eventually(async () => {
      const r = await t.http.get(`/api/documents/${created.body.id}`).set(bearer(seller.key));
      return r.body.invoice_response?.status === 'rejected' && r.body;
    }, 'the rejection on the outbound document');
    expect(answered.invoice_response).to.include({ code: 'RE', reason: 'Wrong order number' });
    const history = await t.http.get(`/api/documents/${created.body.id}/history`).set(bearer(seller.key));
    const recorded = history.body.events.find((e: { type: string }) => e.type === 'ResponseReceived');
    expect(recorded.actor).to.match(/^access point P[A-Z]{2}\d{6}$/);

    // An Invoice Response for an invoice we never sent is acknowledged (it was delivered) and recorded nowhere.
    const stray = await buildAs4(
      send({
        sbdh,
        businessDocument: response.replace('<cbc:ID>AS4-ANSWERED</cbc:ID>', '<cbc:ID>NEVER-SENT</cbc:ID>'),
      }),
    );
    expect(signal((await post(stray)).body, stray).kind).to.equal('receipt');
    expect((await recordsOf(stray.messageId))[0]!.data).to.include({ document_id: null });
  });
});

describe('AS4 receiving without AS4_CRL_FILES', function () {
  this.timeout(120_000);
  let pki: TestPki;
  let t: TestService;

  before(async () => {
    pki = await makeTestPki({ instances: 1 });
    t = await startTestService({ peppol: accessPointSettings(pki, 1) });
  });
  after(async () => {
    await t?.stop();
    await pki?.dispose();
  });

  it('accepts the revoked access point: only the CRL refuses it', async () => {
    const { adminKey } = await createOrganization(t);
    const buyer = await createTenant(t, adminKey, 'the-buyer', { peppol_ids: [BUYER_ID] });
    await registerPeppol(t, adminKey, buyer.id, { peppol_id: BUYER_ID, company_name: 'Brouwerij De Zwaan NV' });
    const writer = await createTenant(t, adminKey);
    const doc = await t.http.post('/api/documents/').set(bearer(writer.key)).send(invoiceBody());
    expect(doc.status, JSON.stringify(doc.body)).to.equal(200);
    const ubl = (await t.http.get(`/api/documents/${doc.body.id}/ubl?format=xml`).set(bearer(writer.key))).text;
    const ourCertificate = new X509Certificate(readFileSync(pki.instance(1).certificateFile));

    const built = await buildAs4({
      sbdh: invoiceSbdh(SELLER_ID, BUYER_ID),
      businessDocument: ubl,
      from: { ...signingKeyOf(pki.revoked), seatId: pki.revoked.seatId },
      toSeatId: OUR_SEAT,
      receiverCertificate: ourCertificate,
    });
    const res = await postAs4(t, built);
    expect(res.status).to.equal(200);
    const outcome = readSignalResponse(res.body, {
      messageId: built.messageId,
      references: built.references,
      receiver: ourCertificate,
    });
    expect(outcome.kind, JSON.stringify(outcome)).to.equal('receipt');
    const records = await t.service.eventStore.readStream(as4MessageStream(built.messageId));
    const received = records.filter((e) => e.type === 'As4MessageReceived');
    expect(received).to.have.length(1);
    expect(received[0]!.data).to.include({ sender_ap: 'POP999997', tenant_id: buyer.id });
  });
});

describe('AS4 receiving without an AS4 key', function () {
  let t: TestService;
  before(async () => {
    t = await startTestService();
  });
  after(async () => t?.stop());

  it('has no endpoint: 404 in the API error format', async () => {
    const res = await supertest(t.service.app).post('/as4').set('Content-Type', 'application/soap+xml').send('<x/>');
    expect(res.status).to.equal(404);
    expect(res.body).to.deep.equal({ detail: 'AS4 is not configured on this access point' });
  });
});
