import * as t from 'io-ts';
import type { PeppolRegistrations } from '../../../application/peppol/peppolRegistration.js';
import { isCountryCode } from '../../../domain/document/invoice/codeLists.js';
import { parsePeppolId } from '../../../domain/document/invoice/peppolId.js';
import type { Tenant } from '../../../domain/tenant/tenant.js';
import { organizationOf } from '../../auth.js';
import { decode, NonEmptyString, Nullable } from '../../codecs.js';
import { HttpError, type FieldProblem } from '../../errors.js';
import { commandMetadata } from '../../requestContext.js';
import type { RouteRegistry } from '../../routeRegistry.js';
import {
  BusinessCardAnswer,
  RegisteredAnswer,
  RegistrationAnswer,
  UnregisteredAnswer,
} from '../../codecs/peppolAnswers.js';

const Register = t.intersection([
  t.type({ peppol_id: t.string }),
  t.partial({ company_name: Nullable(t.string), country_code: Nullable(t.string) }),
]);
const BusinessCard = t.type({ company_name: NonEmptyString });

const tenantIdOf = (req: { params: Record<string, unknown> }) => String(req.params.tenantId);

/** The spec's `peppol_id` and our optional `country_code`, checked field by field (422 names each). */
function checkedRegistration(body: t.TypeOf<typeof Register>) {
  const problems: FieldProblem[] = [];
  const parsed = parsePeppolId(body.peppol_id);
  if (!parsed.ok) problems.push({ loc: ['body', 'peppol_id'], msg: parsed.message, type: 'value_error' });
  const country = body.country_code?.trim().toUpperCase() || null;
  if (country !== null && !isCountryCode(country)) {
    problems.push({
      loc: ['body', 'country_code'],
      msg: 'country_code must be an ISO 3166-1 alpha-2 code',
      type: 'value_error',
    });
  }
  if (!parsed.ok || problems.length > 0) throw new HttpError(422, problems);
  return { peppol_id: parsed.value, company_name: body.company_name ?? null, country_code: country };
}

function businessCardResponse(tenant: Tenant) {
  const registration = tenant.peppol_registration!;
  return {
    peppol_id: registration.peppol_id,
    company_name: registration.company_name,
    country_code: registration.country_code,
    registration_date: registration.registered_at.slice(0, 10),
    updated_at: registration.updated_at,
    simulated: registration.simulated,
  };
}

/**
 * Peppol registration of a reseller's tenants. `status` values: 'active' (published on this
 * service's SMP, and the SML when SML_URL is set), 'simulated' (test mode: kept in our registry,
 * published nowhere), 'unregistered'.
 */
export function peppolAdminRoutes(routes: RouteRegistry, registrations: PeppolRegistrations): void {
  routes.add({
    method: 'get',
    path: '/api/admin/tenants/:tenantId/peppol/status',
    summary: "A tenant's Peppol registration status (status: active, simulated or unregistered)",
    tag: 'admin',
    auth: 'organization',
    responses: { 200: 'Peppol registration status', 404: 'Tenant not found' },
    answer: RegistrationAnswer,
    handler: async (req, res, answer) => {
      answer(await registrations.status(organizationOf(res).organizationId, tenantIdOf(req)));
    },
  });
  routes.add({
    method: 'post',
    path: '/api/admin/tenants/:tenantId/peppol/register',
    summary:
      "Register the tenant's Peppol id on this service's SMP (and the SML when configured); simulated in test mode. " +
      'company_name may be omitted for a Belgian 0208 id (the tenant description, else its name, is used); country_code is derived from the scheme or the tax id when omitted',
    tag: 'admin',
    auth: 'organization',
    body: Register,
    responses: {
      200: 'Registration result',
      404: 'Tenant not found',
      409: 'Already registered with another id, id held by another tenant or SMP, id differs from the tenant profile, or tenant deleted',
      502: 'The SML did not accept the registration (nothing changed)',
    },
    answer: RegisteredAnswer,
    handler: async (req, res, answer) => {
      const input = checkedRegistration(decode(Register, req.body, 'body'));
      const { tenant, changed } = await registrations.register(
        organizationOf(res).organizationId,
        tenantIdOf(req),
        input,
        commandMetadata(req, res),
      );
      const view = registrations.view(tenant);
      const message = !changed
        ? 'Already registered with this identifier; nothing changed'
        : view.simulated
          ? "Test mode: the registration is simulated. It is kept in this service's registry but not published on the SMP or the SML"
          : view.sml === 'published'
            ? "Registered on this service's SMP and published to the SML"
            : "Registered on this service's SMP; publishing to the SML is not configured";
      answer({ ...view, message });
    },
  });
  routes.add({
    method: 'post',
    path: '/api/admin/tenants/:tenantId/peppol/business-card',
    summary: "Change the name on the tenant's Peppol business card",
    tag: 'admin',
    auth: 'organization',
    body: BusinessCard,
    responses: { 200: 'The updated business card', 404: 'Tenant not found', 409: 'Tenant not registered, or deleted' },
    answer: BusinessCardAnswer,
    handler: async (req, res, answer) => {
      const body = decode(BusinessCard, req.body, 'body');
      const tenant = await registrations.updateBusinessCard(
        organizationOf(res).organizationId,
        tenantIdOf(req),
        body.company_name,
        commandMetadata(req, res),
      );
      answer(businessCardResponse(tenant));
    },
  });
  routes.add({
    method: 'post',
    path: '/api/admin/tenants/:tenantId/peppol/unregister',
    summary:
      'Remove the registration and business card (from the SML too when published there); the tenant is then unregistered',
    tag: 'admin',
    auth: 'organization',
    responses: {
      200: 'Unregistered',
      404: 'Tenant not found',
      409: 'Tenant not registered',
      502: 'The SML did not accept the removal (nothing changed)',
    },
    answer: UnregisteredAnswer,
    handler: async (req, res, answer) => {
      const { tenant, registration, unregistered_at } = await registrations.unregister(
        organizationOf(res).organizationId,
        tenantIdOf(req),
        commandMetadata(req, res),
      );
      answer({ ...registrations.view(tenant), peppol_id: registration.peppol_id, unregistered_at });
    },
  });
}
