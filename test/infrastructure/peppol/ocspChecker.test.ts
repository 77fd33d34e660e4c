import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { OcspChecker, type OcspStatus } from '../../../src/infrastructure/peppol/ocspChecker.js';
import { parseOcspResponse } from '../../../src/infrastructure/peppol/ocspMessages.js';
import { AccessPointTrust, type OcspFailurePolicy } from '../../../src/infrastructure/peppol/accessPointTrust.js';
import { RevocationLists } from '../../../src/infrastructure/peppol/revocationLists.js';
import {
  indexWithout,
  startOcspFront,
  startOpensslResponder,
  type OcspFront,
  type OpensslResponder,
} from '../../support/ocspResponder.js';
import { makeTestPki, type TestPki } from '../../support/testPki.js';

const certificateOf = async (file: string) => new X509Certificate(await readFile(file));
const MINUTE = 60_000;

/**
 * OCSP against `openssl ocsp` over the test PKI: the AP certificates name a loopback front, which
 * forwards to a responder (delegated, or the CA itself), or plays a responder that is down, that
 * errs, or whose answer is two hours old. POP999997 is revoked in the CA database; the expired
 * certificate is left out of the responder's index, so that it is "unknown" there.
 */
describe('OCSP: OcspChecker and AccessPointTrust against openssl ocsp', function () {
  this.timeout(180_000);
  let front: OcspFront;
  let pki: TestPki;
  let work: string;
  let delegated: OpensslResponder;
  let byCa: OpensslResponder;
  let notForOcsp: OpensslResponder;
  let foreign: OpensslResponder;
  let noNextUpdate: OpensslResponder;
  let apCa: X509Certificate;
  let good: X509Certificate;
  let revoked: X509Certificate;
  let unknown: X509Certificate;

  before(async () => {
    front = await startOcspFront();
    pki = await makeTestPki({ instances: 1, ocspUrl: front.url });
    work = await mkdtemp(path.join(os.tmpdir(), 'ocsp-'));
    [apCa, good, revoked, unknown] = await Promise.all(
      [
        pki.apCaCertificateFile,
        pki.instance(1).certificateFile,
        pki.revoked.certificateFile,
        pki.expired.certificateFile,
      ].map(certificateOf),
    );
    const index = await indexWithout(pki, [unknown.serialNumber], path.join(work, 'index.txt'));
    [delegated, byCa, notForOcsp, foreign, noNextUpdate] = await Promise.all([
      startOpensslResponder(pki, { index }),
      // The CA signs its own answers, naming itself by its key hash.
      startOpensslResponder(pki, {
        index,
        signer: { certificateFile: pki.apCaCertificateFile, keyFile: pki.apCaKeyFile },
        extra: ['-resp_key_id'],
      }),
      // An access point certificate of the CA: not for OCSP signing.
      startOpensslResponder(pki, { index, signer: pki.instance(1) }),
      // A certificate of another CA altogether.
      startOpensslResponder(pki, { index, signer: pki.untrusted }),
      startOpensslResponder(pki, { index, minutes: null }),
    ]);
  });
  after(async () => {
    await Promise.all([delegated, byCa, notForOcsp, foreign, noNextUpdate].map((r) => r?.stop()));
    await front?.close();
    await pki?.dispose();
    if (work) await rm(work, { recursive: true, force: true });
  });
  beforeEach(() => {
    front.mode = { kind: 'forward', to: delegated.url };
  });

  const undetermined = (status: OcspStatus): string => {
    if (status.kind !== 'undetermined') throw new Error(`expected no status, got ${JSON.stringify(status)}`);
    expect(status.url).to.equal(front.url);
    return status.why;
  };

  it('asks the responder the certificate names: good, revoked (when and why), unknown', async () => {
    const checker = new OcspChecker();
    const now = new Date();
    const before = front.requests;
    const ok = await checker.status(good, apCa, now);
    expect(ok).to.deep.include({
      kind: 'good',
      url: front.url,
      signer: 'Invoicing Test Access Point CA OCSP Responder',
    });
    const bad = await checker.status(revoked, apCa, now);
    if (bad.kind !== 'revoked') throw new Error(JSON.stringify(bad));
    expect(bad.reason).to.equal('keyCompromise');
    expect(now.getTime() - bad.revokedAt.getTime()).to.be.within(0, 24 * 60 * MINUTE);
    expect(undetermined(await checker.status(unknown, apCa, now))).to.equal(
      `the OCSP responder ${front.url} does not know the certificate (status unknown)`,
    );
    expect(front.requests - before).to.equal(3);
  });

  it('takes an answer the issuing CA signs itself, naming itself by key hash', async () => {
    front.mode = { kind: 'forward', to: byCa.url };
    expect(await new OcspChecker().status(good, apCa, new Date())).to.deep.include({
      kind: 'good',
      signer: 'Invoicing Test Access Point CA',
    });
  });

  it('refuses an answer signed by a certificate that is not the CA’s OCSP responder', async () => {
    front.mode = { kind: 'forward', to: notForOcsp.url };
    expect(undetermined(await new OcspChecker().status(revoked, apCa, new Date()))).to.equal(
      `the answer of the OCSP responder ${front.url} is not usable: its responder certificate POP000001 is not for OCSP signing (id-kp-OCSPSigning)`,
    );
    front.mode = { kind: 'forward', to: foreign.url };
    expect(undetermined(await new OcspChecker().status(revoked, apCa, new Date()))).to.match(
      /not usable: its responder certificate POP999999 was not issued by Invoicing Test Access Point CA$/,
    );
  });

  it('refuses an answer about another certificate, one that does not verify, one from the future, from an expired responder', async () => {
    await new OcspChecker().status(revoked, apCa, new Date());
    const aboutRevoked = front.last!;
    front.mode = { kind: 'answer', status: 200, body: aboutRevoked };
    expect(undetermined(await new OcspChecker().status(good, apCa, new Date()))).to.match(
      /is not usable: it is not about this certificate$/,
    );
    const tampered = Buffer.from(aboutRevoked);
    const parsed = parseOcspResponse(tampered);
    if (parsed.status !== 'successful') throw new Error(parsed.status);
    parsed.basic.signature[10]! ^= 0x01; // a view into `tampered`
    front.mode = { kind: 'answer', status: 200, body: tampered };
    expect(undetermined(await new OcspChecker().status(revoked, apCa, new Date()))).to.match(
      /is not usable: its signature does not verify with the key of Invoicing Test Access Point CA OCSP Responder$/,
    );
    const signerKeyPem = await readFile(pki.ocspResponderKeyFile, 'utf8');
    front.mode = { kind: 'aged', to: delegated.url, hours: -1, signerKeyPem };
    expect(undetermined(await new OcspChecker().status(good, apCa, new Date()))).to.match(
      /is not usable: its thisUpdate \S+ is in the future$/,
    );
    // The responder certificate is valid for 30 days, as the PKI's certificates are.
    front.mode = { kind: 'forward', to: delegated.url };
    expect(
      undetermined(await new OcspChecker().status(good, apCa, new Date(Date.now() + 31 * 24 * 60 * MINUTE))),
    ).to.match(/is not usable: its responder certificate .* is not valid now$/);
  });

  it('takes an answer without nextUpdate while it is younger than the cache bound', async () => {
    front.mode = { kind: 'forward', to: noNextUpdate.url };
    expect(await new OcspChecker({ maxCacheMs: 60 * MINUTE }).status(good, apCa, new Date())).to.include({
      kind: 'good',
    });
    expect(
      undetermined(
        await new OcspChecker({ maxCacheMs: 60 * MINUTE }).status(good, apCa, new Date(Date.now() + 61 * MINUTE)),
      ),
    ).to.match(/is not usable: it is stale: its thisUpdate \S+ is too old$/);
  });

  it('keeps an answer until its nextUpdate (never longer than the cache bound), one request for concurrent checks', async () => {
    const checker = new OcspChecker({ maxCacheMs: 60 * MINUTE });
    const now = Date.now();
    const before = front.requests;
    const statuses = await Promise.all(Array.from({ length: 5 }, () => checker.status(good, apCa, new Date(now))));
    expect(statuses.map((s) => s.kind)).to.deep.equal(['good', 'good', 'good', 'good', 'good']);
    expect(await checker.status(good, apCa, new Date(now + 9 * MINUTE))).to.include({ kind: 'good' });
    expect(front.requests - before, 'one request for all').to.equal(1);
    // Past the answer's nextUpdate (10 minutes) it is asked again; seen from then, the fresh answer is stale too.
    expect(undetermined(await checker.status(good, apCa, new Date(now + 16 * MINUTE)))).to.match(
      /is not usable: it is stale: its nextUpdate \S+ has passed$/,
    );
    expect(front.requests - before).to.equal(2);

    const bounded = new OcspChecker({ maxCacheMs: MINUTE });
    await bounded.status(good, apCa, new Date(now));
    expect(await bounded.status(good, apCa, new Date(now + 2 * MINUTE))).to.include({ kind: 'good' });
    expect(front.requests - before, 'asked again after the cache bound').to.equal(4);
  });

  it('takes a stale answer (its nextUpdate passed) as no answer', async () => {
    front.mode = {
      kind: 'aged',
      to: delegated.url,
      hours: 2,
      signerKeyPem: await readFile(pki.ocspResponderKeyFile, 'utf8'),
    };
    expect(undetermined(await new OcspChecker().status(revoked, apCa, new Date()))).to.match(
      /is not usable: it is stale: its nextUpdate \S+ has passed$/,
    );
  });

  it('has no answer from a responder that is down, hangs, errs, or answers no OCSP, and asks again only after a while', async () => {
    const checker = new OcspChecker({ failureCacheMs: MINUTE });
    const now = Date.now();
    front.mode = { kind: 'down' };
    const before = front.requests;
    expect(undetermined(await checker.status(good, apCa, new Date(now)))).to.match(
      new RegExp(`^the OCSP responder ${front.url} did not answer \\(`),
    );
    await checker.status(good, apCa, new Date(now + MINUTE / 2));
    expect(front.requests - before, 'no request while "no answer" is kept').to.equal(1);

    front.mode = { kind: 'silent' };
    expect(undetermined(await new OcspChecker({ timeoutMs: 200 }).status(good, apCa, new Date()))).to.equal(
      `the OCSP responder ${front.url} did not answer (no answer within 200 ms)`,
    );
    front.mode = { kind: 'answer', status: 500, body: Buffer.from('oops') };
    expect(undetermined(await checker.status(good, apCa, new Date(now + 2 * MINUTE)))).to.equal(
      `the OCSP responder ${front.url} answered HTTP 500`,
    );
    front.mode = { kind: 'answer', status: 200, body: Buffer.from('<html>') };
    expect(undetermined(await new OcspChecker().status(good, apCa, new Date()))).to.match(
      /answered no valid OCSP response: /,
    );
    // OCSPResponse { responseStatus tryLater }
    front.mode = { kind: 'answer', status: 200, body: Buffer.from('30030a0103', 'hex') };
    expect(undetermined(await new OcspChecker().status(good, apCa, new Date()))).to.match(
      /is not usable: the responder answered "tryLater"$/,
    );
  });

  it('sends a nonce when asked to, and then takes no answer without it', async () => {
    const withNonce = new OcspChecker({ nonce: true });
    expect(await withNonce.status(good, apCa, new Date())).to.include({ kind: 'good' });
    // openssl echoes the nonce; an answer captured for a request without one does not.
    await new OcspChecker().status(good, apCa, new Date());
    front.mode = { kind: 'answer', status: 200, body: front.last! };
    expect(undetermined(await new OcspChecker({ nonce: true }).status(good, apCa, new Date()))).to.match(
      /is not usable: it does not echo the nonce sent$/,
    );
    expect(await new OcspChecker().status(good, apCa, new Date())).to.include({ kind: 'good' });
  });

  it('asks nothing about a certificate that names no responder', async () => {
    const before = front.requests;
    const smp = await certificateOf(pki.instance(1).smpCertificateFile);
    const smpCa = await certificateOf(pki.smpCaCertificateFile);
    expect(await new OcspChecker().status(smp, smpCa, new Date())).to.deep.equal({ kind: 'no-responder' });
    expect(front.requests).to.equal(before);
  });

  describe('AccessPointTrust: CRL and OCSP together, and the policy when OCSP has no answer', () => {
    let warnings: string[];
    const trust = (policy: OcspFailurePolicy, withCrl: boolean) => {
      warnings = [];
      return new AccessPointTrust([apCa], {
        crls: withCrl ? RevocationLists.load([pki.apCaCrlFile], [apCa]) : null,
        ocsp: new OcspChecker(),
        failurePolicy: policy,
        warn: (message) => warnings.push(message),
      });
    };

    it('refuses what the responder says is revoked, for good (no CRL needed)', async () => {
      for (const policy of ['crl', 'accept', 'refuse'] as const) {
        const problem = await trust(policy, false).check(revoked, new Date());
        expect(problem?.temporary, policy).to.equal(false);
        expect(problem?.reason).to.match(
          new RegExp(`^revoked on \\S+ \\(OCSP responder ${front.url}, reason keyCompromise\\)$`),
        );
      }
      expect(await trust('crl', false).check(good, new Date())).to.equal(null);
    });

    it('refuses what the CRL lists without asking the responder', async () => {
      front.mode = { kind: 'down' };
      const before = front.requests;
      expect(await trust('accept', true).check(revoked, new Date())).to.deep.include({ temporary: false });
      expect(front.requests).to.equal(before);
    });

    it('crl (the default): the CRL decides when there is one, else refused for now', async () => {
      front.mode = { kind: 'down' };
      const problem = await trust('crl', false).check(good, new Date());
      expect(problem).to.deep.include({ temporary: true });
      expect(problem!.reason).to.match(
        new RegExp(
          `^its revocation status cannot be established now: the OCSP responder ${front.url} did not answer \\(.*\\) \\(and AS4_CRL_FILES has no CRL of Invoicing Test Access Point CA to fall back on\\)$`,
        ),
      );
      const withCrl = trust('crl', true);
      expect(await withCrl.check(good, new Date())).to.equal(null);
      expect(await withCrl.check(good, new Date())).to.equal(null);
      expect(warnings, 'one warning while the answer is missing, not one per check').to.have.length(1);
      expect(warnings[0]).to.match(
        /^OCSP gave no revocation status for C=BE, O=Invoicing Test Instance 1, OU=PEPPOL TEST AP, CN=POP000001: .*; accepted because the CRL of Invoicing Test Access Point CA does not list it$/,
      );
    });

    it('accept: accepted with a warning; refuse: refused for now, CRL or not', async () => {
      front.mode = { kind: 'answer', status: 503, body: Buffer.alloc(0) };
      const accepting = trust('accept', false);
      expect(await accepting.check(good, new Date())).to.equal(null);
      expect(warnings).to.have.length(1);
      expect(warnings[0]).to.match(/answered HTTP 503; accepted as AS4_OCSP_FAILURE_POLICY=accept says$/);
      const refusing = await trust('refuse', true).check(good, new Date());
      expect(refusing).to.deep.equal({
        reason: `its revocation status cannot be established now: the OCSP responder ${front.url} answered HTTP 503`,
        temporary: true,
      });
      expect(warnings).to.deep.equal([]);
    });
  });
});
