import type { RecordedEvent } from '../application/ports/eventStore.js';
import type { ReadModelSession } from '../application/ports/readModelStore.js';
import { toDomainEvent } from '../application/commandHandler.js';
import { tenantDecider, type TenantEvent } from '../domain/tenant/tenant.js';
import { isNewer, type Projection } from '../application/ports/projection.js';
import { TENANTS, type TenantView } from '../application/readModels/accountViews.js';

/** The tenants read model behind the administrative tenant list. */
export const tenantsProjection: Projection = {
  name: 'tenants',
  // v2: tenants carry their Peppol registration.
  version: 2,
  collections: [
    {
      name: TENANTS,
      indexes: [{ fields: [{ field: 'organization_id' }, { field: 'created_at' }] }],
    },
  ],
  handles: [
    'TenantCreated',
    'TenantUpdated',
    'TenantDeleted',
    'TenantTestModeChanged',
    'TenantRateTierChanged',
    'TenantPeppolRegistered',
    'TenantBusinessCardUpdated',
    'TenantPeppolUnregistered',
    'TenantPersonalDataErased',
  ],
  async handle(event: RecordedEvent, session: ReadModelSession) {
    const tenants = session.collection<TenantView>(TENANTS);
    const domainEvent = toDomainEvent<TenantEvent>(event);
    const id = domainEvent.data.tenant_id;
    const existing = await tenants.get(id);
    if (!isNewer(event, existing)) return;
    // The tenant decider's evolve is the single definition of what an event means.
    const before = existing ? ({ status: 'present', ...existing } as const) : tenantDecider.initialState();
    const after = tenantDecider.evolve(before, domainEvent);
    if (after.status === 'absent') return;
    const { status: _status, ...tenant } = after;
    await tenants.upsert(id, { ...tenant, last_position: String(event.globalPosition) });
  },
};
