import fs from 'node:fs';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import type { PeppolConfig } from '../peppolConfig.js';
import { commonNameOf, readCertificates } from '../peppol/certificates.js';
import { isPeppolSeatId } from '../../domain/peppol/as4/peppolProfile.js';
import type { SigningKey } from './wsSecuritySignature.js';

/**
 * This access point on the Peppol network: its key and certificate (which sign what we send and
 * decrypt what we receive) and its seat id, the certificate's subject CN, which is also its AS4
 * party id. The AS4 adapters take it from the container under this token (null: AS4 is off).
 */
export interface AccessPointIdentity {
  seatId: string;
  key: SigningKey;
  /** Other access points' certificates are accepted when issued by one of these (the Peppol AP CAs). */
  apCas: readonly X509Certificate[];
  /** Plain-HTTP endpoints on loopback are allowed (tests and local demos only). */
  allowPlainHttpLoopback: boolean;
}

export const ACCESS_POINT_IDENTITY = Symbol('AccessPointIdentity');

/** Reads the configured key and certificate; null when neither is configured, an Error when they are wrong. */
export function loadAccessPointIdentity(config: PeppolConfig): AccessPointIdentity | null {
  const keyPem = config.as4KeyPem ?? (config.as4KeyFile ? fs.readFileSync(config.as4KeyFile, 'utf8') : null);
  if (keyPem === null) return null;
  const certificate = config.as4CertificatePem
    ? new X509Certificate(config.as4CertificatePem)
    : new X509Certificate(fs.readFileSync(config.as4CertificateFile!));
  const privateKey = createPrivateKey(keyPem);
  if (!certificate.checkPrivateKey(privateKey)) throw new Error('AS4_KEY_FILE is not the key of AS4_CERTIFICATE_FILE');
  const seatId = commonNameOf(certificate);
  if (!seatId || !isPeppolSeatId(seatId)) {
    // phase4 and the Peppol AS4 profile take the CN as the party id and refuse other forms.
    throw new Error(
      `the AS4 certificate's subject CN must be a Peppol seat id (P + 2 letters + 6 digits), got "${seatId}"`,
    );
  }
  return {
    seatId,
    key: { privateKey, certificate },
    apCas: config.apCaFiles.flatMap(readCertificates),
    allowPlainHttpLoopback: config.as4AllowPlainHttpLoopback,
  };
}
