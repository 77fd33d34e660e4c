import { createHash, type X509Certificate, X509Certificate as Certificate } from 'node:crypto';
import { certificateFields } from './certificateDer.js';
import { DerCursor, DerError, integerHex, normalizedHex, readDer, readTime, TAG, type Der } from './derReader.js';
import { derNull, explicit, octetString, oid, sequence, tlv } from './derWriter.js';
import { crlReasonName } from './revocationLists.js';
import { oidText, readAlgorithm, type SignatureAlgorithm } from './signatureAlgorithms.js';

/**
 * OCSP (RFC 6960) on the wire: the request for one certificate's status, and the response read by
 * the strict DER reader. What a response means for the certificate (who signed it, whether it is
 * current) is ocspResponseCheck's question.
 */

const SHA1_OID = '2b0e03021a';
const BASIC_RESPONSE_OID = '2b0601050507300101';
const NONCE_OID = '2b0601050507300102';

/** CertID: the certificate named by its issuer's name and key hashes (SHA-1, as every responder takes) and serial. */
export interface CertId {
  issuerNameHash: Buffer;
  issuerKeyHash: Buffer;
  /** The serialNumber INTEGER's content. */
  serial: Buffer;
}

const sha1 = (bytes: Buffer): Buffer => createHash('sha1').update(bytes).digest();

export function certIdOf(certificate: X509Certificate, issuer: X509Certificate): CertId {
  const fields = certificateFields(certificate);
  return {
    issuerNameHash: sha1(fields.issuer.encoded),
    issuerKeyHash: sha1(certificateFields(issuer).publicKeyBits),
    serial: fields.serial.content,
  };
}

/** The DER OCSPRequest for one certificate, unsigned, with the nonce extension (RFC 8954) when one is given. */
export function ocspRequest(id: CertId, nonce: Buffer | null): Buffer {
  const certId = sequence(
    sequence(tlv(TAG.oid, Buffer.from(SHA1_OID, 'hex')), derNull()),
    octetString(id.issuerNameHash),
    octetString(id.issuerKeyHash),
    tlv(TAG.integer, id.serial),
  );
  const extensions = nonce
    ? [explicit(2, sequence(sequence(oid('1.3.6.1.5.5.7.48.1.2'), octetString(octetString(nonce)))))]
    : [];
  return sequence(sequence(sequence(sequence(certId)), ...extensions));
}

export type CertStatus =
  { kind: 'good' } | { kind: 'revoked'; revokedAt: Date; reason: string | null } | { kind: 'unknown' };

export interface SingleResponse {
  certId: CertId;
  /** The CertID's hash algorithm OID (hex content): SHA-1 is the only one matched. */
  hashAlgorithm: string;
  status: CertStatus;
  thisUpdate: Date;
  nextUpdate: Date | null;
}

export type ResponderId = { byName: Buffer } | { byKey: Buffer };

/** A BasicOCSPResponse as encoded, its signature not yet checked. */
export interface BasicResponse {
  /** tbsResponseData as encoded: what the signature covers. */
  signed: Buffer;
  algorithm: SignatureAlgorithm;
  signature: Buffer;
  responder: ResponderId;
  producedAt: Date;
  responses: SingleResponse[];
  /** The nonce extension's value, or null. */
  nonce: Buffer | null;
  /** The certificates the responder sent along (a delegated responder's certificate). */
  certificates: X509Certificate[];
}

const RESPONSE_STATUSES = [
  'successful',
  'malformedRequest',
  'internalError',
  'tryLater',
  null,
  'sigRequired',
  'unauthorized',
] as const;
export type ResponseStatus = Exclude<(typeof RESPONSE_STATUSES)[number], null>;

export type OcspResponse =
  { status: 'successful'; basic: BasicResponse } | { status: Exclude<ResponseStatus, 'successful'> };

