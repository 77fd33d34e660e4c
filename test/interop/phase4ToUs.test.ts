import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Server } from 'node:http';
import { expect } from 'chai';
import { describeWithPhase4, startPhase4SendService, type Phase4SendService } from '../support/phase4.js';
import { accessPointSettings, makeTestPki, repoRoot, type TestPki } from '../support/testPki.js';
import {
  bearer,
  createOrganization,
  createTenant,
  eventually,
  startTestService,
  type TestService,
} from '../support/service.js';
import { registerPeppol } from '../support/peppol.js';
import { as4MessageStream } from '../../src/application/documents/as4MessageRecord.js';
import { BIS_BILLING_INVOICE, BIS_BILLING_PROCESS } from '../../src/domain/peppol/smpDocuments.js';
import { writeSbdh } from '../../src/infrastructure/as4/sbdhXml.js';
import { invoiceSbdh } from '../support/as4Sender.js';

const SHARED = process.env.SHARED_DIR ?? path.resolve(repoRoot, '..', 'shared');
const INVOICE = path.join(SHARED, 'conformance', 'examples', 'peppol-bis-3.0.19', 'examples', 'base-example.xml');
/** base-example.xml's seller (its AccountingSupplierParty EndpointID): the participant that sends it. */
const SENDER = '0088:9482348239847239874';
const RECEIVER = '0208:0451234595';

/**
 * phase4 (the reference Peppol AS4 implementation) sends to our `POST /as4`: the service on a
 * loopback port with instance 1 of the test PKI, phase4 as instance 2. phase4 checks our signed
 * receipt against what it sent; the document must then be in the receiving tenant's inbox.
 */
