import type { RecordedEvent } from '../application/ports/eventStore.js';
import type { ReadModelSession } from '../application/ports/readModelStore.js';
import { toDomainEvent } from '../application/commandHandler.js';
import type { OrganizationEvent } from '../domain/organization/organization.js';
import { isNewer, type Projection } from '../application/ports/projection.js';
import { ORGANIZATIONS, type OrganizationView } from '../application/readModels/accountViews.js';

/** The organizations read model behind the operator's list of organizations. */
export const organizationsProjection: Projection = {
  name: 'organizations',
  version: 1,
  collections: [{ name: ORGANIZATIONS, indexes: [{ fields: [{ field: 'created_at' }] }] }],
  handles: ['OrganizationCreated'],
  async handle(event: RecordedEvent, session: ReadModelSession) {
    const organizations = session.collection<OrganizationView>(ORGANIZATIONS);
    const { data } = toDomainEvent<OrganizationEvent>(event);
    const existing = await organizations.get(data.organization_id);
    if (!isNewer(event, existing)) return;
    await organizations.upsert(data.organization_id, {
      id: data.organization_id,
      name: data.name,
      created_at: data.created_at,
      last_position: String(event.globalPosition),
    });
  },
};
