import type { RecordedEvent } from '../application/ports/eventStore.js';
import type { ReadModelSession } from '../application/ports/readModelStore.js';
import { toDomainEvent } from '../application/commandHandler.js';
import { apiKeyDecider, type ApiKeyEvent, type ApiKeyState } from '../domain/apiKey/apiKey.js';
import { isNewer, type Projection } from '../application/ports/projection.js';
import { API_KEYS, type ApiKeyView } from '../application/readModels/accountViews.js';

export const apiKeysProjection: Projection = {
  name: 'api_keys',
  version: 1,
  collections: [
    {
      name: API_KEYS,
      indexes: [
        { fields: [{ field: 'tenant_id' }, { field: 'created_at' }] },
        { fields: [{ field: 'organization_id' }] },
      ],
    },
  ],
  handles: ['ApiKeyIssued', 'ApiKeyRenamed', 'ApiKeyRevoked'],
  async handle(event: RecordedEvent, session: ReadModelSession) {
    const keys = session.collection<ApiKeyView>(API_KEYS);
    const domainEvent = toDomainEvent<ApiKeyEvent>(event);
    const existing = await keys.get(domainEvent.data.key_id);
    if (!isNewer(event, existing)) return;
    const before: ApiKeyState = existing
      ? {
          status: existing.is_deleted ? 'revoked' : 'active',
          id: existing.id,
          owner:
            existing.owner_kind === 'tenant'
              ? { kind: 'tenant', organization_id: existing.organization_id, tenant_id: existing.tenant_id! }
              : { kind: 'organization', organization_id: existing.organization_id },
          name: existing.name,
          description: existing.description,
          hash: '',
          prefix: existing.prefix,
          created_at: existing.created_at,
          updated_at: existing.updated_at,
        }
      : apiKeyDecider.initialState();
    const after = apiKeyDecider.evolve(before, domainEvent);
    if (after.status === 'absent') return;
    await keys.upsert(after.id, {
      id: after.id,
      owner_kind: after.owner.kind,
      organization_id: after.owner.organization_id,
      tenant_id: after.owner.kind === 'tenant' ? after.owner.tenant_id : null,
      name: after.name,
      description: after.description,
      prefix: after.prefix,
      created_at: after.created_at,
      updated_at: after.updated_at,
      is_deleted: after.status === 'revoked',
      last_position: String(event.globalPosition),
    });
  },
};
