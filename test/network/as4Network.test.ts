import { expect } from 'chai';
import {
  networkTenant,
  startPeppolNetwork,
  type NetworkInstance,
  type PeppolNetwork,
} from '../support/peppolNetwork.js';
import { belgianNumber } from '../support/peppol.js';
import { OfficialReportingRules } from '../support/officialReportingRules.js';
import { harnessTarget } from '../support/phiveHarness.js';
import { realisticDocuments } from '../domain/document/fixtures/realisticDocuments.js';

async function until<T>(check: () => Promise<T | undefined | false>, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

type Party = { tenantId: string; key: string; adminKey: string; peppolId: string };

/**
 * Two instances of the service, A and B, on one Peppol network on loopback: each its own database,
 * AP key (POP000001, POP000002) and signed SMP, registrations published to a local SML whose DNS
 * both resolve through. Documents go from A to B over AS4, found through SML and SMP as on the
 * real network, and B's answers come back the same way.
 */
describe('Two instances, one Peppol network (AS4 over loopback, SML and SMP)', function () {
  this.timeout(300_000);
  let network: PeppolNetwork;
  let a: NetworkInstance;
  let b: NetworkInstance;
  let seller: Party;
  let buyer: Party;
  let sequence = 0;

  const invoice = () => ({
    ...(structuredClone(realisticDocuments()[0]!.body) as Record<string, unknown>),
    invoice_id: `NET-${Date.now()}-${++sequence}`,
    vendor_peppol_id: seller.peppolId,
    customer_peppol_id: buyer.peppolId,
  });
  const send = async () => {
    const body = invoice();
    const created = await a.call('POST', '/api/documents/', seller.key, body);
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const sent = await a.call('POST', `/api/documents/${created.body.id}/send`, seller.key);
    expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
    return { id: created.body.id as string, invoiceId: body.invoice_id };
  };
  const stateOf = async (id: string) => (await a.call('GET', `/api/documents/${id}`, seller.key)).body.state;
  const inboxOf = async (invoiceId: string) =>
    (await b.call('GET', `/api/inbox/?search=${encodeURIComponent(invoiceId)}`, buyer.key)).body;
  const reportOf = async (id: string) =>
    (await a.call('GET', `/api/documents/${id}/transmission-report`, seller.key)).body;

  before(async () => {
    network = await startPeppolNetwork({ env: { DELIVERY_RETRY_UNIT_MS: '250' } });
    [a, b] = network.instances as [NetworkInstance, NetworkInstance];
    await Promise.all([a.start(), b.start()]);
    const sellerId = `0208:${belgianNumber()}`;
    const buyerId = `0208:${belgianNumber()}`;
    seller = { ...(await networkTenant(a, sellerId, 'Seller NV')), peppolId: sellerId };
    buyer = { ...(await networkTenant(b, buyerId, 'Buyer NV')), peppolId: buyerId };
  });
  after(async () => network?.close());

  it("A's tenant sends to B's tenant: B's inbox has it, A's document is SENT with a verified receipt; B rejects and A sees the reason", async () => {
    const { id, invoiceId } = await send();
    await until(async () => (await stateOf(id)) === 'SENT', 'SENT on A');
    const inbox = await until(async () => {
      const page = await inboxOf(invoiceId);
      return page.total === 1 && page;
    }, "the document in B's inbox");
    const received = inbox.items[0];
    expect(received.direction).to.equal('INBOUND');

    const report = await reportOf(id);
    const delivery = report.deliveries[0];
    expect(delivery.status).to.equal('sent');
    const attempt = delivery.attempts.at(-1);
    expect(attempt.outcome).to.equal('delivered');
    expect(attempt.as4_message_id).to.equal(delivery.message_id);
    expect(attempt.receipt_verified, JSON.stringify(attempt)).to.equal(true);
    expect(attempt.remote_ap.seat_id ?? attempt.remote_ap.subject).to.match(/POP000002/);

    const evidence = await fetch(`${a.baseUrl}/api/documents/${id}/evidence?part=receipt`, {
      headers: { Authorization: `Bearer ${seller.key}` },
    });
    expect(evidence.status).to.equal(200);
    const receipt = await evidence.text();
    expect(receipt).to.contain('Receipt').and.to.contain('NonRepudiationInformation').and.to.contain('SignatureValue');
    expect(receipt).to.contain(delivery.message_id);

    const rejected = await b.call('POST', `/api/inbox/${received.id}/reject`, buyer.key, {
      reason: 'Unknown purchase order',
    });
    expect(rejected.status, JSON.stringify(rejected.body)).to.equal(200);
    const answered = await until(async () => {
      const document = (await a.call('GET', `/api/documents/${id}`, seller.key)).body;
      return document.invoice_response?.status === 'rejected' && document;
    }, "B's rejection on A's document");
    expect(answered.invoice_response).to.include({ code: 'RE', reason: 'Unknown purchase order' });
    // B took the Invoice Response to A over AS4, found through the SML and A's SMP, with A's receipt.
    const onB = (await b.call('GET', `/api/documents/${received.id}/transmission-report`, buyer.key)).body;
    expect(onB.received.sender_ap).to.equal('POP000001');
    expect(onB.response_deliveries).to.have.length(1);
    expect(onB.response_deliveries[0]).to.include({ outcome: 'delivered', receipt_verified: true, code: 'RE' });
    expect(onB.response_deliveries[0].remote_ap.seat_id).to.equal('POP000001');
    const history = (await a.call('GET', `/api/documents/${id}/history`, seller.key)).body;
    expect(history.events.map((e: { type: string }) => e.type)).to.include('ResponseReceived');
  });

  it("the month's Peppol reports of both access points count that exchange both ways and pass the official XSD and Schematron", async function () {
    const harness = harnessTarget();
    if (harness.kind === 'none') {
      if (process.env.CI === 'true') throw new Error(harness.why);
      console.warn(`\n  ⚠ SKIPPED: the reports' official check — ${harness.why}.\n`);
      return this.skip();
    }
    const month = new Date().toISOString().slice(0, 7);
    const rules = await OfficialReportingRules.start();
    try {
      const reportsOf = async (instance: NetworkInstance) => {
        const res = await instance.call('GET', `/api/operator/reports/peppol?month=${month}`, instance.operatorKey);
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        return res.body as { tsr: string; eusr: string; incoming: number; outgoing: number; end_users: number };
      };
      // A sent the invoice and received B's Invoice Response; B the other way round. Each counts
      // the other as its service provider, and one end user of its own.
      for (const [instance, other] of [
        [a, 'POP000002'],
        [b, 'POP000001'],
      ] as const) {
        const r = await reportsOf(instance);
        expect(r.incoming, `${other}'s peer incoming`).to.be.at.least(1);
        expect(r.outgoing, `${other}'s peer outgoing`).to.be.at.least(1);
        expect(r.end_users).to.equal(1);
        expect(r.tsr).to.contain(other);
        expect(r.tsr).to.contain('urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice');
        expect(r.tsr).to.contain('urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2');
        for (const kind of ['tsr', 'eusr'] as const)
          expect(await rules.check(kind, r[kind]), `${kind} of the AP other than ${other}`).to.deep.equal({
            schema: [],
            rules: [],
          });
      }
    } finally {
      await rules.close();
    }
  });

  it('B down: A retries on the schedule and delivers once B is back, exactly one copy', async () => {
    await b.stop();
    const { id, invoiceId } = await send();
    await until(async () => (await reportOf(id)).deliveries[0].attempts.length >= 2, 'two failed attempts on A');
    const failed = (await reportOf(id)).deliveries[0].attempts;
    expect(failed.map((x: { outcome: string }) => x.outcome)).to.include('retryable');
    expect(await stateOf(id)).to.equal('TRANSIT');
    await b.start();
    await until(async () => (await stateOf(id)) === 'SENT', 'SENT once B is back', 90_000);
    expect((await inboxOf(invoiceId)).total).to.equal(1);
  });

  it("B killed after storing and before answering: A's retry gets the same receipt, one copy", async () => {
    await b.stop();
    await b.start({ FAILPOINTS: 'as4:after-store' });
    const { id, invoiceId } = await send();
    // B stores the message, then kills itself before it answers.
    expect(await b.process!.exited).to.equal(null);
    b.process = null;
    await b.start();
    await until(async () => (await stateOf(id)) === 'SENT', 'SENT after B restarted', 90_000);
    const inbox = await inboxOf(invoiceId);
    expect(inbox.total, 'one copy').to.equal(1);
    const attempts = (await reportOf(id)).deliveries[0].attempts;
    expect(attempts[0].outcome).to.equal('retryable');
    expect(attempts.at(-1).receipt_verified).to.equal(true);
    // The receipt A holds is the one B stored before it was killed: B's record of the message.
    const receiptOnA = await (
      await fetch(`${a.baseUrl}/api/documents/${id}/evidence?part=receipt`, {
        headers: { Authorization: `Bearer ${seller.key}` },
      })
    ).text();
    const receiptOnB = await (
      await fetch(`${b.baseUrl}/api/documents/${inbox.items[0].id}/evidence?part=receipt`, {
        headers: { Authorization: `Bearer ${buyer.key}` },
      })
    ).text();
    expect(receiptOnA).to.equal(receiptOnB);
  });
});
