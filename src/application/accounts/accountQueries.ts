import { READ_MODEL_STORE, type ReadModelStore } from '../ports/readModelStore.js';
import { inject, injectable } from '../injection.js';
import {
  API_KEYS,
  ORGANIZATIONS,
  TENANTS,
  type ApiKeyView,
  type OrganizationView,
  type TenantView,
} from '../readModels/accountViews.js';

/** Reads of the account read models, always scoped to the caller's organization or tenant. */
@injectable()
export class AccountQueries {
  constructor(@inject(READ_MODEL_STORE) private readonly readModels: ReadModelStore) {}

  tenants(organizationId: string, skip: number, limit: number) {
    return this.readModels.collection<TenantView>(TENANTS).find({
      filter: { op: 'eq', field: 'organization_id', value: organizationId },
      sort: [{ field: 'created_at', direction: 'asc' }],
      skip,
      limit,
    });
  }

  /** The organization's name; null when the read model does not have it (yet). */
  async organizationName(organizationId: string): Promise<string | null> {
    return (await this.readModels.collection<OrganizationView>(ORGANIZATIONS).get(organizationId))?.name ?? null;
  }

  keysOfTenant(tenantId: string, skip: number, limit: number, newestFirst = false) {
    const direction = newestFirst ? 'desc' : 'asc';
    return this.readModels.collection<ApiKeyView>(API_KEYS).find({
      filter: { op: 'eq', field: 'tenant_id', value: tenantId },
      // The id breaks ties between keys created in the same millisecond, so pages are stable.
      sort: [
        { field: 'created_at', direction },
        { field: 'id', direction },
      ],
      skip,
      limit,
    });
  }

  /** The most recently created key record of the tenant (revoked or not), or null when it has none. */
  async latestKeyOfTenant(tenantId: string): Promise<ApiKeyView | null> {
    return (await this.keysOfTenant(tenantId, 0, 1, true)).items[0] ?? null;
  }
}
