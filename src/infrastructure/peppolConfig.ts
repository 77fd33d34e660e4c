import { PEPPOL_PRODUCTION_SML_ZONE } from '../domain/peppol/smlName.js';
import { spidOf } from '../domain/peppol/mls/serviceProviderId.js';
import { OCSP_FAILURE_POLICIES, type OcspFailurePolicy } from './peppol/accessPointTrust.js';

/** Peppol settings (registration, SMP, lookup, Directory, SML); see the README's Peppol section. */
export interface PeppolConfig {
  /** Public base URL of this service (SMP hrefs, the default AS4 endpoint); unset: taken from each request's Host. */
  publicUrl: string | null;
  /** The AS4 endpoint published in ServiceMetadata; default `<public URL>/as4`. */
  as4EndpointUrl: string | null;
  /**
   * This access point's certificate (PEM or DER file, or PEM in AS4_CERTIFICATE_PEM): published in
   * ServiceMetadata, signs AS4 messages and receipts. Its subject CN is the Peppol seat id, which is
   * also the AS4 party id. Unset: an empty Certificate element and no AS4.
   */
  as4CertificateFile: string | null;
  as4CertificatePem: string | null;
  /** The PEM private key of that certificate (AS4_KEY_FILE, or AS4_KEY_PEM); AS4 needs both. */
  as4KeyFile: string | null;
  as4KeyPem: string | null;
  /** Trusted Peppol AP CAs (PEM or DER files, PEPPOL_AP_CA_FILES): an AS4 signer must be issued by one. */
  apCaFiles: string[];
  /** CRLs (PEM or DER files, AS4_CRL_FILES) against which AS4 signers are checked for revocation; none: not checked. */
  crlFiles: string[];
  /**
   * Other access points' certificates that name an OCSP responder are checked by it (AS4_OCSP,
   * default true), on receipt (the signer) and before sending (the receiver's SMP certificate).
   */
  ocsp: boolean;
  /** When OCSP gives no status (AS4_OCSP_FAILURE_POLICY): crl (default), accept or refuse; see OcspFailurePolicy. */
  ocspFailurePolicy: OcspFailurePolicy;
  /** Time limit of one OCSP request, in ms (AS4_OCSP_TIMEOUT_MS). */
  ocspTimeoutMs: number;
  /** Longest time an OCSP answer is kept, in seconds (AS4_OCSP_CACHE_MAX_SECONDS); an answer is never kept past its nextUpdate. */
  ocspCacheMaxSeconds: number;
  /** Send a nonce in OCSP requests and require it back (AS4_OCSP_NONCE, default false). */
  ocspNonce: boolean;
  /**
   * Plain-HTTP AS4 endpoints on loopback addresses are allowed only when this is set
   * (AS4_ALLOW_PLAIN_HTTP_LOOPBACK=true: tests and local demos). Peppol requires HTTPS.
   */
  as4AllowPlainHttpLoopback: boolean;
  /** Largest AS4 request body `POST /as4` reads (AS4_MAX_MESSAGE_BYTES). */
  as4MaxMessageBytes: number;
  /** Time limit of one AS4 POST to another access point, in ms (AS4_SEND_TIMEOUT_MS). */
  as4SendTimeoutMs: number;
  /** PEM key and certificate this SMP signs ServiceMetadata with; unset: ServiceMetadata is served unsigned. */
  smpSigningKeyFile: string | null;
  smpSigningCertificateFile: string | null;
  /** TechnicalContactUrl of the published endpoint; default the public URL. */
  smpTechnicalContactUrl: string | null;
  /** DNS zone of the SML the lookup queries. */
  smlDnsZone: string;
  /** SML_CNAME_FALLBACK=true: a participant without a U-NAPTR record is looked up in the SML's older CNAME form. */
  smlCnameFallback: boolean;
  /** DNS server `host:port` for SML queries; unset: the system's resolvers. */
  smlDnsServer: string | null;
  /** Time limit of each DNS query and HTTP request of a lookup, in ms. */
  lookupTimeoutMs: number;
  /** Trusted CA certificates (PEM or DER files) for SMP signatures (the Peppol SMP CA) and endpoint certificates (the AP CA); none: issuers are not checked. */
  trustedCaFiles: string[];
  /** Peppol Directory base URL (e.g. https://directory.peppol.eu); unset: participant search is local only. */
  directoryUrl: string | null;
  /** SML ManageBusinessIdentifierService URL; unset: registrations are not published to the SML. */
  smlUrl: string | null;
  smlSmpId: string | null;
  smlClientCertificateFile: string | null;
  smlClientKeyFile: string | null;
  /**
   * This service provider's SPIS participant id, `0242:<SPID>` (PEPPOL_SPID): where other providers
   * send MLS (our SBDH's MLS_TO), the sender of our MLS and Peppol reports. Unset: `0242:` and the
   * six digits of the AS4 certificate's seat id.
   */
  serviceProviderId: string | null;
  /** COUNTRY_C1 of the messages sent as the provider (MLS, reports), PEPPOL_SP_COUNTRY; unset: the AS4 certificate's subject C. */
  serviceProviderCountry: string | null;
  /** MLS_TYPE our SBDH asks for (MLS_TYPE: ALWAYS_SEND or FAILURE_ONLY; default ALWAYS_SEND). */
  mlsType: 'ALWAYS_SEND' | 'FAILURE_ONLY';
  /** MLS_SEND=false: as the receiving provider, send no MLS (default true; Peppol requires it). */
  mlsSend: boolean;
  /** Who the monthly Peppol reports go to (PEPPOL_REPORTING_RECEIVER; default OpenPeppol, 9925:be0848934496). */
  reportingReceiver: string;
  /** PEPPOL_REPORTING_SUBMIT=false: prepare the monthly reports but do not send them (default true). */
  reportingSubmit: boolean;
}

