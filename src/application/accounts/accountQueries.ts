import type { ReadModelStore } from '../ports/readModelStore.js';
import { TENANTS, type TenantView } from '../../projections/tenantsProjection.js';
import { API_KEYS, type ApiKeyView } from '../../projections/apiKeysProjection.js';

/** Reads of the account read models, always scoped to the caller's organization or tenant. */
export class AccountQueries {
  constructor(private readonly readModels: ReadModelStore) {}

  tenants(organizationId: string, skip: number, limit: number) {
    return this.readModels.collection<TenantView>(TENANTS).find({
      filter: { op: 'eq', field: 'organization_id', value: organizationId },
      sort: [{ field: 'created_at', direction: 'asc' }],
      skip,
      limit,
    });
  }

  keysOfTenant(tenantId: string, skip: number, limit: number, newestFirst = false) {
    return this.readModels.collection<ApiKeyView>(API_KEYS).find({
      filter: { op: 'eq', field: 'tenant_id', value: tenantId },
      sort: [{ field: 'created_at', direction: newestFirst ? 'desc' : 'asc' }],
      skip,
      limit,
    });
  }
}
