import type { RecordedEvent } from '../application/ports/eventStore.js';
import type { ReadModelSession } from '../application/ports/readModelStore.js';
import { toDomainEvent } from '../application/commandHandler.js';
import { webhookDecider, type WebhookEvent } from '../domain/webhook/webhook.js';
import { webhookStatusAfter, type WebhookDeliveryEvent } from '../domain/webhook/webhookDelivery.js';
import { isNewer, type Projection } from '../application/ports/projection.js';
import {
  WEBHOOK_DELIVERIES,
  WEBHOOKS,
  type WebhookDeliveryView,
  type WebhookView,
} from '../application/readModels/webhookViews.js';

export const webhooksProjection: Projection = {
  name: 'webhooks',
  version: 1,
  collections: [{ name: WEBHOOKS, indexes: [{ fields: [{ field: 'tenant_id' }, { field: 'created_at' }] }] }],
  handles: ['WebhookCreated', 'WebhookUpdated', 'WebhookDeleted'],
  async handle(event: RecordedEvent, session: ReadModelSession) {
    const webhooks = session.collection<WebhookView>(WEBHOOKS);
    const domainEvent = toDomainEvent<WebhookEvent>(event);
    const id = domainEvent.data.webhook_id;
    const existing = await webhooks.get(id);
    if (!isNewer(event, existing)) return;
    const after = webhookDecider.evolve(
      existing ? { status: 'present', ...existing } : webhookDecider.initialState(),
      domainEvent,
    );
    if (after.status === 'deleted') return webhooks.delete(id);
    if (after.status === 'absent') return;
    const { status: _status, ...webhook } = after;
    await webhooks.upsert(id, { ...webhook, last_position: String(event.globalPosition) });
  },
};

/** The delivery history of each subscription: every notification and every call made for it. */
export const webhookDeliveriesProjection: Projection = {
  name: 'webhook-deliveries',
  version: 1,
  collections: [
    {
      name: WEBHOOK_DELIVERIES,
      indexes: [{ fields: [{ field: 'webhook_id' }, { field: 'created_at', direction: 'desc' }] }],
    },
  ],
  handles: ['WebhookDeliveryScheduled', 'WebhookDeliveryAttempted'],
  async handle(event: RecordedEvent, session: ReadModelSession) {
    const deliveries = session.collection<WebhookDeliveryView>(WEBHOOK_DELIVERIES);
    const domainEvent = toDomainEvent<WebhookDeliveryEvent>(event);
    const id = domainEvent.data.delivery_id;
    const existing = await deliveries.get(id);
    if (!isNewer(event, existing)) return;
    const position = String(event.globalPosition);
    switch (domainEvent.type) {
      case 'WebhookDeliveryScheduled': {
        const d = domainEvent.data;
        const documentId = typeof d.payload.data.document_id === 'string' ? d.payload.data.document_id : null;
        await deliveries.upsert(id, {
          id,
          webhook_id: d.webhook_id,
          tenant_id: d.tenant_id,
          event_id: d.event_id,
          event_type: d.event_type,
          document_id: documentId,
          status: 'pending',
          created_at: d.scheduled_at,
          last_attempt_at: null,
          next_attempt_at: null,
          attempts: [],
          last_position: position,
        });
        return;
      }
      case 'WebhookDeliveryAttempted': {
        if (!existing) return;
        const { delivery_id: _d, webhook_id: _w, tenant_id: _t, ...attempt } = domainEvent.data;
        await deliveries.upsert(id, {
          ...existing,
          status: webhookStatusAfter(attempt.outcome, attempt.next_attempt_at !== null),
          last_attempt_at: attempt.started_at,
          next_attempt_at: attempt.next_attempt_at,
          attempts: [...existing.attempts, attempt],
          last_position: position,
        });
        return;
      }
      default: {
        const exhaustive: never = domainEvent;
        return exhaustive;
      }
    }
  },
};
