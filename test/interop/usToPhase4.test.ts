import { verifyBundle } from '../../src/application/evidence/verifyBundle.js';
import { transportEvidenceChecks } from '../../src/infrastructure/evidenceChecks.js';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import {
  bearer,
  createOrganization,
  createTenant,
  startTestService,
  waitForState,
  type TestService,
} from '../support/service.js';
import { belgianNumber } from '../support/peppol.js';
import { startDnsServer, type TestDnsServer } from '../support/dnsServer.js';
import { describeWithPhase4, startPhase4Receiver, stopPhase4Receiver, type Phase4Receiver } from '../support/phase4.js';
import { makeTestPki, type TestPki } from '../support/testPki.js';
import { senderPeppolConfig, startReceiverSmp } from '../support/as4Peers.js';
import { realisticDocuments } from '../domain/document/fixtures/realisticDocuments.js';

/** The fixture's buyer and seller as Peppol participants. */
const BUYER_ID = '0208:0451234595';
const SELLER_ID = '0208:0403013026';
/** A participant phase4 is not told to serve: it answers EBMS:0004 PEPPOL:NOT_SERVICED. */
const UNSERVED_ID = `0208:${belgianNumber()}`;
const UNIT_MS = 5;

const invoice = (extra: Record<string, unknown> = {}) => ({
  ...(structuredClone(realisticDocuments()[0]!.body) as Record<string, unknown>),
  ...extra,
});

/**
 * Us (corner 2) to phase4 (corner 3): our service, as access point POP000001, finds the receiver
 * through a real DNS server answering the SML zone and another instance's signed SMP (which names
 * the phase4 receiver, POP000002, as the AS4 endpoint), sends over AS4 and records the receipt.
 */
