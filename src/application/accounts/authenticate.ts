import { EVENT_STORE, type EventStore } from '../ports/eventStore.js';
import { inject, injectable } from '../injection.js';
import { loadState } from '../commandHandler.js';
import { apiKeyDecider, apiKeyStream } from '../../domain/apiKey/apiKey.js';
import { keyIdOf, keyMatchesHash } from './apiKeySecret.js';
import { tenantDecider, tenantStream, type Tenant } from '../../domain/tenant/tenant.js';
import { OPERATOR_KEY, type OperatorKey } from './operatorKey.js';
import type { Actor } from '../actor.js';

/** `keyName`: the key's name now, recorded with what the request causes (actor.ts). */
export type Principal =
  | { kind: 'organization'; keyId: string; keyName: string; organizationId: string }
  | { kind: 'tenant'; keyId: string; keyName: string; organizationId: string; tenantId: string; tenant: Tenant };

/** Who a principal is in the events its requests cause. */
export function principalActor(principal: Principal): Actor {
  return principal.kind === 'tenant'
    ? { kind: 'api_key', keyId: principal.keyId, keyName: principal.keyName, tenantId: principal.tenantId }
    : {
        kind: 'organization_admin',
        keyId: principal.keyId,
        keyName: principal.keyName,
        organizationId: principal.organizationId,
      };
}

/**
 * Which tenant a key belongs to never changes once the key exists, so it may be remembered: the
 * key's and the tenant's streams are then read at the same time rather than one after the other.
 * Both are still read on every request.
 */
const OWNERS_REMEMBERED = 10_000;
const tenantOfKey = new Map<string, string>();

/**
 * Resolves a presented API key from the event streams themselves (not from a read model),
 * so that a revocation or a tenant deletion takes effect at once in every process.
 */
export async function authenticate(store: EventStore, presentedKey: string): Promise<Principal | null> {
  if (presentedKey.length === 0 || presentedKey.length > 512) return null;
  const keyId = keyIdOf(presentedKey);
  const knownTenant = tenantOfKey.get(keyId);
  const [key, prefetched] = await Promise.all([
    loadState(store, apiKeyDecider, apiKeyStream(keyId)),
    knownTenant ? loadState(store, tenantDecider, tenantStream(knownTenant)) : null,
  ]);
  if (key.status !== 'active' || !keyMatchesHash(presentedKey, key.hash)) return null;
  if (key.owner.kind === 'organization') {
    return { kind: 'organization', keyId: key.id, keyName: key.name, organizationId: key.owner.organization_id };
  }
  if (!knownTenant) {
    if (tenantOfKey.size >= OWNERS_REMEMBERED) tenantOfKey.clear();
    tenantOfKey.set(keyId, key.owner.tenant_id);
  }
  const tenant = prefetched ?? (await loadState(store, tenantDecider, tenantStream(key.owner.tenant_id)));
  if (tenant.status !== 'present' || tenant.is_deleted) return null;
  const { status: _status, ...tenantData } = tenant;
  return {
    kind: 'tenant',
    keyId: key.id,
    keyName: key.name,
    organizationId: key.owner.organization_id,
    tenantId: tenant.id,
    tenant: tenantData,
  };
}

/** Who presents a key: the deployment's operator, or the principal of an API key (or nobody). */
@injectable()
export class Authenticator {
  constructor(
    @inject(EVENT_STORE) private readonly store: EventStore,
    @inject(OPERATOR_KEY) private readonly operatorKey: OperatorKey,
  ) {}

  isOperator(presentedKey: string): boolean {
    return this.operatorKey.matches(presentedKey);
  }

  principal(presentedKey: string): Promise<Principal | null> {
    return authenticate(this.store, presentedKey);
  }
}
