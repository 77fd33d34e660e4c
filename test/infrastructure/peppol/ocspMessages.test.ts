import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { DerCursor, DerError, readDer, TAG } from '../../../src/infrastructure/peppol/derReader.js';
import { certificateFields } from '../../../src/infrastructure/peppol/certificateDer.js';
import {
  certIdOf,
  keyHashOf,
  ocspRequest,
  parseOcspResponse,
  sameCertId,
  type BasicResponse,
  type CertId,
  type OcspResponse,
  type SingleResponse,
} from '../../../src/infrastructure/peppol/ocspMessages.js';
import { derNodes, withForeignTag, withOverlongLength } from '../../support/derFaults.js';
import { oidText } from '../../../src/infrastructure/peppol/signatureAlgorithms.js';
import { derNull, oid, sequence, tlv, explicit, octetString } from '../../../src/infrastructure/peppol/derWriter.js';
import {
  basicResponse,
  extension,
  NONCE,
  ocspPki,
  ocspResponseDer,
  revokedStatus,
  singleResponse,
  UNKNOWN,
  type OcspPki,
} from '../../support/ocspAnswers.js';

const sha1 = (bytes: Buffer) => createHash('sha1').update(bytes).digest();
const at = (iso: string) => new Date(iso);
const T0 = at('2026-03-01T12:00:00Z');
const basicOf = (response: OcspResponse): BasicResponse => {
  if (response.status !== 'successful') throw new Error(`not successful: ${response.status}`);
  return response.basic;
};
const parseBasic = (basic: Buffer) => basicOf(parseOcspResponse(ocspResponseDer(0, basic)));
const derError = (bytes: Buffer, message: RegExp) => expect(() => parseOcspResponse(bytes)).to.throw(DerError, message);

