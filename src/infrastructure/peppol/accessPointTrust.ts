import type { X509Certificate } from 'node:crypto';
import { checkCertificate, commonNameOf, oneLineName } from './certificates.js';
import type { OcspChecker, OcspStatus } from './ocspChecker.js';
import type { RevocationLists } from './revocationLists.js';

/**
 * What is done with a certificate whose revocation OCSP could not establish (responder down, an
 * error, an invalid or stale answer, status unknown), AS4_OCSP_FAILURE_POLICY:
 * - crl: the CRL of its CA decides (it is checked anyway) when one is configured; without one the
 *   certificate is refused for now;
 * - accept: accepted, with a warning;
 * - refuse: refused for now.
 * A refusal for now is temporary: a received message is answered with a retryable ebMS error,
 * a sending attempt is retried.
 */
export type OcspFailurePolicy = 'crl' | 'accept' | 'refuse';
export const OCSP_FAILURE_POLICIES: readonly OcspFailurePolicy[] = ['crl', 'accept', 'refuse'];

/** Why a certificate is not accepted; `temporary` when it may be accepted later (revocation status unknown now). */
export interface TrustProblem {
  reason: string;
  temporary: boolean;
}

export interface RevocationChecks {
  /** The CRLs of the AP CAs (AS4_CRL_FILES), or null. */
  crls: RevocationLists | null;
  /** OCSP (on unless AS4_OCSP=false), or null. */
  ocsp: OcspChecker | null;
  failurePolicy: OcspFailurePolicy;
  /** One line per undetermined OCSP status that is accepted anyway (not once per message). */
  warn: (message: string) => void;
}

const NO_REVOCATION_CHECKS: RevocationChecks = { crls: null, ocsp: null, failurePolicy: 'crl', warn: () => {} };

const day = (date: Date) => date.toISOString();

/**
 * Whether another access point's certificate is accepted: issued by a configured Peppol AP CA,
 * within its validity, not revoked by a configured CRL of that CA, and, when it names an OCSP
 * responder, not revoked by that responder's answer (see OcspFailurePolicy for when there is none).
 * The AS4 receiver asks it of a message's signer, the sender of a receiver's endpoint certificate
 * (from its SMP).
 */
export class AccessPointTrust {
  /** The undetermined OCSP statuses already warned about (each is kept a while by the checker). */
  private readonly warned = new WeakSet<OcspStatus>();

  constructor(
    readonly apCas: readonly X509Certificate[],
    private readonly revocation: RevocationChecks = NO_REVOCATION_CHECKS,
  ) {}

  /** Why `certificate` is not accepted at `now`, or null when it is. */
  async check(certificate: X509Certificate, now: Date): Promise<TrustProblem | null> {
    // Without AP CAs checkCertificate would report no issuer problem: then no access point is trusted.
    if (this.apCas.length === 0)
      return { reason: 'no Peppol AP CA is configured (PEPPOL_AP_CA_FILES)', temporary: false };
    const problems = [
      checkCertificate(certificate, 'ap', this.apCas, now).error,
      this.revocation.crls?.problem(certificate, now) ?? null,
    ].filter((p): p is string => p !== null);
    if (problems.length > 0) return { reason: problems.join('; '), temporary: false };
    const { ocsp } = this.revocation;
    if (!ocsp) return null;
    const issuer = this.apCas.find((ca) => certificate.checkIssued(ca) && certificate.verify(ca.publicKey))!;
    const status = await ocsp.status(certificate, issuer, now);
    switch (status.kind) {
      case 'no-responder':
      case 'good':
        return null;
      case 'revoked':
        return {
          reason:
            `revoked on ${day(status.revokedAt)} (OCSP responder ${status.url}` +
            `${status.reason ? `, reason ${status.reason}` : ''})`,
          temporary: false,
        };
      case 'undetermined':
        return this.undetermined(certificate, issuer, status);
    }
  }

  private undetermined(
    certificate: X509Certificate,
    issuer: X509Certificate,
    status: Extract<OcspStatus, { kind: 'undetermined' }>,
  ): TrustProblem | null {
    const subject = oneLineName(certificate.subject);
    const caName = commonNameOf(issuer) ?? oneLineName(issuer.subject);
    const policy = this.revocation.failurePolicy;
    const covered = this.revocation.crls?.covers(issuer) ?? false;
    if (policy === 'refuse' || (policy === 'crl' && !covered))
      return {
        reason:
          `its revocation status cannot be established now: ${status.why}` +
          (policy === 'crl' ? ` (and AS4_CRL_FILES has no CRL of ${caName} to fall back on)` : ''),
        temporary: true,
      };
    if (!this.warned.has(status)) {
      this.warned.add(status);
      this.revocation.warn(
        `OCSP gave no revocation status for ${subject}: ${status.why}; accepted ` +
          (policy === 'crl'
            ? `because the CRL of ${caName} does not list it`
            : 'as AS4_OCSP_FAILURE_POLICY=accept says'),
      );
    }
    return null;
  }
}

/** The container token of the AccessPointTrust (always registered; without AP CAs it accepts no one). */
export const ACCESS_POINT_TRUST = Symbol('AccessPointTrust');
