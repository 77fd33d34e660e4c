import type { X509Certificate } from 'node:crypto';
import { checkCertificate } from './certificates.js';
import type { RevocationLists } from './revocationLists.js';

/**
 * Whether another access point's certificate is accepted: issued by a configured Peppol AP CA,
 * within its validity, and not revoked by a configured CRL of that CA. The AS4 receiver asks it of
 * a message's signer, the sender of a receiver's endpoint certificate (from its SMP).
 */
export class AccessPointTrust {
  constructor(
    readonly apCas: readonly X509Certificate[],
    readonly revocation: RevocationLists | null,
  ) {}

  /** Why `certificate` is not accepted at `now`, or null when it is. */
  problem(certificate: X509Certificate, now: Date): string | null {
    // Without AP CAs checkCertificate would report no issuer problem: then no access point is trusted.
    if (this.apCas.length === 0) return 'no Peppol AP CA is configured (PEPPOL_AP_CA_FILES)';
    const problems = [
      checkCertificate(certificate, 'ap', this.apCas, now).error,
      this.revocation?.problem(certificate, now) ?? null,
    ].filter((p): p is string => p !== null);
    return problems.length === 0 ? null : problems.join('; ');
  }
}

/** The container token of the AccessPointTrust (always registered; without AP CAs it accepts no one). */
export const ACCESS_POINT_TRUST = Symbol('AccessPointTrust');
