import { expect } from 'chai';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import {
  bearer,
  createOrganization,
  createTenant,
  publicClient,
  eventually,
  startTestService,
  waitForState,
  type TestService,
} from '../support/service.js';
import { startSmtpServer, type TestSmtp } from '../support/smtp.js';
import { realisticDocuments } from '../domain/document/fixtures/realisticDocuments.js';
import { CONFIG } from '../../src/infrastructure/config.js';
import type { Config } from '../../src/infrastructure/config.js';
import { RETRY_DELAYS_MINUTES } from '../../src/domain/document/lifecycle/deliverySchedule.js';

const invoice = () => structuredClone(realisticDocuments()[0]!.body) as Record<string, unknown>;
/** The fixture's buyer (BE0451234595) as a Peppol participant. */
const BUYER_ID = '0208:0451234595';
/** The fixture's seller (BE0403013026): senders (live or in test mode) send as their own Peppol identifier. */
const SELLER_ID = '0208:0403013026';
/** One schedule minute lasts this many ms here: the whole schedule takes under 5 s. */
const UNIT_MS = 5;

describe('Sending: test-mode e-mail, internal Peppol delivery, retries, inbox responses (real app, PostgreSQL, SMTP)', function () {
  let t: TestService;
  let smtp: TestSmtp;
  let adminKey: string;
  /** The tenant registered on Peppol as the fixture buyer: live documents to that buyer go to its inbox. */
  let buyer: { id: string; key: string };

  before(async () => {
    smtp = await startSmtpServer();
    t = await startTestService({ smtpUrl: smtp.url, mailFrom: 'Invoicing <no-reply@invoicing.test>' }, undefined, {
      deliveryRetryUnitMs: UNIT_MS,
    });
    adminKey = (await createOrganization(t)).adminKey;
    const res = await t.http
      .post('/api/admin/tenants')
      .set(bearer(adminKey))
      .send({ name: 'the-buyer', peppol_ids: [BUYER_ID] });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const key = await t.http
      .post(`/api/admin/tenants/${res.body.id}/api-keys`)
      .set(bearer(adminKey))
      .send({ name: 'app' });
    buyer = { id: res.body.id, key: key.body.key };
    const registered = await t.http
      .post(`/api/admin/tenants/${buyer.id}/peppol/register`)
      .set(bearer(adminKey))
      .send({ peppol_id: BUYER_ID, company_name: 'Brouwerij De Zwaan NV' });
    expect(registered.status, JSON.stringify(registered.body)).to.equal(200);
  });
  after(async () => {
    await t?.stop();
    await smtp?.stop();
  });

  const setTestMode = async (tenantId: string, email: string | null) => {
    const res = await t.http
      .put(`/api/operator/tenants/${tenantId}/test-mode`)
      .set(bearer(t.operatorKey))
      .send({ test_mode: true, email });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
  };
  const createDocument = async (key: string, body: Record<string, unknown> = invoice()) => {
    const res = await t.http.post('/api/documents/').set(bearer(key)).send(body);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body as { id: string; state: string };
  };
  const report = async (key: string, id: string) => {
    const res = await t.http.get(`/api/documents/${id}/transmission-report`).set(bearer(key));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body;
  };
  /** The document's own events: "records nothing" is checked per stream (other deliveries run meanwhile). */
  const eventCount = async (key: string, id: string) =>
    (await t.http.get(`/api/documents/${id}/history`).set(bearer(key))).body.events.length as number;

  describe('test mode', () => {
    it('e-mails the UBL as an attachment to the configured address: DRAFT → TRANSIT → SENT', async () => {
      const seller = await createTenant(t, adminKey, undefined, { peppol_ids: [SELLER_ID] });
      await setTestMode(seller.id, 'inbox@seller.test');
      const doc = await createDocument(seller.key);
      const ubl = (await t.http.get(`/api/documents/${doc.id}/ubl?format=xml`).set(bearer(seller.key))).text;

      const sent = await t.http.post(`/api/documents/${doc.id}/send`).set(bearer(seller.key));
      expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
      expect(sent.body).to.include({ id: doc.id, state: 'TRANSIT' });

      await waitForState(t, seller.key, doc.id, ['SENT']);
      const mail = await eventually(
        async () => smtp.messages.find((m) => m.headers.get('x-document-id') === doc.id),
        'the test-mode mail',
      );
      expect(mail.to && !Array.isArray(mail.to) ? mail.to.text : '').to.equal('inbox@seller.test');
      expect(mail.subject).to.contain('[TEST MODE]').and.contain('ACME-2025-0001');
      expect(mail.attachments).to.have.length(1);
      expect(mail.attachments[0]!.contentType).to.equal('application/xml');
      expect(mail.attachments[0]!.filename).to.equal('ACME-2025-0001.xml');
      expect(mail.attachments[0]!.content.toString('utf8')).to.equal(ubl);

      const r = await report(seller.key, doc.id);
      expect(r).to.include({ state: 'SENT', attempts_total: 1 });
      expect(r.deliveries[0]).to.include({ transport: 'email', email: 'inbox@seller.test', status: 'sent' });
      expect(r.deliveries[0].attempts[0]).to.include({
        attempt: 1,
        retry: 0,
        outcome: 'delivered',
        receiver: 'inbox@seller.test',
        error: null,
      });
      expect(mail.messageId).to.equal(`<${r.deliveries[0].message_id}>`);
    });

    it('mails the UBL with every attachment the document has when it is sent, embedded, and the UBL validates', async () => {
      const seller = await createTenant(t, adminKey, undefined, { peppol_ids: [SELLER_ID] });
      await setTestMode(seller.id, 'inbox@seller.test');
      const doc = await createDocument(seller.key);
      const note = Buffer.from('%PDF-1.4 signed delivery note');
      const kept = await t.http
        .post(`/api/documents/${doc.id}/attachments`)
        .set(bearer(seller.key))
        .attach('file', note, { filename: 'delivery-note.pdf', contentType: 'application/pdf' });
      expect(kept.status, JSON.stringify(kept.body)).to.equal(200);
      const dropped = await t.http
        .post(`/api/documents/${doc.id}/attachments`)
        .set(bearer(seller.key))
        .attach('file', Buffer.from('\x89PNG'), 'first-draft.png');
      expect(dropped.status, JSON.stringify(dropped.body)).to.equal(200);
      expect(
        (await t.http.delete(`/api/documents/${doc.id}/attachments/${dropped.body.id}`).set(bearer(seller.key))).status,
      ).to.equal(200);

      expect((await t.http.post(`/api/documents/${doc.id}/send`).set(bearer(seller.key))).status).to.equal(200);
      await waitForState(t, seller.key, doc.id, ['SENT']);
      const mail = await eventually(
        async () => smtp.messages.find((m) => m.headers.get('x-document-id') === doc.id),
        'the test-mode mail',
      );
      expect(mail.attachments).to.have.length(1);
      const xml = mail.attachments[0]!.content.toString('utf8');
      expect(xml).to.contain(`<cbc:ID>${kept.body.id}</cbc:ID>`);
      expect(xml).to.contain(
        `<cbc:EmbeddedDocumentBinaryObject mimeCode="application/pdf" filename="delivery-note.pdf">${note.toString('base64')}</cbc:EmbeddedDocumentBinaryObject>`,
      );
      expect(xml).to.not.contain('first-draft.png');
      expect(xml).to.equal((await t.http.get(`/api/documents/${doc.id}/ubl?format=xml`).set(bearer(seller.key))).text);
      // The UBL that travelled passes the XSD and every EN 16931 and Peppol rule.
      const validation = await t.http
        .post('/api/validate/ubl')
        .set(bearer(seller.key))
        .set('Content-Type', 'application/xml')
        .send(xml);
      expect(validation.body.issues.filter((i: { flag: string }) => i.flag === 'fatal')).to.deep.equal([]);
      expect(validation.body.is_valid).to.equal(true);
      // Once it has left, its attachments are what was sent.
      const late = await t.http
        .post(`/api/documents/${doc.id}/attachments`)
        .set(bearer(seller.key))
        .attach('file', note, 'late.pdf');
      expect(late.status).to.equal(409);
    });

    it("sends to the client's email parameter instead, through the public e-invoice-api client", async () => {
      const seller = await createTenant(t, adminKey, undefined, { peppol_ids: [SELLER_ID] });
      await setTestMode(seller.id, 'inbox@seller.test');
      const doc = await createDocument(seller.key);
      const { client, close } = await publicClient(t, seller.key);
      try {
        const sent = await client.documents.send(doc.id, { email: 'accounting@customer.test' });
        expect(sent.state).to.equal('TRANSIT');
      } finally {
        await close();
      }
      await waitForState(t, seller.key, doc.id, ['SENT']);
      const mail = await eventually(
        async () => smtp.messages.find((m) => m.headers.get('x-document-id') === doc.id),
        'the mail',
      );
      expect(mail.to && !Array.isArray(mail.to) ? mail.to.text : '').to.equal('accounting@customer.test');
    });

    it('a permanent SMTP refusal (550) fails the document at once with the reason', async () => {
      const seller = await createTenant(t, adminKey, undefined, { peppol_ids: [SELLER_ID] });
      await setTestMode(seller.id, 'nobody@bounce.test');
      const doc = await createDocument(seller.key);
      expect((await t.http.post(`/api/documents/${doc.id}/send`).set(bearer(seller.key))).status).to.equal(200);
      await waitForState(t, seller.key, doc.id, ['FAILED']);
      const r = await report(seller.key, doc.id);
      expect(r.attempts_total).to.equal(1);
      expect(r.deliveries[0].attempts[0].outcome).to.equal('permanent');
      expect(r.deliveries[0].failure_reason).to.match(/SMTP: .*550/);
    });

    it('writes an .eml file under the data dir when no SMTP server is configured', async () => {
      const local = await startTestService();
      try {
        const org = await createOrganization(local);
        const seller = await createTenant(local, org.adminKey, undefined, { peppol_ids: [SELLER_ID] });
        const res = await local.http
          .put(`/api/operator/tenants/${seller.id}/test-mode`)
          .set(bearer(local.operatorKey))
          .send({ test_mode: true, email: 'inbox@seller.test' });
        expect(res.status).to.equal(200);
        const doc = (await local.http.post('/api/documents/').set(bearer(seller.key)).send(invoice())).body;
        expect((await local.http.post(`/api/documents/${doc.id}/send`).set(bearer(seller.key))).status).to.equal(200);
        await waitForState(local, seller.key, doc.id, ['SENT']);
        const dir = path.join(local.service.resolve<Config>(CONFIG).dataDir, 'mail');
        const files = (await readdir(dir)).filter((f) => f.endsWith('.eml'));
        expect(files).to.have.length(1);
        const mail = await simpleParser(await readFile(path.join(dir, files[0]!)));
        expect(mail.headers.get('x-document-id')).to.equal(doc.id);
        expect(mail.attachments[0]!.content.toString('utf8')).to.contain('<cbc:ID>ACME-2025-0001</cbc:ID>');
      } finally {
        await local.stop();
      }
    });

    it('refuses an email parameter or test-mode address that is not one plain e-mail address (422), changing nothing', async () => {
      const seller = await createTenant(t, adminKey, undefined, { peppol_ids: [SELLER_ID] });
      await setTestMode(seller.id, 'inbox@seller.test');
      const doc = await createDocument(seller.key);
      const rule = 'one e-mail address such as name@example.com (no display name, no list)';
      const injections = [
        'a@seller.test\r\nBcc: victim@evil.test',
        'a@seller.test\nBcc: victim@evil.test',
        'a@seller.test,victim@evil.test',
        'a@seller.test;victim@evil.test',
        'a@seller.test victim@evil.test',
        'Accounting <victim@evil.test>',
        '<victim@evil.test>',
        '"a,b"@seller.test',
        'not-an-address',
        '',
      ];
      for (const email of injections) {
        const res = await t.http.post(`/api/documents/${doc.id}/send`).query({ email }).set(bearer(seller.key));
        expect(res.status, JSON.stringify(email)).to.equal(422);
        expect(res.body.detail).to.deep.equal([
          { loc: ['query', 'email'], msg: `Input should be ${rule}`, type: 'value_error' },
        ]);
      }
      const twice = await t.http
        .post(`/api/documents/${doc.id}/send?email=a@seller.test&email=victim@evil.test`)
        .set(bearer(seller.key));
      expect(twice.status).to.equal(422);
      expect(twice.body.detail[0].loc).to.deep.equal(['query', 'email']);
      expect(await eventCount(seller.key, doc.id)).to.equal(1);

      for (const email of injections) {
        const res = await t.http
          .put(`/api/operator/tenants/${seller.id}/test-mode`)
          .set(bearer(t.operatorKey))
          .send({ test_mode: true, email });
        expect(res.status, JSON.stringify(email)).to.equal(422);
        expect(res.body.detail).to.deep.equal([
          { loc: ['body', 'email'], msg: `Input should be ${rule}`, type: 'value_error' },
        ]);
      }
      expect(
        (await t.http.get(`/api/operator/tenants/${seller.id}`).set(bearer(t.operatorKey))).body.test_mode_email,
      ).to.equal('inbox@seller.test');

      // An address recorded before addresses were checked is refused when it would be used.
      await t.service.eventStore.append(
        `tenant-${seller.id}`,
        [
          {
            type: 'TenantTestModeChanged',
            data: {
              tenant_id: seller.id,
              test_mode: true,
              test_mode_email: 'inbox@seller.test, victim@evil.test',
              changed_at: new Date().toISOString(),
            },
          },
        ],
        'any',
      );
      const legacy = await t.http.post(`/api/documents/${doc.id}/send`).set(bearer(seller.key));
      expect(legacy.status).to.equal(422);
      expect(legacy.body.detail[0]).to.deep.include({
        loc: ['query', 'email'],
        msg: `The test-mode address configured for this account is not ${rule}: ask the operator to set another one, or pass email`,
      });
      expect(await eventCount(seller.key, doc.id)).to.equal(1);

      // A plain address goes through, to that one recipient only.
      expect(
        (
          await t.http
            .post(`/api/documents/${doc.id}/send`)
            .query({ email: "o'brien+invoices@customer.test" })
            .set(bearer(seller.key))
        ).status,
      ).to.equal(200);
      await waitForState(t, seller.key, doc.id, ['SENT']);
      const mail = await eventually(
        async () => smtp.messages.find((m) => m.headers.get('x-document-id') === doc.id),
        'the mail',
      );
      const to = mail.to && !Array.isArray(mail.to) ? mail.to.value : [];
      expect(to.map((a) => a.address)).to.deep.equal(["o'brien+invoices@customer.test"]);
      expect(mail.bcc).to.equal(undefined);
    });

    it('refuses to send in test mode without an address, and e-mail outside test mode, recording nothing', async () => {
      const seller = await createTenant(t, adminKey, undefined, { peppol_ids: [SELLER_ID] });
      // Test mode is not switched on without an address now; a tenant recorded so before is refused at send.
      await t.service.eventStore.append(
        `tenant-${seller.id}`,
        [
          {
            type: 'TenantTestModeChanged',
            data: {
              tenant_id: seller.id,
              test_mode: true,
              test_mode_email: null,
              changed_at: new Date().toISOString(),
            },
          },
        ],
        'any',
      );
      const doc = await createDocument(seller.key);
      const live = await createTenant(t, adminKey, undefined, { peppol_ids: [SELLER_ID] });
      const liveDoc = await createDocument(live.key);
      const res = await t.http.post(`/api/documents/${doc.id}/send`).set(bearer(seller.key));
      expect(res.status).to.equal(422);
      expect(res.body.detail[0].loc).to.deep.equal(['query', 'email']);

      const refused = await t.http.post(`/api/documents/${liveDoc.id}/send?email=x@y.test`).set(bearer(live.key));
      expect(refused.status).to.equal(422);
      expect(refused.body.detail[0].msg).to.match(/only available in test mode/);
      expect(await eventCount(seller.key, doc.id)).to.equal(1);
      expect(await eventCount(live.key, liveDoc.id)).to.equal(1);
    });
  });

  describe('Peppol', () => {
    it('delivers to a tenant of this instance: the document lands in its inbox as RECEIVED', async () => {
      const seller = await createTenant(t, adminKey, undefined, { peppol_ids: [SELLER_ID] });
      const doc = await createDocument(seller.key, { ...invoice(), invoice_id: 'INTERNAL-1' });
      const sent = await t.http.post(`/api/documents/${doc.id}/send`).set(bearer(seller.key));
      expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
      expect(sent.body.state).to.equal('TRANSIT');
      await waitForState(t, seller.key, doc.id, ['SENT']);

      const inbox = await t.http.get('/api/inbox/?search=INTERNAL-1').set(bearer(buyer.key));
      expect(inbox.body.total).to.equal(1);
      const received = inbox.body.items[0];
      expect(received).to.include({
        direction: 'INBOUND',
        state: 'RECEIVED',
        invoice_id: 'INTERNAL-1',
        invoice_total: '3384.98',
        vendor_name: 'Acme Solutions BV',
      });
      expect(received.id).to.not.equal(doc.id);
      expect((await t.http.get('/api/inbox/invoices?search=INTERNAL-1').set(bearer(buyer.key))).body.total).to.equal(1);
      expect(
        (await t.http.get('/api/inbox/credit-notes?search=INTERNAL-1').set(bearer(buyer.key))).body.total,
      ).to.equal(0);
      const one = await t.http.get(`/api/inbox/${received.id}`).set(bearer(buyer.key));
      expect(one.status).to.equal(200);
      expect(one.body.invoice_response).to.equal(null);
      // The seller cannot see the buyer's copy, and the buyer's copy is not in the seller's inbox.
      expect((await t.http.get(`/api/inbox/${received.id}`).set(bearer(seller.key))).status).to.equal(404);
      expect((await t.http.get(`/api/inbox/${doc.id}`).set(bearer(seller.key))).status).to.equal(404);

      const r = await report(seller.key, doc.id);
      expect(r.deliveries[0]).to.include({ transport: 'peppol', receiver_peppol_id: BUYER_ID, status: 'sent' });
      const inboundReport = await report(buyer.key, received.id);
      expect(inboundReport.received).to.include({ message_id: r.deliveries[0].message_id });
    });

    it('delivers the attachments added after creation inside the UBL: the receiver has them', async () => {
      const seller = await createTenant(t, adminKey, undefined, { peppol_ids: [SELLER_ID] });
      const doc = await createDocument(seller.key, { ...invoice(), invoice_id: 'INTERNAL-ATTACHED' });
      const hours = Buffer.from('day;hours\n2025-03-01;8\n');
      const added = await t.http
        .post(`/api/documents/${doc.id}/attachments`)
        .set(bearer(seller.key))
        .attach('file', hours, { filename: 'hours.csv', contentType: 'text/csv' });
      expect(added.status, JSON.stringify(added.body)).to.equal(200);
      expect((await t.http.post(`/api/documents/${doc.id}/send`).set(bearer(seller.key))).status).to.equal(200);
      await waitForState(t, seller.key, doc.id, ['SENT']);

      const received = (await t.http.get('/api/inbox/?search=INTERNAL-ATTACHED').set(bearer(buyer.key))).body.items[0];
      const inbound = await t.http.get(`/api/inbox/${received.id}`).set(bearer(buyer.key));
      expect(inbound.body.attachments).to.have.length(1);
      expect(inbound.body.attachments[0]).to.include({
        file_name: 'hours.csv',
        file_type: 'text/csv',
        file_size: hours.length,
      });
      const content = await t.http
        .get(`/api/documents/${received.id}/attachments/${inbound.body.attachments[0].id}?download=true`)
        .set(bearer(buyer.key))
        .buffer(true);
      expect(content.text).to.equal(hours.toString('utf8'));
      const inboundUbl = (await t.http.get(`/api/documents/${received.id}/ubl?format=xml`).set(bearer(buyer.key))).text;
      expect(inboundUbl).to.contain(
        `<cbc:EmbeddedDocumentBinaryObject mimeCode="text/csv" filename="hours.csv">${hours.toString('base64')}</cbc:EmbeddedDocumentBinaryObject>`,
      );
    });

    it('accept and reject reach the sender as an Invoice Response; answering twice is a 409', async () => {
      const seller = await createTenant(t, adminKey, undefined, { peppol_ids: [SELLER_ID] });
      const first = await createDocument(seller.key, { ...invoice(), invoice_id: 'ANSWER-1' });
      const second = await createDocument(seller.key, { ...invoice(), invoice_id: 'ANSWER-2' });
      for (const d of [first, second])
        expect((await t.http.post(`/api/documents/${d.id}/send`).set(bearer(seller.key))).status).to.equal(200);
      await waitForState(t, seller.key, first.id, ['SENT']);
      await waitForState(t, seller.key, second.id, ['SENT']);
      const items = (
        await t.http.get('/api/inbox/?search=ANSWER-&sort_by=invoice_id&sort_order=asc').set(bearer(buyer.key))
      ).body.items;
      expect(items).to.have.length(2);
      const [inFirst, inSecond] = items as Array<{ id: string }>;

      const accepted = await t.http.post(`/api/inbox/${inFirst!.id}/accept`).set(bearer(buyer.key)).send({});
      expect(accepted.status, JSON.stringify(accepted.body)).to.equal(200);
      expect(accepted.body.state).to.equal('RECEIVED');
      expect(accepted.body.invoice_response).to.include({ status: 'accepted', code: 'AP' });
      expect((await t.http.post(`/api/inbox/${inFirst!.id}/accept`).set(bearer(buyer.key)).send({})).status).to.equal(
        409,
      );
      expect(
        (await t.http.post(`/api/inbox/${inFirst!.id}/reject`).set(bearer(buyer.key)).send({ reason: 'x' })).status,
      ).to.equal(409);

      const noReason = await t.http.post(`/api/inbox/${inSecond!.id}/reject`).set(bearer(buyer.key)).send({});
      expect(noReason.status).to.equal(422);
      expect(noReason.body.detail[0].loc).to.deep.equal(['body', 'reason']);
      const rejected = await t.http
        .post(`/api/inbox/${inSecond!.id}/reject`)
        .set(bearer(buyer.key))
        .send({ reason: 'Unknown purchase order' });
      expect(rejected.status).to.equal(200);
      expect(rejected.body.invoice_response).to.include({
        status: 'rejected',
        code: 'RE',
        reason: 'Unknown purchase order',
      });

      // The seller sees the buyer's answers on its outbound documents.
      await eventually(async () => {
        const res = await t.http.get(`/api/documents/${first.id}`).set(bearer(seller.key));
        return res.body.invoice_response?.status === 'accepted' && res.body;
      }, 'the acceptance on the sender side');
      const secondSide = await eventually(async () => {
        const res = await t.http.get(`/api/documents/${second.id}`).set(bearer(seller.key));
        return res.body.invoice_response?.status === 'rejected' && res.body;
      }, 'the rejection on the sender side');
      expect(secondSide.invoice_response).to.include({ code: 'RE', reason: 'Unknown purchase order' });
      const history = (await t.http.get(`/api/documents/${second.id}/history`).set(bearer(seller.key))).body;
      expect(history.events.map((e: { type: string }) => e.type)).to.deep.equal([
        'DocumentCreated',
        'SendRequested',
        'DeliveryAttempted',
        'DocumentSent',
        'ResponseReceived',
      ]);
      // An outbound document cannot be accepted; another tenant's inbox document is not found.
      expect((await t.http.post(`/api/inbox/${first.id}/accept`).set(bearer(seller.key)).send({})).status).to.equal(
        404,
      );
      expect((await t.http.post(`/api/inbox/${inFirst!.id}/accept`).set(bearer(seller.key)).send({})).status).to.equal(
        404,
      );
    });

    it('walks the whole retry schedule for an unknown receiver, then FAILED; a manual send starts afresh', async () => {
      const seller = await createTenant(t, adminKey, undefined, { peppol_ids: [SELLER_ID] });
      const body = { ...invoice(), customer_peppol_id: '0208:0202239951' };
      const doc = await createDocument(seller.key, body);
      expect((await t.http.post(`/api/documents/${doc.id}/send`).set(bearer(seller.key))).status).to.equal(200);
      await waitForState(t, seller.key, doc.id, ['FAILED'], 60_000);

      const r = await report(seller.key, doc.id);
      expect(r.state).to.equal('FAILED');
      expect(r.deliveries).to.have.length(1);
      const attempts = r.deliveries[0].attempts as Array<{
        attempt: number;
        retry: number;
        outcome: string;
        error: string;
        started_at: string;
        next_attempt_at: string | null;
        finished_at: string;
      }>;
      // The first attempt and ten retries.
      expect(attempts.map((a) => a.retry)).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      for (const a of attempts) {
        expect(a.outcome).to.equal('retryable');
        expect(a.error).to.equal('no Peppol route to 0208:0202239951');
      }
      // Each retry was scheduled the schedule's delay after the attempt before it, and ran no earlier.
      attempts.slice(0, -1).forEach((a, i) => {
        const planned = new Date(a.next_attempt_at!).getTime() - new Date(a.finished_at).getTime();
        expect(planned).to.equal(RETRY_DELAYS_MINUTES[i]! * UNIT_MS);
        expect(new Date(attempts[i + 1]!.started_at).getTime()).to.be.at.least(new Date(a.next_attempt_at!).getTime());
      });
      expect(attempts[10]!.next_attempt_at).to.equal(null);
      expect(r.deliveries[0].status).to.equal('failed');
      expect(r.deliveries[0].failure_reason).to.equal(
        'no success after 11 attempts; last error: no Peppol route to 0208:0202239951',
      );

      const again = await t.http.post(`/api/documents/${doc.id}/send`).set(bearer(seller.key));
      expect(again.status).to.equal(200);
      expect(again.body.state).to.equal('TRANSIT');
      const fresh = await eventually(async () => {
        const rr = await report(seller.key, doc.id);
        return rr.deliveries.length === 2 && rr.deliveries[1].attempts.length >= 1 && rr;
      }, 'the first attempt of the new delivery');
      expect(fresh.deliveries[1].delivery_id).to.not.equal(fresh.deliveries[0].delivery_id);
      expect(fresh.deliveries[1].attempts[0].attempt).to.equal(1);
    });

    it('refuses documents that cannot be sent, with clear statuses, and records nothing', async () => {
      const seller = await createTenant(t, adminKey, undefined, { peppol_ids: [SELLER_ID] });
      const other = await createTenant(t, adminKey, undefined, { peppol_ids: [SELLER_ID] });
      const doc = await createDocument(seller.key);
      const before = await eventCount(seller.key, doc.id);

      const halfOverride = await t.http
        .post(`/api/documents/${doc.id}/send?receiver_peppol_id=0451234595`)
        .set(bearer(seller.key));
      expect(halfOverride.status).to.equal(422);
      expect(halfOverride.body.detail[0].loc).to.deep.equal(['query', 'receiver_peppol_scheme']);
      const badScheme = await t.http
        .post(`/api/documents/${doc.id}/send?receiver_peppol_scheme=xx&receiver_peppol_id=1`)
        .set(bearer(seller.key));
      expect(badScheme.status).to.equal(422);
      expect(badScheme.body.detail[0].msg).to.match(/Unknown Peppol identifier scheme/);
      // A tenant sends as itself: never as another participant, and not without an identifier.
      const forged = await t.http
        .post(`/api/documents/${doc.id}/send?sender_peppol_scheme=0208&sender_peppol_id=0451234595`)
        .set(bearer(seller.key));
      expect(forged.status).to.equal(422);
      expect(forged.body.detail[0]).to.deep.include({ loc: ['query', 'sender_peppol_id'] });
      expect(forged.body.detail[0].msg).to.match(/not a Peppol identifier of this account/);
      const anonymous = await createTenant(t, adminKey);
      const anonymousDoc = await createDocument(anonymous.key);
      const noSender = await t.http.post(`/api/documents/${anonymousDoc.id}/send`).set(bearer(anonymous.key));
      expect(noSender.status).to.equal(422);
      expect(noSender.body.detail[0].loc).to.deep.equal(['document', 'AccountingSupplierParty', 'EndpointID']);
      expect(noSender.body.detail[0].msg).to.match(/holds no Peppol participant id.*administrator/);
      const badOverride = await t.http
        .post(`/api/documents/${doc.id}/send?receiver_peppol_scheme=0208&receiver_peppol_id=0451234590`)
        .set(bearer(seller.key));
      expect(badOverride.status).to.equal(422);
      expect(badOverride.body.detail[0].msg).to.match(/mod-97/);
      expect((await t.http.post(`/api/documents/${doc.id}/send`).set(bearer(other.key))).status).to.equal(404);
      expect(
        (await t.http.post('/api/documents/00000000-0000-0000-0000-000000000000/send').set(bearer(seller.key))).status,
      ).to.equal(404);
      expect(await eventCount(seller.key, doc.id)).to.equal(before);

      // With an override the same document goes; once in TRANSIT (or SENT) it cannot be sent again.
      const ok = await t.http
        .post(
          `/api/documents/${doc.id}/send?receiver_peppol_scheme=iso6523-actorid-upis&receiver_peppol_id=${BUYER_ID}`,
        )
        .set(bearer(seller.key));
      expect(ok.status, JSON.stringify(ok.body)).to.equal(200);
      const twice = await t.http.post(`/api/documents/${doc.id}/send`).set(bearer(seller.key));
      expect(twice.status).to.equal(409);
      expect(twice.body.detail).to.match(/(TRANSIT|SENT) document cannot be sent/);
      await waitForState(t, seller.key, doc.id, ['SENT']);
      expect((await t.http.delete(`/api/documents/${doc.id}`).set(bearer(seller.key))).status).to.equal(409);
    });
  });
});
