import { spidOf } from '../domain/peppol/mls/serviceProviderId.js';
import type { OcspFailurePolicy } from './peppol/accessPointTrust.js';
import { SETTINGS } from './settings/catalogue.js';
import type { Env } from './settings/setting.js';

/** Peppol settings (registration, SMP, lookup, Directory, SML); settings/catalogue.ts declares each. */
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

export function loadPeppolConfig(env: Env = process.env): PeppolConfig {
  const config: PeppolConfig = {
    publicUrl: SETTINGS.PUBLIC_URL.read(env),
    as4EndpointUrl: SETTINGS.AS4_ENDPOINT_URL.read(env),
    as4CertificateFile: SETTINGS.AS4_CERTIFICATE_FILE.read(env),
    as4CertificatePem: SETTINGS.AS4_CERTIFICATE_PEM.read(env),
    as4KeyFile: SETTINGS.AS4_KEY_FILE.read(env),
    as4KeyPem: SETTINGS.AS4_KEY_PEM.read(env),
    apCaFiles: SETTINGS.PEPPOL_AP_CA_FILES.read(env),
    crlFiles: SETTINGS.AS4_CRL_FILES.read(env),
    ocsp: SETTINGS.AS4_OCSP.read(env),
    ocspFailurePolicy: SETTINGS.AS4_OCSP_FAILURE_POLICY.read(env),
    ocspTimeoutMs: SETTINGS.AS4_OCSP_TIMEOUT_MS.read(env),
    ocspCacheMaxSeconds: SETTINGS.AS4_OCSP_CACHE_MAX_SECONDS.read(env),
    ocspNonce: SETTINGS.AS4_OCSP_NONCE.read(env),
    as4AllowPlainHttpLoopback: SETTINGS.AS4_ALLOW_PLAIN_HTTP_LOOPBACK.read(env),
    as4MaxMessageBytes: SETTINGS.AS4_MAX_MESSAGE_BYTES.read(env),
    as4SendTimeoutMs: SETTINGS.AS4_SEND_TIMEOUT_MS.read(env),
    smpSigningKeyFile: SETTINGS.SMP_SIGNING_KEY_FILE.read(env),
    smpSigningCertificateFile: SETTINGS.SMP_SIGNING_CERTIFICATE_FILE.read(env),
    smpTechnicalContactUrl: SETTINGS.SMP_TECHNICAL_CONTACT_URL.read(env),
    smlDnsZone: SETTINGS.SML_DNS_ZONE.read(env),
    smlDnsServer: SETTINGS.SML_DNS_SERVER.read(env),
    smlCnameFallback: SETTINGS.SML_CNAME_FALLBACK.read(env),
    lookupTimeoutMs: SETTINGS.PEPPOL_LOOKUP_TIMEOUT_MS.read(env),
    trustedCaFiles: SETTINGS.PEPPOL_TRUSTED_CA_FILES.read(env),
    directoryUrl: SETTINGS.PEPPOL_DIRECTORY_URL.read(env),
    smlUrl: SETTINGS.SML_URL.read(env),
    smlSmpId: SETTINGS.SML_SMP_ID.read(env),
    smlClientCertificateFile: SETTINGS.SML_CLIENT_CERTIFICATE_FILE.read(env),
    smlClientKeyFile: SETTINGS.SML_CLIENT_KEY_FILE.read(env),
    serviceProviderId: SETTINGS.PEPPOL_SPID.read(env),
    serviceProviderCountry: SETTINGS.PEPPOL_SP_COUNTRY.read(env)?.toUpperCase() ?? null,
    mlsType: SETTINGS.MLS_TYPE.read(env),
    mlsSend: SETTINGS.MLS_SEND.read(env),
    reportingReceiver: SETTINGS.PEPPOL_REPORTING_RECEIVER.read(env),
    reportingSubmit: SETTINGS.PEPPOL_REPORTING_SUBMIT.read(env),
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
