import type { CertificateReport } from '../ports/peppolNetwork.js';

/**
 * The result of `GET /api/lookup`, in the e-invoice-api client's LookupRetrieveResponse shape.
 * Step statuses are 'success', 'error', or 'pending' for a step that was not reached because an
 * earlier one failed.
 */
export type StepStatus = 'success' | 'error' | 'pending';

export interface LookupEndpoint {
  address: string;
  transportProfile: string;
  certificate: CertificateReport | null;
  serviceActivationDate: string | null;
  serviceExpirationDate: string | null;
  serviceDescription: string | null;
  technicalContactUrl: string | null;
  technicalInformationUrl: string | null;
}

export interface LookupServiceEndpoint {
  /** The ServiceMetadata URL this entry was read from. */
  url: string;
  status: StepStatus;
  error: string | null;
  documentTypes: Array<{ scheme: string; value: string }>;
  processes: Array<{ processId: { scheme: string; value: string }; endpoints: LookupEndpoint[] }>;
}

export interface LookupResult {
  status: 'success' | 'error';
  errors: string[];
  executionTimeMs: number;
  queryMetadata: {
    identifierScheme: string;
    identifierValue: string;
    smlDomain: string;
    timestamp: string;
    version: string;
    /** Ours: 'local' when the participant is registered on this instance (no DNS, no HTTP), else 'sml'. */
    source: 'local' | 'sml';
  };
  dnsInfo: { status: StepStatus; smlHostname: string; dnsRecords: Array<{ ip: string }>; error: string | null };
  serviceMetadata: {
    status: StepStatus;
    endpoints: LookupServiceEndpoint[];
    queryTimeMs: number;
    error: string | null;
  };
  businessCard: {
    status: StepStatus;
    entities: Array<{
      name: string | null;
      countryCode: string | null;
      registrationDate: string | null;
      additionalInformation: string[] | null;
    }>;
    queryTimeMs: number;
    error: string | null;
  };
  certificates: CertificateReport[];
}

/** `GET /api/validate/peppol-id`, in the client's ValidateValidatePeppolIDResponse shape, derived from a lookup. */
export function validationOf(result: LookupResult) {
  const usable = result.serviceMetadata.endpoints.filter((endpoint) => endpoint.status === 'success');
  const entity = result.businessCard.status === 'success' ? (result.businessCard.entities[0] ?? null) : null;
  return {
    is_valid: result.status === 'success' && usable.length > 0,
    dns_valid: result.dnsInfo.status === 'success',
    business_card_valid: entity !== null,
    business_card: entity
      ? { name: entity.name, country_code: entity.countryCode, registration_date: entity.registrationDate }
      : null,
    supported_document_types: [...new Set(usable.flatMap((endpoint) => endpoint.documentTypes.map((d) => d.value)))],
  };
}
