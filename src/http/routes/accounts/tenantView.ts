import type { Tenant } from '../../../domain/tenant/tenant.js';

/** The Tenant resource as the administrative interface shows it. */
export function tenantResponse(tenant: Tenant) {
  return {
    id: tenant.id,
    name: tenant.name,
    description: tenant.description,
    company_number: tenant.company_number,
    company_tax_id: tenant.company_tax_id,
    peppol_ids: tenant.peppol_ids,
    created_at: tenant.created_at,
    updated_at: tenant.updated_at,
    is_deleted: tenant.is_deleted,
    test_mode: tenant.test_mode,
    test_mode_email: tenant.test_mode_email,
    rate_tier: tenant.rate_tier,
  };
}
