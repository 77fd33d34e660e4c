import { expect } from 'chai';
import {
  createOrganization,
  createTenant,
  startTestService,
  waitForState,
  type TestService,
} from '../support/service.js';
import { belgianNumber } from '../support/peppol.js';
import { startDnsServer, type TestDnsServer } from '../support/dnsServer.js';
import { makeTestPki, type TestPki } from '../support/testPki.js';
import {
  createAndSend,
  firstAttempt as firstAttemptOf,
  senderPeppolConfig,
  smlNameOf,
  startBusyEndpoint,
  startReceiverSmp,
} from '../support/as4Peers.js';
import { realisticDocuments } from '../domain/document/fixtures/realisticDocuments.js';

const SELLER_ID = '0208:0403013026';

const invoice = () => structuredClone(realisticDocuments()[0]!.body) as Record<string, unknown>;

/**
 * How sending over AS4 fails before a message is accepted: the receiver is looked up through a
 * real DNS server (SML zone) and another instance's signed SMP; each failure is classified as the
 * Peppol network means it (not registered: permanent; an outage: retryable).
 */
describe('AS4 sending failures (SML DNS, signed SMP of another instance, real HTTP)', function () {
  this.timeout(120_000);
  let pki: TestPki;
  let dns: TestDnsServer;
  let smp: TestService;
  let smpUrl: string;
  let us: TestService;
  let seller: { id: string; key: string };
  /** An AS4 endpoint that answers every POST with HTTP 503 (an AP under maintenance). */
  let busy: Awaited<ReturnType<typeof startBusyEndpoint>>;
  const registered = `0208:${belgianNumber()}`;

  before(async () => {
    pki = await makeTestPki({ instances: 2 });
    dns = await startDnsServer();
    busy = await startBusyEndpoint();
    const them = pki.instance(2);
    ({ smp, smpUrl } = await startReceiverSmp({
      ap: them,
      endpointUrl: busy.url,
      participants: [registered],
      dns,
    }));
  });
  after(async () => {
    await us?.stop();
    await smp?.stop();
    await busy?.close();
    await dns?.close();
    await pki?.dispose();
  });

  const startUs = async (allowPlainHttpLoopback: boolean) => {
    await us?.stop();
    us = await startTestService(
      {
        peppol: senderPeppolConfig(pki, dns, {
          lookupTimeoutMs: 2000,
          as4AllowPlainHttpLoopback: allowPlainHttpLoopback,
        }),
      },
      undefined,
      // Long enough that a retryable failure stays in TRANSIT while the test reads it.
      { deliveryRetryUnitMs: 60_000 },
    );
    seller = await createTenant(us, (await createOrganization(us)).adminKey, undefined, { peppol_ids: [SELLER_ID] });
  };

  const sendTo = (receiver: string, body = invoice()) => createAndSend(us, seller.key, body, receiver);
  const firstAttempt = (id: string) => firstAttemptOf(us, seller.key, id);

  describe('with plain HTTP on loopback allowed', () => {
    before(() => startUs(true));

    it('fails permanently for a receiver the SML does not know (NXDOMAIN), naming the reason', async () => {
      const unknown = `0208:${belgianNumber()}`;
      const id = await sendTo(unknown);
      await waitForState(us, seller.key, id, ['FAILED']);
      const { report, attempt } = await firstAttempt(id);
      expect(report.attempts_total).to.equal(1);
      expect(attempt.outcome).to.equal('permanent');
      expect(attempt.error).to.contain(`receiver ${unknown} is not registered in the Peppol network`);
      expect(attempt).to.not.have.property('as4_message_id');
    });

    it('fails permanently for a receiver the SML knows but whose SMP does not list the document type (HTTP 404)', async () => {
      const body = { ...invoice(), document_type: 'CREDIT_NOTE' };
      const other = `0208:${belgianNumber()}`;
      // Registered at the SML (DNS) but unknown to the SMP: every document type is a 404.
      dns.pointToSmp(smlNameOf(other), smpUrl);
      const id = await sendTo(other, body);
      await waitForState(us, seller.key, id, ['FAILED']);
      const { attempt } = await firstAttempt(id);
      expect(attempt.outcome).to.equal('permanent');
      expect(attempt.error).to.match(new RegExp(`receiver ${other} is not registered for document type .*CreditNote`));
    });

    it('retries when the SMP is down, and when the receiving AP answers HTTP 503, with the evidence of what was sent', async () => {
      const down = `0208:${belgianNumber()}`;
      dns.pointToSmp(smlNameOf(down), 'http://127.0.0.1:9');
      const id = await sendTo(down);
      const { report, attempt } = await firstAttempt(id);
      expect(report.state).to.equal('TRANSIT');
      expect(attempt.outcome).to.equal('retryable');
      expect(attempt.error).to.contain(`the SMP of ${down} at http://127.0.0.1:9 is not available`);

      const before = busy.posts();
      const busyId = await sendTo(registered);
      const busyAttempt = await firstAttempt(busyId);
      expect(busyAttempt.report.state).to.equal('TRANSIT');
      expect(busyAttempt.attempt).to.include({ outcome: 'retryable', endpoint_url: busy.url });
      expect(busyAttempt.attempt.error).to.contain('HTTP 503');
      expect(busyAttempt.attempt.remote_ap).to.include({ seat_id: 'POP000002' });
      expect(busy.posts()).to.equal(before + 1);
    });
  });

  describe('without the plain-HTTP loopback switch', () => {
    before(() => startUs(false));

    it('fails permanently for an http:// endpoint, naming the reason, and posts nothing', async () => {
      const before = busy.posts();
      const id = await sendTo(registered);
      await waitForState(us, seller.key, id, ['FAILED']);
      const { attempt } = await firstAttempt(id);
      expect(attempt.outcome).to.equal('permanent');
      expect(attempt.error)
        .to.contain('is not HTTPS, which Peppol requires')
        .and.contain('AS4_ALLOW_PLAIN_HTTP_LOOPBACK');
      expect(busy.posts()).to.equal(before);
    });
  });
});
