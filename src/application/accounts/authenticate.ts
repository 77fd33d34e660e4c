import type { EventStore } from '../ports/eventStore.js';
import { loadState } from '../commandHandler.js';
import { apiKeyDecider, apiKeyStream } from '../../domain/apiKey/apiKey.js';
import { keyIdOf, keyMatchesHash } from '../../domain/apiKey/apiKeySecret.js';
import { tenantDecider, tenantStream, type Tenant } from '../../domain/tenant/tenant.js';

export type Principal =
  | { kind: 'organization'; keyId: string; organizationId: string }
  | { kind: 'tenant'; keyId: string; organizationId: string; tenantId: string; tenant: Tenant };

/**
 * Resolves a presented API key from the event streams themselves (not from a read model),
 * so that a revocation or a tenant deletion takes effect at once in every process.
 */
export async function authenticate(store: EventStore, presentedKey: string): Promise<Principal | null> {
  if (presentedKey.length === 0 || presentedKey.length > 512) return null;
  const key = await loadState(store, apiKeyDecider, apiKeyStream(keyIdOf(presentedKey)));
  if (key.status !== 'active' || !keyMatchesHash(presentedKey, key.hash)) return null;
  if (key.owner.kind === 'organization') {
    return { kind: 'organization', keyId: key.id, organizationId: key.owner.organization_id };
  }
  const tenant = await loadState(store, tenantDecider, tenantStream(key.owner.tenant_id));
  if (tenant.status !== 'present' || tenant.is_deleted) return null;
  const { status: _status, ...tenantData } = tenant;
  return { kind: 'tenant', keyId: key.id, organizationId: key.owner.organization_id, tenantId: tenant.id, tenant: tenantData };
}
