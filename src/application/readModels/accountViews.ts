import type { Tenant } from '../../domain/tenant/tenant.js';
import type { Versioned } from '../ports/projection.js';

/** The tenants read model behind the administrative tenant list (projections/tenantsProjection.ts). */
export type TenantView = Tenant & Versioned;
export const TENANTS = 'tenants';

/** A key as listed to its owner: never the hash, never the secret (projections/apiKeysProjection.ts). */
export interface ApiKeyView extends Versioned {
  id: string;
  owner_kind: 'organization' | 'tenant';
  organization_id: string;
  tenant_id: string | null;
  name: string;
  description: string | null;
  prefix: string;
  created_at: string;
  updated_at: string;
  is_deleted: boolean;
}

export const API_KEYS = 'api_keys';

/** The organizations read model behind the operator's list (projections/organizationsProjection.ts). */
export interface OrganizationView extends Versioned {
  id: string;
  name: string;
  created_at: string;
  /** Absent until the operator sets it: the default (DEFAULT_RETENTION_YEARS) applies. */
  retention_years?: number;
}
export const ORGANIZATIONS = 'organizations';