describeWithPhase4(
  'phase4 → us: phase4 sends to our AS4 endpoint',
  function () {
    this.timeout(300_000);
    let pki: TestPki;
    let t: TestService;
    let server: Server;
    let endpoint: string;
    let sender: Phase4SendService;
    let receiver: { id: string; key: string };

    before(async () => {
      pki = await makeTestPki({ instances: 2 });
      [t, sender] = await Promise.all([
        startTestService({ peppol: accessPointSettings(pki, 1) }),
        startPhase4SendService(),
      ]);
      const { adminKey } = await createOrganization(t);
      receiver = await createTenant(t, adminKey, 'phase4-receiver', { peppol_ids: [RECEIVER] });
      await registerPeppol(t, adminKey, receiver.id, { peppol_id: RECEIVER, company_name: 'Brouwerij De Zwaan NV' });
      server = t.service.app.listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      endpoint = `http://127.0.0.1:${(server.address() as { port: number }).port}/as4`;
    });
    after(async () => {
      await sender?.stop();
      if (server) {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
      await t?.stop();
      await pki?.dispose();
    });

    const send = (to: string, from = SENDER) =>
      sender.send({
        ap: pki.instance(2),
        endpoint,
        receiverCertificateFile: pki.instance(1).certificateFile,
        payloadFile: INVOICE,
        from,
        to,
        doctype: BIS_BILLING_INVOICE,
        process: BIS_BILLING_PROCESS,
      });

    it('delivers an invoice: phase4 verifies our signed receipt, and the document is in the inbox', async () => {
      const report = await send(RECEIVER);
      expect(report, JSON.stringify(report)).to.include({
        ok: true,
        result: 'success',
        receipt: true,
        receiptCheck: 'verified',
        refToMessageId: report.messageId,
      });
      const records = await t.service.eventStore.readStream(as4MessageStream(report.messageId));
      expect(records.map((e) => e.type)).to.deep.equal(['As4MessageReceived']);
      expect(records[0]!.data).to.include({ sender_ap: 'POP000002', tenant_id: receiver.id, kind: 'document' });
      const inbox = await eventually(async () => {
        const res = await t.http.get('/api/inbox/').set(bearer(receiver.key));
        return res.body.total === 1 && res.body;
      }, 'the document in the inbox');
      expect(inbox.items[0]).to.include({ direction: 'INBOUND', state: 'RECEIVED', invoice_id: 'Snippet1' });
    });

    it('answers phase4 sending a MessageId again: the first receipt for the same SBDH, EBMS:0004 for another', async () => {
      const work = await mkdtemp(path.join(os.tmpdir(), 'phase4-reuse-'));
      try {
        const invoice = await readFile(INVOICE, 'utf8');
        // SBDH files, which the harness sends byte for byte: a resend carries the same payload.
        const sbdhFile = async (name: string, invoiceId: string) => {
          const file = path.join(work, `${name}.xml`);
          const document = invoice.replace(/<cbc:ID>[^<]*</, `<cbc:ID>${invoiceId}<`);
          await writeFile(file, writeSbdh(invoiceSbdh(SENDER, RECEIVER), document));
          return file;
        };
        const [first, other] = [await sbdhFile('first', 'REUSED-1'), await sbdhFile('other', 'REUSED-2')];
        const messageId = `${randomUUID()}@phase4-harness`;
        const sendFile = (payloadFile: string) =>
          sender.send({
            ap: pki.instance(2),
            endpoint,
            receiverCertificateFile: pki.instance(1).certificateFile,
            payloadFile,
            messageId,
          });
        const sent = await sendFile(first);
        expect(sent, JSON.stringify(sent)).to.include({ ok: true, result: 'success', receiptCheck: 'verified' });
        const again = await sendFile(first);
        // The receipt stored for the first send, byte for byte. phase4 built this send anew (new
        // ebMS header ids and timestamp, a new attachment Content-ID), so its check of the receipt's
        // references against this send fails, though the payload is the one acknowledged.
        expect(again, JSON.stringify(again)).to.include({
          result: 'success',
          receipt: true,
          receiptCheck: 'failed',
          refToMessageId: messageId,
          signalMessageId: sent.signalMessageId,
        });
        const refused = await sendFile(other);
        expect(refused, JSON.stringify(refused)).to.include({
          ok: false,
          result: 'as4-error-msg-received',
          refToMessageId: messageId,
        });
        expect(refused.errors!.map((e) => e.code)).to.deep.equal(['EBMS:0004']);
        expect(refused.errors![0]!.description).to.match(
          new RegExp(`^MessageId ${messageId} was already used for a message with other content, received `),
        );
        const records = await t.service.eventStore.readStream(as4MessageStream(messageId));
        expect(records.map((e) => e.type)).to.deep.equal(['As4MessageReceived']);
      } finally {
        await rm(work, { recursive: true, force: true });
      }
    });

    it('refuses an invoice sent as another participant than its seller: phase4 reads our EBMS:0004 with the reason, and nothing is stored', async () => {
      const before = (await t.http.get('/api/inbox/').set(bearer(receiver.key))).body.total as number;
      // phase4 puts --from in the SBDH and in originalSender alike; the invoice's seller is someone else.
      const report = await send(RECEIVER, '0088:5790000435951');
      expect(report).to.include({ ok: false, result: 'as4-error-msg-received', refToMessageId: report.messageId });
      expect(report.errors!.map((e) => [e.code, e.detail])).to.deep.equal([
        [
          'EBMS:0004',
          `the business document's issuer ${SENDER} (Invoice/AccountingSupplierParty/Party/EndpointID) is not the SBDH sender 0088:5790000435951`,
        ],
      ]);
      expect(await t.service.eventStore.readStream(as4MessageStream(report.messageId))).to.deep.equal([]);
      expect((await t.http.get('/api/inbox/').set(bearer(receiver.key))).body.total).to.equal(before);
    });

    it('refuses a receiver that is not registered here: phase4 reads our EBMS:0004 PEPPOL:NOT_SERVICED', async () => {
      const report = await send('0208:0202239951');
      expect(report).to.include({ ok: false, result: 'as4-error-msg-received', refToMessageId: report.messageId });
      expect(report.errors!.map((e) => [e.code, e.detail])).to.deep.equal([['EBMS:0004', 'PEPPOL:NOT_SERVICED']]);
      expect(await t.service.eventStore.readStream(as4MessageStream(report.messageId))).to.deep.equal([]);
    });
  },
  [INVOICE],
);