describe('OCSP messages (RFC 6960): the request, and the response read strictly', function () {
  this.timeout(600_000);
  let pki: OcspPki;
  let id: CertId;
  before(async () => {
    pki = await ocspPki();
    id = certIdOf(pki.leaf.certificate, pki.ca.certificate);
  });

  it("names a certificate by SHA-1 of its issuer's name and key, and its serial", () => {
    const fields = certificateFields(pki.leaf.certificate);
    expect(id.issuerNameHash.equals(sha1(certificateFields(pki.ca.certificate).subject.encoded))).to.equal(true);
    expect(id.issuerNameHash.equals(sha1(fields.issuer.encoded))).to.equal(true);
    expect(id.issuerKeyHash.equals(sha1(certificateFields(pki.ca.certificate).publicKeyBits))).to.equal(true);
    expect(id.issuerKeyHash.equals(keyHashOf(pki.ca.certificate))).to.equal(true);
    expect(id.serial.toString('hex').toUpperCase().replace(/^0+/, '')).to.equal(
      pki.leaf.certificate.serialNumber.replace(/^0+/, ''),
    );
  });

  it('asks for one certificate by its SHA-1 CertID, with the nonce extension only when given', () => {
    const readCertId = (request: Buffer) => {
      const tbs = DerCursor.of(readDer(request, TAG.sequence, 'OCSPRequest')).next(TAG.sequence);
      const tbsFields = DerCursor.of(tbs);
      const requestList = DerCursor.of(tbsFields.next(TAG.sequence));
      const oneRequest = DerCursor.of(requestList.next(TAG.sequence));
      requestList.end('requestList');
      const certId = DerCursor.of(oneRequest.next(TAG.sequence));
      oneRequest.end('Request');
      const algorithm = DerCursor.of(certId.next(TAG.sequence));
      expect(oidText(algorithm.next(TAG.oid).content)).to.equal('1.3.14.3.2.26');
      expect(algorithm.next(TAG.null).content.length).to.equal(0);
      algorithm.end('algorithm');
      expect(certId.next(TAG.octetString).content.equals(id.issuerNameHash)).to.equal(true);
      expect(certId.next(TAG.octetString).content.equals(id.issuerKeyHash)).to.equal(true);
      expect(certId.next(TAG.integer).content.equals(id.serial)).to.equal(true);
      certId.end('CertID');
      return tbsFields;
    };
    readCertId(ocspRequest(id, null)).end('no extensions');
    const nonce = Buffer.from('00112233445566778899aabbccddeeff', 'hex');
    const tbs = readCertId(ocspRequest(id, nonce));
    const extensions = DerCursor.of(readDer(tbs.next(0xa2).content, TAG.sequence, 'requestExtensions'));
    tbs.end('tbsRequest');
    const nonceExtension = DerCursor.of(extensions.next(TAG.sequence));
    extensions.end('one extension');
    expect(oidText(nonceExtension.next(TAG.oid).content)).to.equal(NONCE);
    const value = nonceExtension.next(TAG.octetString).content;
    nonceExtension.end('the nonce extension');
    expect(readDer(value, TAG.octetString, 'nonce').content.equals(nonce)).to.equal(true);
  });

  it('reads every status a responder may answer; an unknown or malformed status is an error', () => {
    const names = ['malformedRequest', 'internalError', 'tryLater', undefined, 'sigRequired', 'unauthorized'];
    names.forEach((name, i) => {
      if (name) expect(parseOcspResponse(ocspResponseDer(i + 1, null))).to.deep.equal({ status: name });
    });
    derError(ocspResponseDer(4, null), /unknown responseStatus 04/);
    derError(ocspResponseDer(7, null), /unknown responseStatus 07/);
    derError(sequence(tlv(TAG.enumerated, Buffer.from([0, 1]))), /unknown responseStatus 0001/);
    derError(ocspResponseDer(0, null), /a successful OCSPResponse without responseBytes/);
    derError(Buffer.concat([ocspResponseDer(3, null), Buffer.from([5, 0])]), /unexpected bytes after/);
    derError(sequence(tlv(TAG.enumerated, Buffer.from([3])), tlv(TAG.null)), /unexpected bytes after OCSPResponse/);
  });

  it('reads a basic response: signed part, algorithm, signature, responder, times, answers, certificates', () => {
    const producedAt = at('2026-03-01T12:00:05Z');
    const bytes = basicResponse({
      signer: pki.responder,
      responderId: 'byName',
      version: 0,
      producedAt,
      certificates: [pki.responder.certificate, pki.ca.certificate],
      singles: [
        singleResponse({ certId: id, thisUpdate: T0, nextUpdate: at('2026-03-02T12:00:00Z') }),
        singleResponse({ certId: id, status: UNKNOWN, thisUpdate: T0 }),
      ],
    });
    const basic = parseBasic(bytes);
    const tbs = DerCursor.of(readDer(bytes, TAG.sequence, 'basic')).next(TAG.sequence).encoded;
    expect(basic.signed.equals(tbs)).to.equal(true);
    expect(basic.algorithm).to.deep.equal({ name: 'sha256WithRSAEncryption', hash: 'sha256', key: 'rsa' });
    expect(basic.signature).to.have.length(256);
    expect(basic.responder).to.deep.equal({
      byName: certificateFields(pki.responder.certificate).subject.encoded,
    });
    expect(basic.producedAt).to.deep.equal(producedAt);
    expect(basic.nonce).to.equal(null);
    expect(basic.certificates.map((c) => c.fingerprint256)).to.deep.equal([
      pki.responder.certificate.fingerprint256,
      pki.ca.certificate.fingerprint256,
    ]);
    expect(basic.responses).to.have.length(2);
    const [first, second] = basic.responses as [SingleResponse, SingleResponse];
    expect(first.hashAlgorithm).to.equal('2b0e03021a');
    expect(first.certId.issuerNameHash.equals(id.issuerNameHash)).to.equal(true);
    expect(first.certId.issuerKeyHash.equals(id.issuerKeyHash)).to.equal(true);
    expect(first.certId.serial.equals(id.serial)).to.equal(true);
    expect(first.status).to.deep.equal({ kind: 'good' });
    expect(first.thisUpdate).to.deep.equal(T0);
    expect(first.nextUpdate).to.deep.equal(at('2026-03-02T12:00:00Z'));
    expect(second.status).to.deep.equal({ kind: 'unknown' });
    expect(second.nextUpdate).to.equal(null);
    expect(parseBasic(basicResponse({ signer: pki.ca, singles: [] })).responder).to.deep.equal({
      byKey: keyHashOf(pki.ca.certificate),
    });
  });

  it('reads a revocation, with its reason when it has one', () => {
    const revokedAt = at('2026-02-01T08:30:00Z');
    const read = (reason: number | null) =>
      parseBasic(
        basicResponse({
          signer: pki.ca,
          singles: [singleResponse({ certId: id, status: revokedStatus(revokedAt, reason), thisUpdate: T0 })],
        }),
      ).responses[0]!.status;
    expect(read(1)).to.deep.equal({ kind: 'revoked', revokedAt, reason: 'keyCompromise' });
    expect(read(null)).to.deep.equal({ kind: 'revoked', revokedAt, reason: null });
    expect(() => read(7)).to.throw(DerError, /unknown revocation reason code 07/);
  });

  it('refuses a status that is none of good, revoked, unknown, or good and unknown with content', () => {
    const single = (status: Buffer) =>
      ocspResponseDer(
        0,
        basicResponse({ signer: pki.ca, singles: [singleResponse({ certId: id, status, thisUpdate: T0 })] }),
      );
    derError(single(tlv(0x80, Buffer.from([0]))), /certStatus at offset \d+ is none of good, revoked, unknown/);
    derError(single(tlv(0x82, Buffer.from([0]))), /is none of good, revoked, unknown/);
    derError(single(tlv(0x83)), /is none of good, revoked, unknown/);
    derError(
      single(explicit(1, tlv(TAG.generalizedTime, Buffer.from('20260201083000Z')), tlv(TAG.null))),
      /unexpected bytes after RevokedInfo/,
    );
  });

  it('takes the nonce wrapped in an OCTET STRING or bare, ignores other extensions unless critical', () => {
    const nonce = Buffer.from('0102030405060708', 'hex');
    const withExtensions = (extensions: Buffer[]) => basicResponse({ signer: pki.ca, singles: [], extensions });
    expect(parseBasic(withExtensions([extension(NONCE, octetString(nonce))])).nonce).to.deep.equal(nonce);
    expect(parseBasic(withExtensions([extension(NONCE, nonce)])).nonce).to.deep.equal(nonce);
    const other = '1.3.6.1.5.5.7.48.1.6';
    expect(parseBasic(withExtensions([extension(other, nonce), extension(other, nonce, false)])).nonce).to.equal(null);
    expect(parseBasic(withExtensions([extension(NONCE, nonce, true)])).nonce).to.deep.equal(nonce);
    derError(
      ocspResponseDer(0, withExtensions([extension(other, nonce, true)])),
      /critical response extension 1\.3\.6\.1\.5\.5\.7\.48\.1\.6 is not processed here/,
    );
    const single = (extensions: Buffer[]) =>
      basicResponse({ signer: pki.ca, singles: [singleResponse({ certId: id, thisUpdate: T0, extensions })] });
    expect(parseBasic(single([extension(other, nonce)])).responses).to.have.length(1);
    derError(ocspResponseDer(0, single([extension(other, nonce, true)])), /critical single response extension/);
    derError(
      ocspResponseDer(0, withExtensions([sequence(oid(other), octetString(nonce), tlv(TAG.null))])),
      /unexpected bytes after response extension/,
    );
  });

  it('refuses what is not a version 1 basic response with a whole-byte signature and a known responder id', () => {
    derError(
      ocspResponseDer(0, basicResponse({ signer: pki.ca, singles: [] }), '1.3.6.1.5.5.7.48.1.99'),
      /response type 1\.3\.6\.1\.5\.5\.7\.48\.1\.99 is not id-pkix-ocsp-basic/,
    );
    derError(
      ocspResponseDer(0, basicResponse({ signer: pki.ca, singles: [], version: 1 })),
      /only version 1 OCSP responses are read/,
    );
    derError(
      ocspResponseDer(
        0,
        basicResponse({ signer: pki.ca, singles: [], responderId: explicit(3, octetString(Buffer.alloc(20))) }),
      ),
      /responderID at offset \d+ is neither byName nor byKey/,
    );
    derError(
      ocspResponseDer(
        0,
        basicResponse({
          signer: pki.ca,
          singles: [],
          signatureBits: (b) => Buffer.concat([Buffer.from([1]), b.subarray(1)]),
        }),
      ),
      /the signature is not a whole-byte BIT STRING/,
    );
    derError(
      ocspResponseDer(0, basicResponse({ signer: pki.ca, singles: [], signatureBits: () => Buffer.from([0]) })),
      /the signature is not a whole-byte BIT STRING/,
    );
    const basic = basicResponse({ signer: pki.ca, singles: [] });
    derError(
      sequence(
        tlv(TAG.enumerated, Buffer.from([0])),
        explicit(0, sequence(oid('1.3.6.1.5.5.7.48.1.1'), octetString(basic), tlv(TAG.null))),
      ),
      /unexpected bytes after ResponseBytes/,
    );
  });

  it('matches an answer to a CertID by SHA-1 hashes and serial value (leading zeros aside)', () => {
    const single = (over: Partial<CertId> = {}, hashOid?: string) =>
      parseBasic(
        basicResponse({
          signer: pki.ca,
          singles: [singleResponse({ certId: { ...id, ...over }, hashOid, thisUpdate: T0 })],
        }),
      ).responses[0]!;
    expect(sameCertId(single(), id)).to.equal(true);
    const padded = { ...id, serial: Buffer.concat([Buffer.from([0]), id.serial]) };
    expect(sameCertId(single(), padded)).to.equal(true);
    expect(sameCertId(single({}, '2.16.840.1.101.3.4.2.1'), id)).to.equal(false);
    expect(sameCertId(single({ issuerNameHash: Buffer.alloc(20) }), id)).to.equal(false);
    expect(sameCertId(single({ issuerKeyHash: Buffer.alloc(20) }), id)).to.equal(false);
    expect(sameCertId(single({ serial: Buffer.from([0x7f]) }), id)).to.equal(false);
  });

  it('names the field that is wrong, wherever the response is malformed', () => {
    const nonce = Buffer.from('0102030405060708', 'hex');
    const full = ocspResponseDer(
      0,
      basicResponse({
        signer: pki.responder,
        version: 0,
        certificates: [pki.responder.certificate],
        singles: [
          singleResponse({
            certId: id,
            status: revokedStatus(T0, 1),
            thisUpdate: T0,
            nextUpdate: at('2026-03-02T12:00:00Z'),
            extensions: [extension('1.3.6.1.5.5.7.48.1.6', nonce, false)],
          }),
        ],
        extensions: [extension(NONCE, octetString(nonce), false)],
      }),
    );
    const byName = ocspResponseDer(0, basicResponse({ signer: pki.ca, responderId: 'byName', singles: [] }));
    // Signed data that ends before its responderID, with a signature of one byte.
    const empty = ocspResponseDer(
      0,
      sequence(sequence(), sequence(oid('1.2.840.113549.1.1.11'), derNull()), tlv(TAG.bitString, Buffer.from([0, 1]))),
    );
    const messages = new Set<string>();
    const exact = new Set<string>();
    // (Its one-byte signature is read: a whole byte.)
    expect(() => parseOcspResponse(empty)).to.throw(DerError, /^responderID missing at offset \d+$/);
    // Short enough that a version claiming 127 bytes claims more than there is.
    const short = ocspResponseDer(0, basicResponse({ signer: pki.ca, version: 0, singles: [] }));
    for (const bytes of [full, byName, short]) {
      const nodes = derNodes(bytes, (encoded) => encoded.equals(pki.responder.certificate.raw));
      const faults = nodes.flatMap((node) => [
        withForeignTag(bytes, node),
        withOverlongLength(bytes, node),
        ...(node.tag === TAG.generalizedTime
          ? [withForeignTag(bytes, { ...node, offset: node.offset + node.headerLength })]
          : []),
      ]);
      for (const fault of faults) {
        try {
          parseOcspResponse(fault);
        } catch (error) {
          if (!(error instanceof DerError)) continue;
          messages.add(error.message.replace(/\d+/g, 'N'));
          exact.add(error.message);
        }
      }
    }
    const said = [...messages];
    const missing = (pattern: (name: string) => RegExp, names: string[]) =>
      names.filter((name) => !said.some((m) => pattern(name).test(m)));
    const field = (name: string) => new RegExp(`^${name}(: expected tag| at offset N claims| missing at)`);
    const time = (name: string) => new RegExp(`^${name} at offset N is not a UTCTime or GeneralizedTime in UTC$`);
    const after = (name: string) => new RegExp(`^unexpected bytes after ${name} at offset N$`);
    const fields = ['OCSPResponse', 'responseStatus', 'responseBytes', 'ResponseBytes', 'responseType', 'response'];
    fields.push('BasicOCSPResponse', 'tbsResponseData', 'signatureAlgorithm', 'signature', 'certs', 'certificate');
    fields.push('version', 'responderID', 'responder name', 'responder key hash', 'producedAt', 'responses');
    fields.push('SingleResponse', 'certID', 'hashAlgorithm', 'hash algorithm', 'hash algorithm parameters');
    fields.push('issuerNameHash', 'issuerKeyHash', 'serialNumber', 'certStatus', 'revocationTime', 'revocationReason');
    fields.push('thisUpdate', 'nextUpdate', 'singleExtensions', 'responseExtensions', 'nonce');
    for (const scope of ['response extension', 'single response extension'])
      fields.push(scope, `${scope} id`, `${scope} critical flag`, `${scope} value`);
    expect(missing(field, fields), 'fields not named').to.deep.equal([]);
    expect(missing(time, ['producedAt', 'revocationTime', 'thisUpdate', 'nextUpdate']), 'times').to.deep.equal([]);
    const ends = ['OCSPResponse', 'BasicOCSPResponse', 'tbsResponseData', 'version', 'SingleResponse'];
    ends.push('CertID', 'the hash algorithm', 'RevokedInfo');
    expect(missing(after, ends), 'ends').to.deep.equal([]);
    // An OPTIONAL [0] field is named both where its wrapper claims too much (at its offset) and where
    // what it wraps is not what it should be (read on its own, at offset 0).
    const wrapped = ['version', 'certs', 'nextUpdate', 'revocationReason'];
    const outer = (name: string) => new RegExp(`^${name} at offset [1-9]\\d* claims`);
    const inner = (name: string) => new RegExp(`^${name}: expected tag 0x[0-9a-f]{2}, found 0x0c at offset 0$`);
    for (const pattern of [outer, inner])
      expect(
        wrapped.filter((name) => ![...exact].some((m) => pattern(name).test(m))),
        String(pattern('x')),
      ).to.deep.equal([]);
  });
});
