import type { RecordedEvent } from '../application/ports/eventStore.js';
import type { ReadModelSession } from '../application/ports/readModelStore.js';
import { toDomainEvent } from '../application/commandHandler.js';
import type { TenantEvent } from '../domain/tenant/tenant.js';
import { participantKey } from '../domain/peppol/participantId.js';
import { isNewer, type Projection } from '../application/ports/projection.js';
import { PEPPOL_PARTICIPANTS, type PeppolParticipantView } from '../application/readModels/peppolParticipantView.js';

/** The participant registry read model: what this instance's SMP publishes and local delivery finds. */
export const peppolParticipantsProjection: Projection = {
  name: 'peppol_participants',
  version: 1,
  collections: [
    {
      name: PEPPOL_PARTICIPANTS,
      indexes: [
        { fields: [{ field: 'tenant_id' }] },
        { fields: [{ field: 'registered' }, { field: 'country_code' }, { field: 'company_name' }] },
      ],
    },
  ],
  handles: ['TenantPeppolRegistered', 'TenantBusinessCardUpdated', 'TenantPeppolUnregistered', 'TenantDeleted'],
  async handle(event: RecordedEvent, session: ReadModelSession) {
    const participants = session.collection<PeppolParticipantView>(PEPPOL_PARTICIPANTS);
    const domainEvent = toDomainEvent<TenantEvent>(event);
    const position = String(event.globalPosition);
    switch (domainEvent.type) {
      case 'TenantPeppolRegistered': {
        const key = participantKey(domainEvent.data.peppol_id);
        if (!key || !isNewer(event, await participants.get(key))) return;
        const { tenant_id, peppol_id, company_name, country_code, simulated, registered_at } = domainEvent.data;
        await participants.upsert(key, {
          participant_key: key,
          peppol_id,
          tenant_id,
          company_name,
          country_code,
          simulated,
          registered_at,
          updated_at: registered_at,
          registered: true,
          last_position: position,
        });
        return;
      }
      case 'TenantBusinessCardUpdated':
      case 'TenantPeppolUnregistered': {
        const key = participantKey(domainEvent.data.peppol_id);
        const existing = key ? await participants.get(key) : null;
        // Another tenant may hold the id by now (after this one unregistered): leave its entry alone.
        if (!key || !existing || !isNewer(event, existing) || existing.tenant_id !== domainEvent.data.tenant_id) return;
        const change =
          domainEvent.type === 'TenantBusinessCardUpdated'
            ? { company_name: domainEvent.data.company_name, updated_at: domainEvent.data.updated_at }
            : { registered: false, updated_at: domainEvent.data.unregistered_at };
        await participants.upsert(key, { ...existing, ...change, last_position: position });
        return;
      }
      case 'TenantDeleted': {
        // A deleted tenant receives nothing, even if its unregistration did not complete.
        const held = await participants.find({
          filter: { op: 'eq', field: 'tenant_id', value: domainEvent.data.tenant_id },
        });
        for (const entry of held.items) {
          if (!entry.registered || !isNewer(event, entry)) continue;
          await participants.upsert(entry.participant_key, {
            ...entry,
            registered: false,
            updated_at: domainEvent.data.deleted_at,
            last_position: position,
          });
        }
        return;
      }
      default:
        return;
    }
  },
};
