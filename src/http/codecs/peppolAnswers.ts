import * as t from 'io-ts';
import { nullable, oneOf } from './answerCodecs.js';

/* The answers of the Peppol registration, lookup, report and health routes (see documentAnswers.ts for how they are used). */

const text = nullable(t.string);
const StepStatus = oneOf(['success', 'error', 'pending']);
const Identifier = t.type({ scheme: t.string, value: t.string });
const Certificate = t.type({ status: oneOf(['success', 'error']), details: nullable(t.UnknownRecord), error: text });

/** A tenant's Peppol registration. */
export const RegistrationAnswer = t.type({
  registered: t.boolean,
  peppol_id: text,
  status: oneOf(['active', 'simulated', 'unregistered']),
  registered_at: text,
  company_name: text,
  country_code: text,
  simulated: t.boolean,
  sml: oneOf(['published', 'off', 'not_published']),
});

/** `POST …/peppol/register`: the registration and what happened. */
export const RegisteredAnswer = t.intersection([RegistrationAnswer, t.type({ message: t.string })]);

/** `POST …/peppol/unregister`. */
export const UnregisteredAnswer = t.intersection([RegistrationAnswer, t.type({ unregistered_at: t.string })]);

/** `POST …/peppol/business-card`. */
export const BusinessCardAnswer = t.type({
  peppol_id: t.string,
  company_name: t.string,
  country_code: t.string,
  registration_date: t.string,
  updated_at: t.string,
  simulated: t.boolean,
});

const Endpoint = t.type({
  address: t.string,
  transportProfile: t.string,
  certificate: nullable(Certificate),
  serviceActivationDate: text,
  serviceExpirationDate: text,
  serviceDescription: text,
  technicalContactUrl: text,
  technicalInformationUrl: text,
});

/** `GET /api/lookup`, in the client's LookupRetrieveResponse shape. */
export const LookupAnswer = t.type({
  status: oneOf(['success', 'error']),
  errors: t.array(t.string),
  executionTimeMs: t.number,
  queryMetadata: t.type({
    identifierScheme: t.string,
    identifierValue: t.string,
    smlDomain: t.string,
    timestamp: t.string,
    version: t.string,
    source: oneOf(['local', 'sml']),
  }),
  dnsInfo: t.type({
    status: StepStatus,
    smlHostname: t.string,
    dnsRecords: t.array(t.type({ ip: t.string })),
    error: text,
  }),
  serviceMetadata: t.type({
    status: StepStatus,
    endpoints: t.array(
      t.type({
        url: t.string,
        status: StepStatus,
        error: text,
        documentTypes: t.array(Identifier),
        processes: t.array(t.type({ processId: Identifier, endpoints: t.array(Endpoint) })),
      }),
    ),
    queryTimeMs: t.number,
    error: text,
  }),
  businessCard: t.type({
    status: StepStatus,
    entities: t.array(
      t.type({
        name: text,
        countryCode: text,
        registrationDate: text,
        additionalInformation: nullable(t.array(t.string)),
      }),
    ),
    queryTimeMs: t.number,
    error: text,
  }),
  certificates: t.array(Certificate),
});

/** `GET /api/validate/peppol-id`. */
export const PeppolIdValidationAnswer = t.type({
  is_valid: t.boolean,
  dns_valid: t.boolean,
  business_card_valid: t.boolean,
  business_card: nullable(t.type({ name: text, country_code: text, registration_date: text })),
  supported_document_types: t.array(t.string),
});

/** `GET /api/lookup/participants`, in the client's LookupRetrieveParticipantsResponse shape. */
export const ParticipantSearchAnswer = t.intersection([
  t.type({
    query_terms: t.string,
    search_date: t.string,
    total_count: t.number,
    used_count: t.number,
    participants: t.array(
      t.type({
        peppol_id: t.string,
        peppol_scheme: t.string,
        document_types: t.array(Identifier),
        entities: t.array(
          t.type({
            name: text,
            country_code: text,
            registration_date: text,
            identifiers: t.array(Identifier),
            website: text,
            geo_info: text,
            additional_info: text,
          }),
        ),
      }),
    ),
  }),
  t.partial({ directory_error: t.string }),
]);

/** `GET /api/operator/reports/peppol` as JSON: both reports, their digests and counts, and what the monthly job kept. */
export const PeppolReportsAnswer = t.type({
  month: t.string,
  as_of: t.string,
  reporter: t.string,
  tsr: t.string,
  eusr: t.string,
  tsr_sha256: t.string,
  eusr_sha256: t.string,
  incoming: t.number,
  outgoing: t.number,
  end_users: t.number,
  prepared: nullable(
    t.type({
      month: t.string,
      as_of: t.string,
      reporter: t.string,
      tsr_sha256: t.string,
      eusr_sha256: t.string,
      tsr_ref: t.type({ sha256: t.string, size: t.number, media_type: t.string }),
      eusr_ref: t.type({ sha256: t.string, size: t.number, media_type: t.string }),
      incoming: t.number,
      outgoing: t.number,
      end_users: t.number,
      prepared_at: t.string,
    }),
  ),
});

/** `GET /healthz`. */
export const LivenessAnswer = t.type({ status: t.literal('ok') });

/** `GET /readyz` (ready; not ready answers 503 with the same fields and a `detail`). */
export const ReadinessAnswer = t.type({
  status: oneOf(['ready', 'not_ready']),
  database: oneOf(['ok', 'unreachable']),
  projections: t.type({
    status: oneOf(['following', 'stopped', 'unknown']),
    items: t.array(t.type({ name: t.string, position: t.string, lag: t.number })),
  }),
});

/** `GET /` for an API client: where to go. */
export const HomeAnswer = t.type({
  name: t.string,
  version: t.string,
  links: t.array(t.type({ rel: t.string, href: t.string, title: t.string })),
});
