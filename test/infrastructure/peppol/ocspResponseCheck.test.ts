import { expect } from 'chai';
import { certIdOf, parseOcspResponse, type CertId } from '../../../src/infrastructure/peppol/ocspMessages.js';
import {
  checkOcspResponse,
  OcspInvalid,
  type ResponseExpectations,
} from '../../../src/infrastructure/peppol/ocspResponseCheck.js';
import { derNull, octetString, oid, sequence } from '../../../src/infrastructure/peppol/derWriter.js';
import {
  basicResponse,
  extension,
  NONCE,
  ocspPki,
  ocspResponseDer,
  revokedStatus,
  singleResponse,
  type BasicFields,
  type OcspPki,
  type SingleFields,
} from '../../support/ocspAnswers.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const SKEW = 5 * MINUTE;
const MAX_AGE = HOUR;

describe('OCSP answers: who signed them, what about, and whether they are current (checkOcspResponse)', function () {
  this.timeout(600_000);
  let pki: OcspPki;
  let id: CertId;
  let now: Date;
  before(async () => {
    pki = await ocspPki();
    id = certIdOf(pki.leaf.certificate, pki.ca.certificate);
    now = new Date(Date.now());
  });

  const ago = (ms: number) => new Date(now.getTime() - ms);
  const answer = (basic: Partial<BasicFields> = {}, single: Partial<SingleFields> = {}) =>
    parseOcspResponse(
      ocspResponseDer(
        0,
        basicResponse({
          signer: pki.ca,
          singles: [
            singleResponse({
              certId: id,
              thisUpdate: ago(MINUTE),
              nextUpdate: new Date(now.getTime() + HOUR),
              ...single,
            }),
          ],
          ...basic,
        }),
      ),
    );
  const expectations = (over: Partial<ResponseExpectations> = {}): ResponseExpectations => ({
    certificate: pki.leaf.certificate,
    issuer: pki.ca.certificate,
    certId: id,
    nonce: null,
    now,
    maxAgeMs: MAX_AGE,
    skewMs: SKEW,
    ...over,
  });
  const check = (response = answer(), over: Partial<ResponseExpectations> = {}) =>
    checkOcspResponse(response, expectations(over));
  const refused = (message: RegExp, response = answer(), over: Partial<ResponseExpectations> = {}) =>
    expect(() => check(response, over)).to.throw(OcspInvalid, message);

  it('takes an answer the CA signs, naming itself by key hash or by name', () => {
    const thisUpdate = ago(MINUTE);
    const nextUpdate = new Date(now.getTime() + HOUR);
    expect(check(answer({}, { thisUpdate, nextUpdate }))).to.deep.equal({
      status: { kind: 'good' },
      thisUpdate: new Date(Math.floor(thisUpdate.getTime() / 1000) * 1000),
      nextUpdate: new Date(Math.floor(nextUpdate.getTime() / 1000) * 1000),
      signer: 'Invoicing Test Access Point CA',
    });
    expect(check(answer({ responderId: 'byName' })).signer).to.equal('Invoicing Test Access Point CA');
  });

  it("takes the CA's delegated responder, carried in the answer, and says who it is", () => {
    for (const responderId of ['byName', 'byKey'] as const)
      expect(
        check(
          answer({
            signer: pki.responder,
            responderId,
            certificates: [pki.leaf.certificate, pki.responder.certificate],
          }),
        ).signer,
      ).to.equal('Invoicing Test Access Point CA OCSP Responder');
  });

  it('says what the answer says: revoked, with when and why', () => {
    const revokedAt = new Date('2026-01-02T03:04:05Z');
    expect(check(answer({}, { status: revokedStatus(revokedAt, 4) })).status).to.deep.equal({
      kind: 'revoked',
      revokedAt,
      reason: 'superseded',
    });
  });

  it('refuses an error status', () => {
    refused(/^the responder answered "tryLater"$/, parseOcspResponse(ocspResponseDer(3, null)));
  });

  it('refuses a signer that is neither the CA nor a responder certificate the answer carries', () => {
    refused(
      /signed by neither the issuing CA nor a responder certificate it carries/,
      answer({ signer: pki.responder }),
    );
    refused(
      /signed by neither/,
      answer({ signer: pki.responder, responderId: 'byName', certificates: [pki.leaf.certificate] }),
    );
  });

  it('refuses a carried responder the CA did not issue, one not for OCSP signing, one not valid now', () => {
    refused(
      /its responder certificate .* was not issued by Invoicing Test Access Point CA$/,
      answer({ signer: pki.untrusted, certificates: [pki.untrusted.certificate] }),
    );
    // Named as issued by the CA, and for OCSP signing, but the CA's key did not sign it.
    expect(pki.forged.certificate.checkIssued(pki.ca.certificate)).to.equal(true);
    refused(
      /^its responder certificate Forged OCSP Responder was not issued by Invoicing Test Access Point CA$/,
      answer({ signer: pki.forged, certificates: [pki.forged.certificate] }),
    );
    refused(
      /its responder certificate POP000001 is not for OCSP signing \(id-kp-OCSPSigning\)$/,
      answer({ signer: pki.leaf, certificates: [pki.leaf.certificate] }),
    );
    const delegated = pki.responder.certificate;
    const byResponder = () => answer({ signer: pki.responder, certificates: [delegated] });
    const notValid = /its responder certificate Invoicing Test Access Point CA OCSP Responder is not valid now/;
    refused(notValid, byResponder(), { now: new Date(new Date(delegated.validTo).getTime() + 1000) });
    refused(notValid, byResponder(), { now: new Date(new Date(delegated.validFrom).getTime() - 1000) });
    const validFrom = new Date(delegated.validFrom);
    const fromStart = parseOcspResponse(
      ocspResponseDer(
        0,
        basicResponse({
          signer: pki.responder,
          certificates: [delegated],
          singles: [
            singleResponse({ certId: id, thisUpdate: validFrom, nextUpdate: new Date(validFrom.getTime() + HOUR) }),
          ],
        }),
      ),
    );
    expect(check(fromStart, { now: validFrom }).signer).to.equal('Invoicing Test Access Point CA OCSP Responder');
    const validTo = new Date(delegated.validTo);
    const toEnd = parseOcspResponse(
      ocspResponseDer(
        0,
        basicResponse({
          signer: pki.responder,
          certificates: [delegated],
          singles: [
            singleResponse({ certId: id, thisUpdate: new Date(validTo.getTime() - HOUR), nextUpdate: validTo }),
          ],
        }),
      ),
    );
    expect(check(toEnd, { now: validTo }).signer).to.equal('Invoicing Test Access Point CA OCSP Responder');
  });

  it('refuses an algorithm the signing key cannot make, and a signature that does not verify', () => {
    refused(
      /^it is signed with ecdsa-with-SHA256, which the key of Invoicing Test Access Point CA cannot make$/,
      answer({ algorithm: sequence(oid('1.2.840.10045.4.3.2')) }),
    );
    refused(
      /^its signature does not verify with the key of Invoicing Test Access Point CA$/,
      answer({ signatureBits: (bits) => Buffer.concat([bits.subarray(0, -1), Buffer.from([bits.at(-1)! ^ 1])]) }),
    );
    // The signature made with SHA-256 does not verify as SHA-384: the algorithm's hash is used.
    refused(/does not verify/, answer({ algorithm: sequence(oid('1.2.840.113549.1.1.12'), derNull()) }));
  });

  it('requires the nonce sent, when one was', () => {
    const nonce = Buffer.from('a1a2a3a4a5a6a7a8', 'hex');
    const withNonce = (value: Buffer) => answer({ extensions: [extension(NONCE, octetString(value))] });
    expect(check(withNonce(nonce), { nonce }).status).to.deep.equal({ kind: 'good' });
    refused(/^its nonce is not the one sent$/, withNonce(Buffer.from('a1a2a3a4a5a6a7a9', 'hex')), { nonce });
    refused(/^it does not echo the nonce sent$/, answer(), { nonce });
    expect(check(withNonce(nonce)).status).to.deep.equal({ kind: 'good' });
  });

  it('refuses an answer about another certificate', () => {
    refused(/^it is not about this certificate$/, answer(), {
      certId: certIdOf(pki.other, pki.ca.certificate),
    });
  });

  it('takes a thisUpdate up to the tolerated skew ahead of our clock, not further', () => {
    const at = new Date(Math.ceil(now.getTime() / 1000) * 1000);
    const ahead = (ms: number) => answer({}, { thisUpdate: new Date(at.getTime() + ms) });
    expect(check(ahead(SKEW), { now: at }).status).to.deep.equal({ kind: 'good' });
    refused(/^its thisUpdate .* is in the future$/, ahead(SKEW + 1000), { now: at });
  });

  it('takes a nextUpdate up to the tolerated skew past, not further', () => {
    const at = new Date(Math.ceil(now.getTime() / 1000) * 1000);
    const next = (ms: number) =>
      answer({}, { thisUpdate: new Date(at.getTime() - HOUR), nextUpdate: new Date(at.getTime() - ms) });
    expect(check(next(SKEW), { now: at }).nextUpdate).to.deep.equal(new Date(at.getTime() - SKEW));
    refused(/^it is stale: its nextUpdate .* has passed$/, next(SKEW + 1000), { now: at });
  });

  it('takes an answer without nextUpdate while it is younger than the bound', () => {
    const at = new Date(Math.ceil(now.getTime() / 1000) * 1000);
    const old = (ms: number) => answer({}, { thisUpdate: new Date(at.getTime() - ms), nextUpdate: null });
    expect(check(old(MAX_AGE), { now: at }).nextUpdate).to.equal(null);
    refused(/^it is stale: its thisUpdate .* is too old$/, old(MAX_AGE + 1000), { now: at });
    // With a nextUpdate, its age does not matter.
    expect(
      check(
        answer({}, { thisUpdate: new Date(at.getTime() - 10 * MAX_AGE), nextUpdate: new Date(at.getTime() + HOUR) }),
        {
          now: at,
        },
      ).status,
    ).to.deep.equal({ kind: 'good' });
  });
});
