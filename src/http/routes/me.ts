import { tenantOf } from '../auth.js';
import type { RouteRegistry } from '../routeRegistry.js';

/** The calling tenant's own account, in the shape of the e-invoice-api client's MeRetrieveResponse. */
export function meRoutes(routes: RouteRegistry): void {
  routes.add({
    method: 'get',
    path: '/api/me',
    summary: "The calling tenant's account",
    tag: 'account',
    auth: 'tenant',
    handler: (_req, res) => {
      const { tenant } = tenantOf(res);
      res.json({
        name: tenant.name,
        description: tenant.description,
        plan: tenant.rate_tier === 'premium' ? 'pro' : 'starter',
        credit_balance: 0,
        company_name: tenant.name,
        company_number: tenant.company_number,
        company_tax_id: tenant.company_tax_id,
        peppol_ids: tenant.peppol_ids,
        smp_registration: false,
        smp_registration_date: null,
        test_mode: tenant.test_mode,
      });
    },
  });
}
