import fs from 'node:fs';
import { X509Certificate } from 'node:crypto';
import type { CertificateReport } from '../../application/ports/peppolNetwork.js';

/** Reads a certificate file, PEM or DER (the Peppol CA files are distributed both ways). */
export function readCertificateFile(file: string): X509Certificate {
  const content = fs.readFileSync(file);
  return new X509Certificate(content);
}

/** Every certificate of a PEM bundle or a single DER file. */
export function readCertificates(file: string): X509Certificate[] {
  const content = fs.readFileSync(file);
  const text = content.toString('latin1');
  const pems = text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g);
  return pems ? pems.map((pem) => new X509Certificate(pem)) : [new X509Certificate(content)];
}

/** The base64 DER an SMP Certificate element carries. */
export const base64Der = (certificate: X509Certificate): string => certificate.raw.toString('base64');

const iso = (date: string) => new Date(date).toISOString();
/** A distinguished name as node:crypto gives it (one attribute a line) on one line: `C=BE, O=…, CN=…`. */
export const oneLineName = (name: string): string => name.split('\n').filter(Boolean).join(', ');

/** The subject CN of a certificate (for a Peppol AP: its seat id), or null when it has none. */
export function commonNameOf(certificate: X509Certificate): string | null {
  const line = certificate.subject.split('\n').find((l) => l.startsWith('CN='));
  return line ? line.slice(3) : null;
}

/**
 * Checks a certificate at `now`: within its validity, and, when trust anchors are configured
 * (the Peppol SMP or AP CAs), issued and signed by one of them. Without anchors the issuer is
 * reported but not checked: details.trusted is null.
 */
export function checkCertificate(
  certificate: X509Certificate,
  purpose: string,
  anchors: readonly X509Certificate[],
  now: Date,
): CertificateReport {
  const issuer = anchors.find((ca) => certificate.checkIssued(ca) && certificate.verify(ca.publicKey)) ?? null;
  const details = {
    purpose,
    subject: oneLineName(certificate.subject),
    issuer: oneLineName(certificate.issuer),
    serial_number: certificate.serialNumber,
    valid_from: iso(certificate.validFrom),
    valid_to: iso(certificate.validTo),
    fingerprint_sha256: certificate.fingerprint256,
    trusted: anchors.length === 0 ? null : issuer !== null,
    trusted_issuer: issuer ? oneLineName(issuer.subject) : null,
  };
  const problems: string[] = [];
  if (now < new Date(certificate.validFrom)) problems.push(`not valid before ${details.valid_from}`);
  if (now > new Date(certificate.validTo)) problems.push(`expired on ${details.valid_to}`);
  if (anchors.length > 0 && !issuer) problems.push('not issued by a trusted Peppol CA');
  return {
    status: problems.length === 0 ? 'success' : 'error',
    details,
    error: problems.length === 0 ? null : problems.join('; '),
  };
}