/** Extensions: the nonce's value when present; a critical extension other than the nonce is refused. */
function readExtensions(der: Der, what: string): { nonce: Buffer | null } {
  const list = DerCursor.of(readDer(der.content, TAG.sequence, what));
  let nonce: Buffer | null = null;
  while (!list.done) {
    const extension = DerCursor.of(list.next(TAG.sequence, what));
    const id = extension.next(TAG.oid, `${what} id`).content.toString('hex');
    const critical = extension.optional(TAG.boolean, `${what} critical flag`);
    const value = extension.next(TAG.octetString, `${what} value`).content;
    extension.end(what);
    if (id === NONCE_OID) {
      // RFC 8954 wraps the nonce in an OCTET STRING; some responders send it bare.
      nonce = value[0] === TAG.octetString ? readDer(value, TAG.octetString, 'nonce').content : value;
    } else if (critical && critical.content[0] !== 0x00)
      throw new DerError(`critical ${what} ${oidText(Buffer.from(id, 'hex'))} is not processed here`);
  }
  return { nonce };
}

function readCertId(der: Der): { certId: CertId; hashAlgorithm: string } {
  const fields = DerCursor.of(der);
  const algorithm = DerCursor.of(fields.next(TAG.sequence, 'hashAlgorithm'));
  const hashAlgorithm = algorithm.next(TAG.oid, 'hash algorithm').content.toString('hex');
  algorithm.optional(TAG.null, 'hash algorithm parameters');
  algorithm.end('the hash algorithm');
  const issuerNameHash = fields.next(TAG.octetString, 'issuerNameHash').content;
  const issuerKeyHash = fields.next(TAG.octetString, 'issuerKeyHash').content;
  const serial = fields.next(TAG.integer, 'serialNumber');
  integerHex(serial);
  fields.end('CertID');
  return { certId: { issuerNameHash, issuerKeyHash, serial: serial.content }, hashAlgorithm };
}

function readCertStatus(der: Der): CertStatus {
  // CertStatus ::= CHOICE { good [0] IMPLICIT NULL, revoked [1] IMPLICIT RevokedInfo, unknown [2] IMPLICIT NULL }
  if (der.tag === 0x80 && der.content.length === 0) return { kind: 'good' };
  if (der.tag === 0x82 && der.content.length === 0) return { kind: 'unknown' };
  if (der.tag !== 0xa1) throw new DerError(`certStatus at offset ${der.offset} is none of good, revoked, unknown`);
  const info = DerCursor.of(der);
  const revokedAt = readTime(info.next(TAG.generalizedTime, 'revocationTime'), 'revocationTime');
  const reasonDer = info.optional(0xa0, 'revocationReason');
  info.end('RevokedInfo');
  const reason = reasonDer ? crlReasonName(readDer(reasonDer.content, TAG.enumerated, 'revocationReason')) : null;
  return { kind: 'revoked', revokedAt, reason };
}

function readSingleResponse(der: Der): SingleResponse {
  const fields = DerCursor.of(der);
  const { certId, hashAlgorithm } = readCertId(fields.next(TAG.sequence, 'certID'));
  const status = readCertStatus(fields.next(undefined, 'certStatus'));
  const thisUpdate = readTime(fields.next(TAG.generalizedTime, 'thisUpdate'), 'thisUpdate');
  const next = fields.optional(0xa0, 'nextUpdate');
  const nextUpdate = next ? readTime(readDer(next.content, TAG.generalizedTime, 'nextUpdate'), 'nextUpdate') : null;
  const extensions = fields.optional(0xa1, 'singleExtensions');
  if (extensions) readExtensions(extensions, 'single response extension');
  fields.end('SingleResponse');
  return { certId, hashAlgorithm, status, thisUpdate, nextUpdate };
}

function readResponder(der: Der): ResponderId {
  // ResponderID ::= CHOICE { byName [1] Name, byKey [2] KeyHash (OCTET STRING) }
  if (der.tag === 0xa1) return { byName: readDer(der.content, TAG.sequence, 'responder name').encoded };
  if (der.tag === 0xa2) return { byKey: readDer(der.content, TAG.octetString, 'responder key hash').content };
  throw new DerError(`responderID at offset ${der.offset} is neither byName nor byKey`);
}

