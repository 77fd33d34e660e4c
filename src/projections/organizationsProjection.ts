import type { RecordedEvent } from '../application/ports/eventStore.js';
import type { ReadModelSession } from '../application/ports/readModelStore.js';
import { toDomainEvent } from '../application/commandHandler.js';
import type { OrganizationEvent } from '../domain/organization/organization.js';
import { isNewer, type Projection } from '../application/ports/projection.js';
import { assertNever } from '../domain/decider.js';
import { ORGANIZATIONS, type OrganizationView } from '../application/readModels/accountViews.js';

/** The organizations read model behind the operator's list of organizations. */
export const organizationsProjection: Projection = {
  name: 'organizations',
  version: 1,
  collections: [{ name: ORGANIZATIONS, indexes: [{ fields: [{ field: 'created_at' }] }] }],
  handles: ['OrganizationCreated', 'OrganizationRetentionChanged'],
  async handle(event: RecordedEvent, session: ReadModelSession) {
    const organizations = session.collection<OrganizationView>(ORGANIZATIONS);
    const domainEvent = toDomainEvent<OrganizationEvent>(event);
    const existing = await organizations.get(domainEvent.data.organization_id);
    if (!isNewer(event, existing)) return;
    const last_position = String(event.globalPosition);
    switch (domainEvent.type) {
      case 'OrganizationCreated': {
        const { data } = domainEvent;
        await organizations.upsert(data.organization_id, {
          id: data.organization_id,
          name: data.name,
          created_at: data.created_at,
          last_position,
        });
        return;
      }
      case 'OrganizationRetentionChanged':
        if (existing)
          await organizations.upsert(existing.id, {
            ...existing,
            retention_years: domainEvent.data.retention_years,
            last_position,
          });
        return;
      default:
        return assertNever(domainEvent);
    }
  },
};
