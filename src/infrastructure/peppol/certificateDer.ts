import type { X509Certificate } from 'node:crypto';
import { DerCursor, DerError, readDer, TAG, type Der } from './derReader.js';

/** The fields of a certificate's tbsCertificate that node:crypto gives only as text, as encoded. */
export interface CertificateFields {
  serial: Der;
  issuer: Der;
  subject: Der;
  /** The subjectPublicKey BIT STRING's bits (without the unused-bits byte): what OCSP key hashes cover. */
  publicKeyBits: Buffer;
}

export function certificateFields(certificate: X509Certificate): CertificateFields {
  const tbs = DerCursor.of(DerCursor.of(readDer(certificate.raw, TAG.sequence, 'Certificate')).next(TAG.sequence));
  tbs.optional(0xa0, 'version');
  const serial = tbs.next(TAG.integer, 'serialNumber');
  tbs.next(TAG.sequence, 'signature');
  const issuer = tbs.next(TAG.sequence, 'issuer');
  tbs.next(TAG.sequence, 'validity');
  const subject = tbs.next(TAG.sequence, 'subject');
  const spki = DerCursor.of(tbs.next(TAG.sequence, 'subjectPublicKeyInfo'));
  spki.next(TAG.sequence, 'algorithm');
  const bits = spki.next(TAG.bitString, 'subjectPublicKey');
  if (bits.content.length < 2 || bits.content[0] !== 0)
    throw new DerError('the public key is not a whole-byte BIT STRING');
  return { serial, issuer, subject, publicKeyBits: bits.content.subarray(1) };
}
