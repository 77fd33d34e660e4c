import { verify, type X509Certificate } from 'node:crypto';
import { certificateFields } from './certificateDer.js';
import { commonNameOf, oneLineName } from './certificates.js';
import {
  keyHashOf,
  sameCertId,
  type BasicResponse,
  type CertId,
  type CertStatus,
  type OcspResponse,
} from './ocspMessages.js';

/**
 * What an OCSP response (RFC 6960 section 3.2) says about one certificate, once it is shown to be
 * trustworthy: signed by the certificate's issuer, or by a responder certificate that the issuer
 * issued for OCSP signing (id-kp-OCSPSigning) and that is valid now; about this very certificate;
 * current (thisUpdate not in the future, nextUpdate not past); and carrying our nonce when we sent
 * one. Any other response is an OcspInvalid naming what is wrong: it says nothing about the
 * certificate.
 */

const OCSP_SIGNING = '1.3.6.1.5.5.7.3.9';

export class OcspInvalid extends Error {}

export interface ResponseExpectations {
  certificate: X509Certificate;
  issuer: X509Certificate;
  certId: CertId;
  /** The nonce sent, or null. */
  nonce: Buffer | null;
  now: Date;
  /** How old an answer without nextUpdate may be. */
  maxAgeMs: number;
  /** Tolerated difference between our clock and the responder's. */
  skewMs: number;
}

export interface OcspAnswer {
  status: CertStatus;
  thisUpdate: Date;
  nextUpdate: Date | null;
  /** Who signed it, for messages: the CA, or the delegated responder's CN. */
  signer: string;
}

const nameOf = (certificate: X509Certificate) => commonNameOf(certificate) ?? oneLineName(certificate.subject);

function signerOf(basic: BasicResponse, issuer: X509Certificate, now: Date): X509Certificate {
  const responder = basic.responder;
  const named = (candidate: X509Certificate) =>
    'byName' in responder
      ? certificateFields(candidate).subject.encoded.equals(responder.byName)
      : keyHashOf(candidate).equals(responder.byKey);
  if (named(issuer)) return issuer;
  const delegated = basic.certificates.find(named);
  if (!delegated)
    throw new OcspInvalid('it is signed by neither the issuing CA nor a responder certificate it carries');
  if (!delegated.checkIssued(issuer) || !delegated.verify(issuer.publicKey))
    throw new OcspInvalid(`its responder certificate ${nameOf(delegated)} was not issued by ${nameOf(issuer)}`);
  if (!(delegated.keyUsage ?? []).includes(OCSP_SIGNING))
    throw new OcspInvalid(`its responder certificate ${nameOf(delegated)} is not for OCSP signing (id-kp-OCSPSigning)`);
  if (now < new Date(delegated.validFrom) || now > new Date(delegated.validTo))
    throw new OcspInvalid(`its responder certificate ${nameOf(delegated)} is not valid now`);
  return delegated;
}

export function checkOcspResponse(response: OcspResponse, expected: ResponseExpectations): OcspAnswer {
  if (response.status !== 'successful') throw new OcspInvalid(`the responder answered "${response.status}"`);
  const basic = response.basic;
  const signer = signerOf(basic, expected.issuer, expected.now);
  if (signer.publicKey.asymmetricKeyType !== basic.algorithm.key)
    throw new OcspInvalid(`it is signed with ${basic.algorithm.name}, which the key of ${nameOf(signer)} cannot make`);
  if (!verify(basic.algorithm.hash, basic.signed, signer.publicKey, basic.signature))
    throw new OcspInvalid(`its signature does not verify with the key of ${nameOf(signer)}`);
  if (expected.nonce && !basic.nonce?.equals(expected.nonce))
    throw new OcspInvalid(basic.nonce ? 'its nonce is not the one sent' : 'it does not echo the nonce sent');
  const single = basic.responses.find((r) => sameCertId(r, expected.certId));
  if (!single) throw new OcspInvalid('it is not about this certificate');
  const now = expected.now.getTime();
  if (single.thisUpdate.getTime() > now + expected.skewMs)
    throw new OcspInvalid(`its thisUpdate ${single.thisUpdate.toISOString()} is in the future`);
  if (single.nextUpdate && single.nextUpdate.getTime() + expected.skewMs < now)
    throw new OcspInvalid(`it is stale: its nextUpdate ${single.nextUpdate.toISOString()} has passed`);
  if (!single.nextUpdate && single.thisUpdate.getTime() + expected.maxAgeMs < now)
    throw new OcspInvalid(`it is stale: its thisUpdate ${single.thisUpdate.toISOString()} is too old`);
  return {
    status: single.status,
    thisUpdate: single.thisUpdate,
    nextUpdate: single.nextUpdate,
    signer: nameOf(signer),
  };
}
