import { PEPPOL_PRODUCTION_SML_ZONE } from '../domain/peppol/smlName.js';

/** Peppol settings (registration, SMP, lookup, Directory, SML); see the README's Peppol section. */
export interface PeppolConfig {
  /** Public base URL of this service (SMP hrefs, the default AS4 endpoint); unset: taken from each request's Host. */
  publicUrl: string | null;
  /** The AS4 endpoint published in ServiceMetadata; default `<public URL>/as4`. */
  as4EndpointUrl: string | null;
  /** PEM or DER of the access point certificate published in ServiceMetadata; unset: an empty Certificate element. */
  as4CertificateFile: string | null;
  /** PEM key and certificate this SMP signs ServiceMetadata with; unset: ServiceMetadata is served unsigned. */
  smpSigningKeyFile: string | null;
  smpSigningCertificateFile: string | null;
  /** TechnicalContactUrl of the published endpoint; default the public URL. */
  smpTechnicalContactUrl: string | null;
  /** DNS zone of the SML the lookup queries. */
  smlDnsZone: string;
  /** DNS server `host:port` for SML queries; unset: the system's resolvers. */
  smlDnsServer: string | null;
  /** Time limit of each DNS query and HTTP request of a lookup, in ms. */
  lookupTimeoutMs: number;
  /** Trusted CA certificates (PEM or DER files) for SMP signatures and endpoint certificates; none: issuers are not checked. */
  trustedCaFiles: string[];
  /** Peppol Directory base URL (e.g. https://directory.peppol.eu); unset: participant search is local only. */
  directoryUrl: string | null;
  /** SML ManageBusinessIdentifierService URL; unset: registrations are not published to the SML. */
  smlUrl: string | null;
  smlSmpId: string | null;
  smlClientCertificateFile: string | null;
  smlClientKeyFile: string | null;
}

const optional = (value: string | undefined) => (value === undefined || value.trim() === '' ? null : value.trim());

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = optional(env[name]);
  if (raw === null) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

function url(env: NodeJS.ProcessEnv, name: string): string | null {
  const raw = optional(env[name]);
  if (raw === null) return null;
  if (!/^https?:\/\/[^\s]+$/i.test(raw)) throw new Error(`${name} must be an http(s) URL, got "${raw}"`);
  return raw.replace(/\/+$/, '');
}

export function loadPeppolConfig(env: NodeJS.ProcessEnv = process.env): PeppolConfig {
  const config: PeppolConfig = {
    publicUrl: url(env, 'PUBLIC_URL'),
    as4EndpointUrl: url(env, 'AS4_ENDPOINT_URL'),
    as4CertificateFile: optional(env.AS4_CERTIFICATE_FILE),
    smpSigningKeyFile: optional(env.SMP_SIGNING_KEY_FILE),
    smpSigningCertificateFile: optional(env.SMP_SIGNING_CERTIFICATE_FILE),
    smpTechnicalContactUrl: optional(env.SMP_TECHNICAL_CONTACT_URL),
    smlDnsZone: optional(env.SML_DNS_ZONE) ?? PEPPOL_PRODUCTION_SML_ZONE,
    smlDnsServer: optional(env.SML_DNS_SERVER),
    lookupTimeoutMs: positive(env, 'PEPPOL_LOOKUP_TIMEOUT_MS', 5000),
    trustedCaFiles: (optional(env.PEPPOL_TRUSTED_CA_FILES) ?? '')
      .split(',')
      .map((f) => f.trim())
      .filter(Boolean),
    directoryUrl: url(env, 'PEPPOL_DIRECTORY_URL'),
    smlUrl: url(env, 'SML_URL'),
    smlSmpId: optional(env.SML_SMP_ID),
    smlClientCertificateFile: optional(env.SML_CLIENT_CERTIFICATE_FILE),
    smlClientKeyFile: optional(env.SML_CLIENT_KEY_FILE),
  };
  if ((config.smpSigningKeyFile === null) !== (config.smpSigningCertificateFile === null)) {
    throw new Error('SMP_SIGNING_KEY_FILE and SMP_SIGNING_CERTIFICATE_FILE are set together');
  }
  if (config.smlUrl && !config.smlSmpId) throw new Error("SML_URL needs SML_SMP_ID (this SMP's id at the SML)");
  return config;
}
