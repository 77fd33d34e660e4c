import { randomUUID, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
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
import { belgianNumber, registerPeppol } from '../support/peppol.js';
import { startDnsServer, type TestDnsServer } from '../support/dnsServer.js';
import {
  createAndSend,
  firstAttempt,
  senderPeppolConfig,
  startBusyEndpoint,
  startReceiverSmp,
} from '../support/as4Peers.js';
import { makeTestPki, type TestAccessPoint, type TestPki } from '../support/testPki.js';
import {
  indexWithout,
  startOcspFront,
  startOpensslResponder,
  type OcspFront,
  type OpensslResponder,
} from '../support/ocspResponder.js';
import { buildAs4, invoiceSbdh, postAs4, signingKeyOf } from '../support/as4Sender.js';
import { realisticDocuments } from '../domain/document/fixtures/realisticDocuments.js';
import { readSignalResponse } from '../../src/infrastructure/as4/as4Signals.js';
import { as4MessageStream } from '../../src/application/documents/as4MessageRecord.js';
import { HttpAs4Client } from '../../src/infrastructure/as4/as4Client.js';
import { loadAccessPointIdentity } from '../../src/infrastructure/as4/accessPointIdentity.js';
import { AccessPointTrust } from '../../src/infrastructure/peppol/accessPointTrust.js';
import { OcspChecker } from '../../src/infrastructure/peppol/ocspChecker.js';
import { base64Der } from '../../src/infrastructure/peppol/certificates.js';
import { PEPPOL_INVOICE } from '../../src/domain/peppol/peppolDocumentTypes.js';

const BUYER_ID = '0208:0451234595';
const SELLER_ID = '0208:0403013026';

const invoiceBody = () => structuredClone(realisticDocuments()[0]!.body) as Record<string, unknown>;

/**
 * OCSP on both AS4 paths, with `openssl ocsp` answering for the test PKI's AP CA behind a loopback
 * front (see ocspResponder): on receipt the signer of a message, before sending the receiver's
 * certificate from its SMP entry. No CRL is configured, so only OCSP can tell a revoked certificate,
 * and the default policy (crl) refuses for now what OCSP cannot establish. Instance 3 is left out of
 * the responder's index: "unknown" there.
 */
describe('AS4 and OCSP: the signer on receipt, the receiver before sending (openssl ocsp)', function () {
  this.timeout(240_000);
  let front: OcspFront;
  let pki: TestPki;
  let work: string;
  let responder: OpensslResponder;
  let dns: TestDnsServer;
  let us: TestService;
  let smp: TestService;
  /** The receiver's AS4 endpoint: counts what reaches it, answers 503. */
  let endpoint: Awaited<ReturnType<typeof startBusyEndpoint>>;
  let ourCertificate: X509Certificate;
  let invoiceUbl: string;
  let seller: { id: string; key: string };
  const revokedReceiver = `0208:${belgianNumber()}`;

  const forward = () => {
    front.mode = { kind: 'forward', to: responder.url };
  };

  before(async () => {
    front = await startOcspFront();
    pki = await makeTestPki({ instances: 4, ocspUrl: front.url });
    work = await mkdtemp(path.join(os.tmpdir(), 'ocsp-'));
    const unknown = new X509Certificate(await readFile(pki.instance(3).certificateFile));
    responder = await startOpensslResponder(pki, {
      index: await indexWithout(pki, [unknown.serialNumber], path.join(work, 'index.txt')),
    });
    forward();
    ourCertificate = new X509Certificate(await readFile(pki.instance(1).certificateFile));
    dns = await startDnsServer();
    endpoint = await startBusyEndpoint();
    // The receiver's SMP publishes the revoked AP certificate as its endpoint's.
    ({ smp } = await startReceiverSmp({
      ap: {
        ...pki.revoked,
        smpKeyFile: pki.instance(2).smpKeyFile,
        smpCertificateFile: pki.instance(2).smpCertificateFile,
      },
      endpointUrl: endpoint.url,
      participants: [revokedReceiver],
      dns,
    }));
    us = await startTestService(
      { peppol: senderPeppolConfig(pki, dns, { as4AllowPlainHttpLoopback: true, lookupTimeoutMs: 2000 }) },
      undefined,
      { deliveryRetryUnitMs: 60_000 },
    );
    const { adminKey } = await createOrganization(us);
    const buyer = await createTenant(us, adminKey, 'the-buyer', { peppol_ids: [BUYER_ID] });
    await registerPeppol(us, adminKey, buyer.id, { peppol_id: BUYER_ID, company_name: 'Brouwerij De Zwaan NV' });
    seller = await createTenant(us, adminKey, undefined, { peppol_ids: [SELLER_ID] });
    const doc = await us.http.post('/api/documents/').set(bearer(seller.key)).send(invoiceBody());
    expect(doc.status, JSON.stringify(doc.body)).to.equal(200);
    invoiceUbl = (await us.http.get(`/api/documents/${doc.body.id}/ubl?format=xml`).set(bearer(seller.key))).text;
  });
  after(async () => {
    await us?.stop();
    await smp?.stop();
    await endpoint?.close();
    await dns?.close();
    await responder?.stop();
    await front?.close();
    await pki?.dispose();
    if (work) await rm(work, { recursive: true, force: true });
  });
  beforeEach(forward);

  describe('on receipt (POST /as4)', () => {
    /** Posts an invoice signed by `ap`: the signal read as a sender reads it, and what was stored of it. */
    const receive = async (ap: TestAccessPoint) => {
      const built = await buildAs4({
        sbdh: invoiceSbdh(SELLER_ID, BUYER_ID),
        businessDocument: invoiceUbl.replace(/<cbc:ID>[^<]*</, `<cbc:ID>OCSP-${randomUUID()}<`),
        from: { ...signingKeyOf(ap), seatId: ap.seatId },
        toSeatId: 'POP000001',
        receiverCertificate: ourCertificate,
      });
      const res = await postAs4(us, built);
      expect(res.status).to.equal(200);
      const signal = readSignalResponse(res.body, {
        messageId: built.messageId,
        references: built.references,
        receiver: ourCertificate,
      });
      const stored = await us.service.eventStore.readStream(as4MessageStream(built.messageId));
      return { signal, stored };
    };
    const refusal = async (ap: TestAccessPoint) => {
      const { signal, stored } = await receive(ap);
      if (signal.kind !== 'error') throw new Error(`expected an ebMS error, got ${JSON.stringify(signal)}`);
      expect(signal.signatureValid).to.equal(true);
      expect(stored, 'nothing stored').to.deep.equal([]);
      expect(signal.errors).to.have.length(1);
      return { code: signal.errors[0]!.errorCode, description: signal.errors[0]!.description };
    };

    it('accepts a signer the responder says is good', async () => {
      const before = front.requests;
      const { signal, stored } = await receive(pki.instance(2));
      expect(signal.kind).to.equal('receipt');
      expect(stored.map((e) => e.type)).to.deep.equal(['As4MessageReceived']);
      expect(front.requests).to.equal(before + 1);
    });

    it('refuses a signer the responder says is revoked: EBMS:0101, as phase4 does', async () => {
      const { code, description } = await refusal(pki.revoked);
      expect(code).to.equal('EBMS:0101');
      expect(description).to.match(
        new RegExp(
          `^the signing certificate is not accepted: revoked on \\S+ \\(OCSP responder ${front.url}, reason keyCompromise\\)$`,
        ),
      );
    });

    it('refuses for now (EBMS:0004, retried by the sender) an unknown signer, a responder that is down, a stale answer', async () => {
      const forNow = (why: string) =>
        new RegExp(
          `^the signing certificate is not accepted for now: its revocation status cannot be established now: ${why} ` +
            `\\(and AS4_CRL_FILES has no CRL of Invoicing Test Access Point CA to fall back on\\); send it again later$`,
        );
      const unknown = await refusal(pki.instance(3));
      expect(unknown.code).to.equal('EBMS:0004');
      expect(unknown.description).to.match(
        forNow(`the OCSP responder ${front.url} does not know the certificate \\(status unknown\\)`),
      );

      front.mode = { kind: 'down' };
      // Instance 1 (our own certificate, as another sender would hold one) was never asked about.
      const down = await refusal(pki.instance(1));
      expect(down.code).to.equal('EBMS:0004');
      expect(down.description).to.match(forNow(`the OCSP responder ${front.url} did not answer \\(\\S+\\)`));

      const signerKeyPem = await readFile(pki.ocspResponderKeyFile, 'utf8');
      front.mode = { kind: 'aged', to: responder.url, hours: 2, signerKeyPem };
      const stale = await refusal(pki.instance(4));
      expect(stale.code).to.equal('EBMS:0004');
      expect(stale.description).to.match(
        forNow(`the answer of the OCSP responder \\S+ is not usable: it is stale: .*`),
      );
    });
  });

  describe('before sending', () => {
    it('fails a delivery to a receiver whose certificate the responder says is revoked: permanent, nothing posted', async () => {
      const before = endpoint.posts();
      const id = await createAndSend(us, seller.key, invoiceBody(), revokedReceiver);
      await waitForState(us, seller.key, id, ['FAILED']);
      const { attempt } = await firstAttempt(us, seller.key, id);
      expect(attempt.outcome).to.equal('permanent');
      expect(attempt.error).to.match(
        new RegExp(
          `the receiver's access point certificate \\(.*CN=POP999997\\) is not acceptable: revoked on \\S+ \\(OCSP responder ${front.url}, reason keyCompromise\\)`,
        ),
      );
      expect(endpoint.posts(), 'no message left').to.equal(before);
    });

    it('retries later, posting nothing, when the receiver’s status cannot be established: unknown, responder down, stale answer', async () => {
      const identity = loadAccessPointIdentity(senderPeppolConfig(pki, dns, { as4AllowPlainHttpLoopback: true }))!;
      const sendTo = (ap: TestAccessPoint) =>
        new HttpAs4Client(identity, {
          timeoutMs: 5000,
          // A fresh cache each time, as a restarted access point has.
          trust: new AccessPointTrust(identity.apCas, {
            crls: null,
            ocsp: new OcspChecker(),
            failurePolicy: 'crl',
            warn: () => {},
          }),
        }).send({
          messageId: `${randomUUID()}@ocsp.test`,
          senderParticipant: SELLER_ID,
          receiverParticipant: BUYER_ID,
          kind: PEPPOL_INVOICE,
          countryC1: 'BE',
          document: Buffer.from(invoiceUbl, 'utf8'),
          endpoint: {
            url: endpoint.url,
            certificate: base64Der(new X509Certificate(readFileSync(ap.certificateFile))),
          },
        });
      const before = endpoint.posts();
      const results = [await sendTo(pki.instance(3))];
      front.mode = { kind: 'down' };
      results.push(await sendTo(pki.instance(2)));
      front.mode = {
        kind: 'aged',
        to: responder.url,
        hours: 2,
        signerKeyPem: await readFile(pki.ocspResponderKeyFile, 'utf8'),
      };
      results.push(await sendTo(pki.instance(2)));
      const whys = [/does not know the certificate \(status unknown\)/, /did not answer/, /it is stale/];
      results.forEach((result, i) => {
        if (result.outcome !== 'transport') throw new Error(JSON.stringify(result));
        expect(result.retryable).to.equal(true);
        expect(result.sent).to.equal(null);
        expect(result.reason).to.match(/^the receiver's access point certificate \(.*\) is not acceptable for now: /);
        expect(result.reason).to.match(whys[i]!);
      });
      expect(endpoint.posts(), 'no message left').to.equal(before);
      // With an answer, the same send goes out.
      forward();
      const good = await sendTo(pki.instance(2));
      expect(good).to.include({ outcome: 'transport', retryable: true });
      expect(endpoint.posts()).to.equal(before + 1);
    });
  });
});
