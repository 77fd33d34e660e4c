import * as t from 'io-ts';
import { nullable, oneOf, pageOf } from './answerCodecs.js';

/* The answers of the administrative, operator and account routes (see documentAnswers.ts for how they are used). */

const text = nullable(t.string);

/** The Tenant resource. */
export const TenantAnswer = t.type({
  id: t.string,
  name: t.string,
  description: text,
  company_number: text,
  company_tax_id: text,
  peppol_ids: t.array(t.string),
  created_at: t.string,
  updated_at: t.string,
  is_deleted: t.boolean,
  test_mode: t.boolean,
  test_mode_email: text,
  rate_tier: oneOf(['standard', 'premium']),
});

/** `GET /api/admin/tenants`. */
export const TenantsAnswer = t.type({
  tenants: t.array(
    t.type({
      id: t.string,
      name: t.string,
      description: text,
      created_at: t.string,
      updated_at: t.string,
      is_deleted: t.boolean,
    }),
  ),
  total: t.number,
});

/** A tenant API key's record (never its value). */
export const ApiKeyAnswer = t.type({
  id: t.string,
  tenant_id: text,
  name: t.string,
  description: text,
  prefix: t.string,
  created_at: t.string,
  updated_at: t.string,
  is_deleted: t.boolean,
});

/** A key just created: its record and, this once, its value. */
export const IssuedApiKeyAnswer = t.intersection([ApiKeyAnswer, t.type({ key: t.string })]);

/** `GET /api/admin/tenants/{id}/api-keys`. */
export const ApiKeysAnswer = t.type({ api_keys: t.array(ApiKeyAnswer), total: t.number });

/** An organization key just issued (its value is shown this once). */
export const OrganizationKeyAnswer = t.type({
  id: t.string,
  name: t.string,
  prefix: t.string,
  key: t.string,
  created_at: t.string,
});

/** `POST /api/operator/organizations`. */
export const CreatedOrganizationAnswer = t.type({
  id: t.string,
  name: t.string,
  created_at: t.string,
  admin_key: OrganizationKeyAnswer,
});

/** `GET /api/me`, in the client's MeRetrieveResponse shape. */
export const MeAnswer = t.type({
  name: t.string,
  description: text,
  plan: oneOf(['starter', 'pro']),
  credit_balance: t.number,
  company_name: t.string,
  company_number: text,
  company_tax_id: text,
  company_country: text,
  company_address: t.null,
  company_city: t.null,
  company_zip: t.null,
  company_email: t.null,
  bcc_recipient_email: t.null,
  ibans: t.array(t.string),
  peppol_ids: t.array(t.string),
  smp_registration: t.boolean,
  smp_registration_date: text,
  test_mode: t.boolean,
});

const Usage = t.type({
  documents_sent: t.number,
  documents_received: t.number,
  documents_failed: t.number,
  documents_in_transit: t.number,
  drafts: t.number,
});

const OrganizationSummary = t.type({
  id: t.string,
  name: t.string,
  created_at: t.string,
  tenant_count: t.number,
  usage: Usage,
});

/** `GET /api/operator/organizations`. */
export const OrganizationsAnswer = pageOf(OrganizationSummary);

/** `GET /api/operator/organizations/{id}`: the organization with each tenant (as the tenant routes answer it) and its usage. */
export const OrganizationAnswer = t.intersection([
  OrganizationSummary,
  t.type({ tenants: t.array(t.intersection([TenantAnswer, t.type({ usage: Usage })])) }),
]);
