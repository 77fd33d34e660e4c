import { vatCountry } from '../../../domain/document/invoice/vatNumber.js';
import { ownParticipantIds } from '../../../domain/peppol/senderIdentity.js';
import { tenantOf } from '../../auth.js';
import type { RouteRegistry } from '../../routeRegistry.js';
import { MeAnswer } from '../../codecs/accountAnswers.js';

/**
 * The calling tenant's own account, in the shape of the e-invoice-api client's MeRetrieveResponse.
 * `plan` is the rate tier (standard → starter, premium → pro); `credit_balance` is always 0: this
 * service sells no prepaid credits and does not meter documents. Address, e-mail, IBAN and BCC
 * fields are not part of our tenant, so they are null.
 */
export function meRoutes(routes: RouteRegistry): void {
  routes.add({
    method: 'get',
    path: '/api/me',
    summary: "The calling tenant's account",
    tag: 'account',
    auth: 'tenant',
    answer: MeAnswer,
    handler: (_req, res, answer) => {
      const { tenant } = tenantOf(res);
      const registration = tenant.peppol_registration;
      answer({
        name: tenant.name,
        description: tenant.description,
        plan: tenant.rate_tier === 'premium' ? 'pro' : 'starter',
        credit_balance: 0,
        // The registered business-card name is the company's official name; before registration we only have the tenant's name.
        company_name: registration?.company_name ?? tenant.name,
        company_number: tenant.company_number,
        company_tax_id: tenant.company_tax_id,
        company_country:
          registration?.country_code ?? (tenant.company_tax_id ? vatCountry(tenant.company_tax_id) : null),
        company_address: null,
        company_city: null,
        company_zip: null,
        company_email: null,
        bcc_recipient_email: null,
        ibans: [],
        // The ids the tenant sends as (the first is its documents' default issuer address).
        peppol_ids: ownParticipantIds(tenant),
        // On our SMP means published: a simulated (test-mode) registration is not.
        smp_registration: registration !== null && !registration.simulated,
        smp_registration_date: registration && !registration.simulated ? registration.registered_at : null,
        test_mode: tenant.test_mode,
      });
    },
  });
}