/** OpenPeppol AISBL, the receiver of the Peppol Reporting (Peppol Reporting specification; peppol-reporting's CPeppolReporting). */
export const OPENPEPPOL_REPORTING_RECEIVER = '9925:be0848934496';

function oneOf<T extends string>(env: NodeJS.ProcessEnv, name: string, values: readonly T[], fallback: T): T {
  const raw = optional(env[name]);
  if (raw === null) return fallback;
  if (!(values as readonly string[]).includes(raw))
    throw new Error(`${name} must be one of ${values.join(', ')}, got "${raw}"`);
  return raw as T;
}

const optional = (value: string | undefined) => (value === undefined || value.trim() === '' ? null : value.trim());

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = optional(env[name]);
  if (raw === null) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

const list = (value: string | undefined) =>
  (optional(value) ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

function flag(env: NodeJS.ProcessEnv, name: string, fallback = false): boolean {
  const raw = optional(env[name])?.toLowerCase() ?? String(fallback);
  if (raw !== 'true' && raw !== 'false') throw new Error(`${name} must be true or false, got "${raw}"`);
  return raw === 'true';
}

function url(env: NodeJS.ProcessEnv, name: string): string | null {
  const raw = optional(env[name]);
  if (raw === null) return null;
  if (!/^https?:\/\/[^\s]+$/i.test(raw)) throw new Error(`${name} must be an http(s) URL, got "${raw}"`);
  return raw.replace(/\/+$/, '');
}

function ocspFailurePolicy(env: NodeJS.ProcessEnv): OcspFailurePolicy {
  const raw = optional(env.AS4_OCSP_FAILURE_POLICY)?.toLowerCase() ?? 'crl';
  const policy = OCSP_FAILURE_POLICIES.find((p) => p === raw);
  if (!policy)
    throw new Error(`AS4_OCSP_FAILURE_POLICY must be one of ${OCSP_FAILURE_POLICIES.join(', ')}, got "${raw}"`);
  return policy;
}

export function loadPeppolConfig(env: NodeJS.ProcessEnv = process.env): PeppolConfig {
  const config: PeppolConfig = {
    publicUrl: url(env, 'PUBLIC_URL'),
    as4EndpointUrl: url(env, 'AS4_ENDPOINT_URL'),
    as4CertificateFile: optional(env.AS4_CERTIFICATE_FILE),
    as4CertificatePem: optional(env.AS4_CERTIFICATE_PEM),
    as4KeyFile: optional(env.AS4_KEY_FILE),
    as4KeyPem: optional(env.AS4_KEY_PEM),
    apCaFiles: list(env.PEPPOL_AP_CA_FILES),
    crlFiles: list(env.AS4_CRL_FILES),
    ocsp: flag(env, 'AS4_OCSP', true),
    ocspFailurePolicy: ocspFailurePolicy(env),
    ocspTimeoutMs: positive(env, 'AS4_OCSP_TIMEOUT_MS', 5000),
    ocspCacheMaxSeconds: positive(env, 'AS4_OCSP_CACHE_MAX_SECONDS', 3600),
    ocspNonce: flag(env, 'AS4_OCSP_NONCE'),
    as4AllowPlainHttpLoopback: flag(env, 'AS4_ALLOW_PLAIN_HTTP_LOOPBACK'),
    as4MaxMessageBytes: positive(env, 'AS4_MAX_MESSAGE_BYTES', 64 * 1024 * 1024),
    as4SendTimeoutMs: positive(env, 'AS4_SEND_TIMEOUT_MS', 60_000),
    smpSigningKeyFile: optional(env.SMP_SIGNING_KEY_FILE),
    smpSigningCertificateFile: optional(env.SMP_SIGNING_CERTIFICATE_FILE),
    smpTechnicalContactUrl: optional(env.SMP_TECHNICAL_CONTACT_URL),
    smlDnsZone: optional(env.SML_DNS_ZONE) ?? PEPPOL_PRODUCTION_SML_ZONE,
    smlDnsServer: optional(env.SML_DNS_SERVER),
    smlCnameFallback: flag(env, 'SML_CNAME_FALLBACK'),
    lookupTimeoutMs: positive(env, 'PEPPOL_LOOKUP_TIMEOUT_MS', 5000),
    trustedCaFiles: list(env.PEPPOL_TRUSTED_CA_FILES),
    directoryUrl: url(env, 'PEPPOL_DIRECTORY_URL'),
    smlUrl: url(env, 'SML_URL'),
    smlSmpId: optional(env.SML_SMP_ID),
    smlClientCertificateFile: optional(env.SML_CLIENT_CERTIFICATE_FILE),
    smlClientKeyFile: optional(env.SML_CLIENT_KEY_FILE),
    serviceProviderId: optional(env.PEPPOL_SPID),
    serviceProviderCountry: optional(env.PEPPOL_SP_COUNTRY)?.toUpperCase() ?? null,
    mlsType: oneOf(env, 'MLS_TYPE', ['ALWAYS_SEND', 'FAILURE_ONLY'] as const, 'ALWAYS_SEND'),
    mlsSend: optional(env.MLS_SEND) === null ? true : flag(env, 'MLS_SEND'),
    reportingReceiver: optional(env.PEPPOL_REPORTING_RECEIVER) ?? OPENPEPPOL_REPORTING_RECEIVER,
    reportingSubmit: optional(env.PEPPOL_REPORTING_SUBMIT) === null ? true : flag(env, 'PEPPOL_REPORTING_SUBMIT'),
  };
  if (config.serviceProviderId !== null && spidOf(config.serviceProviderId) === null)
    throw new Error(`PEPPOL_SPID must be an SPIS participant id (0242:<SPID>), got "${config.serviceProviderId}"`);
  if (config.serviceProviderCountry !== null && !/^[A-Z]{2}$/.test(config.serviceProviderCountry))
    throw new Error(`PEPPOL_SP_COUNTRY must be an ISO 3166-1 alpha-2 code, got "${config.serviceProviderCountry}"`);
  if ((config.smpSigningKeyFile === null) !== (config.smpSigningCertificateFile === null)) {
    throw new Error('SMP_SIGNING_KEY_FILE and SMP_SIGNING_CERTIFICATE_FILE are set together');
  }
  const hasKey = config.as4KeyFile !== null || config.as4KeyPem !== null;
  const hasCertificate = config.as4CertificateFile !== null || config.as4CertificatePem !== null;
  if (hasKey && !hasCertificate)
    throw new Error('AS4_KEY_FILE (or AS4_KEY_PEM) needs AS4_CERTIFICATE_FILE (or AS4_CERTIFICATE_PEM)');
  if (config.smlUrl && !config.smlSmpId) throw new Error("SML_URL needs SML_SMP_ID (this SMP's id at the SML)");
  return config;
}
