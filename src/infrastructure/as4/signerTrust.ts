import type { X509Certificate } from 'node:crypto';

/**
 * Whether another access point's signing certificate is one this AP accepts: issued (and signed)
 * by one of the configured Peppol AP CAs, and within its validity, as is the CA. The reason when
 * not, null when it is accepted. Revocation is checked by `revoked` when CRLs are configured.
 */
export function apCertificateProblem(
  certificate: X509Certificate,
  apCas: readonly X509Certificate[],
  now: Date,
  revoked: (certificate: X509Certificate, issuer: X509Certificate) => string | null = () => null,
): string | null {
  const outside = validityProblem(certificate, now);
  if (outside) return outside;
  const issuer = apCas.find((ca) => certificate.checkIssued(ca) && certificate.verify(ca.publicKey));
  if (!issuer)
    return `it is not issued by a trusted Peppol AP CA (issuer ${certificate.issuer.split('\n').join(', ')})`;
  const issuerOutside = validityProblem(issuer, now);
  if (issuerOutside) return `its issuing CA: ${issuerOutside}`;
  return revoked(certificate, issuer);
}

function validityProblem(certificate: X509Certificate, now: Date): string | null {
  const from = new Date(certificate.validFrom);
  const to = new Date(certificate.validTo);
  if (now.getTime() < from.getTime()) return `it is not valid before ${from.toISOString()}`;
  if (now.getTime() > to.getTime()) return `it expired on ${to.toISOString()}`;
  return null;
}