function readBasicResponse(bytes: Buffer): BasicResponse {
  const outer = DerCursor.of(readDer(bytes, TAG.sequence, 'BasicOCSPResponse'));
  const tbs = outer.next(TAG.sequence, 'tbsResponseData');
  const algorithm = readAlgorithm(outer.next(TAG.sequence, 'signatureAlgorithm'));
  const bits = outer.next(TAG.bitString, 'signature');
  if (bits.content.length < 2 || bits.content[0] !== 0)
    throw new DerError('the signature is not a whole-byte BIT STRING');
  const certs = outer.optional(0xa0, 'certs');
  outer.end('BasicOCSPResponse');
  const certificates: X509Certificate[] = [];
  if (certs) {
    const list = DerCursor.of(readDer(certs.content, TAG.sequence, 'certs'));
    while (!list.done) certificates.push(new Certificate(list.next(TAG.sequence, 'certificate').encoded));
  }

  const data = DerCursor.of(tbs);
  const version = data.optional(0xa0, 'version');
  if (version && integerHex(readDer(version.content, TAG.integer, 'version')) !== '0')
    throw new DerError('only version 1 OCSP responses are read');
  const responder = readResponder(data.next(undefined, 'responderID'));
  const producedAt = readTime(data.next(TAG.generalizedTime, 'producedAt'), 'producedAt');
  const list = DerCursor.of(data.next(TAG.sequence, 'responses'));
  const responses: SingleResponse[] = [];
  while (!list.done) responses.push(readSingleResponse(list.next(TAG.sequence, 'SingleResponse')));
  const extensions = data.optional(0xa1, 'responseExtensions');
  data.end('tbsResponseData');
  return {
    signed: tbs.encoded,
    algorithm,
    signature: bits.content.subarray(1),
    responder,
    producedAt,
    responses,
    nonce: extensions ? readExtensions(extensions, 'response extension').nonce : null,
    certificates,
  };
}

/** Parses a DER OCSPResponse; a successful one must be a BasicOCSPResponse. A DerError says what is wrong. */
export function parseOcspResponse(bytes: Buffer): OcspResponse {
  const outer = DerCursor.of(readDer(bytes, TAG.sequence, 'OCSPResponse'));
  const statusDer = outer.next(TAG.enumerated, 'responseStatus');
  const status = statusDer.content.length === 1 ? RESPONSE_STATUSES[statusDer.content[0]!] : undefined;
  if (!status) throw new DerError(`unknown responseStatus ${statusDer.content.toString('hex')}`);
  const responseBytes = outer.optional(0xa0, 'responseBytes');
  outer.end('OCSPResponse');
  if (status !== 'successful') return { status };
  if (!responseBytes) throw new DerError('a successful OCSPResponse without responseBytes');
  const inner = DerCursor.of(readDer(responseBytes.content, TAG.sequence, 'ResponseBytes'));
  const type = inner.next(TAG.oid, 'responseType').content.toString('hex');
  const response = inner.next(TAG.octetString, 'response').content;
  inner.end('ResponseBytes');
  if (type !== BASIC_RESPONSE_OID)
    throw new DerError(`response type ${oidText(Buffer.from(type, 'hex'))} is not id-pkix-ocsp-basic`);
  return { status, basic: readBasicResponse(response) };
}

/** Whether a SingleResponse is about the certificate `id` names (SHA-1 CertIDs only, as asked). */
export function sameCertId(response: SingleResponse, id: CertId): boolean {
  return (
    response.hashAlgorithm === SHA1_OID &&
    response.certId.issuerNameHash.equals(id.issuerNameHash) &&
    response.certId.issuerKeyHash.equals(id.issuerKeyHash) &&
    normalizedHex(response.certId.serial.toString('hex')) === normalizedHex(id.serial.toString('hex'))
  );
}

/** SHA-1 of a certificate's public key bits: how a ResponderID byKey names its signer. */
export const keyHashOf = (certificate: X509Certificate): Buffer => sha1(certificateFields(certificate).publicKeyBits);