describeWithPhase4('AS4 sending: us to a phase4 receiver (SML DNS, signed SMP, AS4, receipts)', function () {
  this.timeout(180_000);
  let pki: TestPki;
  let dns: TestDnsServer;
  let receiver: Phase4Receiver;
  let outDir: string;
  let smp: TestService;
  let us: TestService;
  let seller: { id: string; key: string };

  before(async () => {
    pki = await makeTestPki({ instances: 2 });
    dns = await startDnsServer();
    outDir = await mkdtemp(path.join(os.tmpdir(), 'phase4-in-'));
    const them = pki.instance(2);
    receiver = await startPhase4Receiver({ ap: them, outDir, serviced: [BUYER_ID] });
    // The receiver's SMP: another instance of this service, publishing the phase4 endpoint and certificate.
    ({ smp } = await startReceiverSmp({
      ap: them,
      endpointUrl: receiver.url,
      participants: [BUYER_ID, UNSERVED_ID],
      dns,
    }));

    us = await startTestService(
      {
        peppol: senderPeppolConfig(pki, dns, {
          lookupTimeoutMs: 3000,
          as4AllowPlainHttpLoopback: true,
          as4SendTimeoutMs: 30_000,
        }),
      },
      undefined,
      { deliveryRetryUnitMs: UNIT_MS },
    );
    seller = await createTenant(us, (await createOrganization(us)).adminKey, undefined, { peppol_ids: [SELLER_ID] });
  });
  after(async () => {
    await us?.stop();
    await smp?.stop();
    await stopPhase4Receiver(receiver);
    await dns?.close();
    await pki?.dispose();
    if (outDir) await rm(outDir, { recursive: true, force: true });
  });

  const send = async (body: Record<string, unknown>, query: Record<string, string> = {}) => {
    const created = await us.http.post('/api/documents/').set(bearer(seller.key)).send(body);
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const sent = await us.http.post(`/api/documents/${created.body.id}/send`).query(query).set(bearer(seller.key));
    expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
    return created.body.id as string;
  };
  const report = async (id: string) => {
    const res = await us.http.get(`/api/documents/${id}/transmission-report`).set(bearer(seller.key));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body;
  };

  it('sends an invoice that phase4 receives; the document is SENT with a verified receipt, reported and kept as evidence', async () => {
    const id = await send(invoice({ invoice_id: 'AS4-OUT-1' }));
    await waitForState(us, seller.key, id, ['SENT']);
    const r = await report(id);
    const delivery = r.deliveries[0];
    expect(delivery).to.include({ transport: 'peppol', receiver_peppol_id: BUYER_ID, status: 'sent' });
    const attempt = delivery.attempts[0];
    expect(attempt).to.include({
      outcome: 'delivered',
      as4_message_id: delivery.message_id,
      endpoint_url: receiver.url,
      receipt_verified: true,
      receipt_verification: null,
    });
    expect(Date.parse(attempt.receipt_received_at)).to.be.a('number').and.not.NaN;
    expect(attempt.remote_ap).to.include({ seat_id: 'POP000002' });
    expect(attempt.remote_ap.issuer).to.match(/CN=/);

    // phase4 stored what it received: our message id, from us, the SBDH naming our participants.
    const files = await readdir(outDir);
    const json = files.find(
      (f) => f.endsWith('.json') && f.includes(delivery.message_id.replace(/[^\w.@-]/g, '_').slice(0, 20)),
    );
    const stored = json ?? files.find((f) => f.endsWith('.json'))!;
    const facts = JSON.parse(await readFile(path.join(outDir, stored), 'utf8'));
    expect(JSON.stringify(facts)).to.contain(delivery.message_id).and.contain('POP000001');
    const sbd = await readFile(path.join(outDir, stored.replace(/\.json$/, '.sbd.xml')), 'utf8');
    expect(sbd).to.contain(SELLER_ID).and.contain(BUYER_ID).and.contain('<cbc:ID>AS4-OUT-1</cbc:ID>');
    // The seller is Belgian (its postal address, written in the UBL).
    expect(sbd).to.match(/COUNTRY_C1<\/sh:Type>\s*<sh:InstanceIdentifier>BE</);

    const evidence = await us.http.get(`/api/documents/${id}/evidence?part=receipt`).set(bearer(seller.key));
    expect(evidence.status).to.equal(200);
    expect(evidence.headers['content-type']).to.match(/^application\/xml/);
    const receipt = evidence.text ?? evidence.body.toString();
    expect(receipt).to.contain('Receipt').and.contain('NonRepudiationInformation').and.contain(delivery.message_id);
    const message = await us.http
      .get(`/api/documents/${id}/evidence?part=message`)
      .set(bearer(seller.key))
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(message.status).to.equal(200);
    const boundary = /boundary="?([^";]+)"?/.exec(String(message.headers['content-type']))?.[1];
    expect(String(message.headers['content-type'])).to.match(/^multipart\/related/);
    const sentText = (message.body as Buffer).toString('latin1');
    expect(sentText.startsWith(`--${boundary}`)).to.equal(true);
    expect(sentText).to.contain(delivery.message_id).and.contain('xenc:EncryptedData');

    // The whole evidence bundle verifies offline: phase4's receipt is signed, and its digests are our message's.
    const bundle = await us.http
      .get(`/api/documents/${id}/evidence`)
      .set(bearer(seller.key))
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(bundle.headers['content-type']).to.match(/^application\/zip/);
    const verified = verifyBundle(bundle.body as Buffer, transportEvidenceChecks);
    expect(verified.problems).to.deep.equal([]);
    expect(verified.files).to.be.greaterThan(8);
  });

  it('answers 404 for the evidence of a document not sent over AS4', async () => {
    const created = await us.http.post('/api/documents/').set(bearer(seller.key)).send(invoice());
    const res = await us.http.get(`/api/documents/${created.body.id}/evidence?part=receipt`).set(bearer(seller.key));
    expect(res.status).to.equal(404);
    expect(JSON.stringify(res.body)).to.contain('not sent over Peppol AS4');
  });

  it('fails the document permanently when phase4 answers EBMS:0004 not serviced, keeping the error codes', async () => {
    const [scheme, value] = UNSERVED_ID.split(':');
    const id = await send(invoice({ invoice_id: 'AS4-OUT-UNSERVED' }), {
      receiver_peppol_scheme: scheme!,
      receiver_peppol_id: value!,
    });
    await waitForState(us, seller.key, id, ['FAILED']);
    const r = await report(id);
    expect(r.attempts_total).to.equal(1);
    const attempt = r.deliveries[0].attempts[0];
    expect(attempt).to.include({ outcome: 'permanent', receipt_verified: null });
    expect(attempt.ebms_error_codes).to.include('EBMS:0004');
    expect(attempt.remote_ap).to.include({ seat_id: 'POP000002' });
    expect(r.deliveries[0].failure_reason).to.match(/ebMS error.*EBMS:0004/);
  });
});
