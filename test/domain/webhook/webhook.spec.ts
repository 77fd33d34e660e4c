import { expect } from 'chai';
import { deciderSpec } from '../../support/deciderSpec.js';
import { wantsKind, webhookDecider, type WebhookEvent } from '../../../src/domain/webhook/webhook.js';
import {
  webhookDeliveryDecider,
  WEBHOOK_MAX_ATTEMPTS,
  type WebhookDeliveryEvent,
} from '../../../src/domain/webhook/webhookDelivery.js';
import { documentNotification } from '../../../src/domain/webhook/documentNotifications.js';

const now = '2026-05-01T10:00:00.000Z';
const created: WebhookEvent = {
  type: 'WebhookCreated',
  data: {
    webhook_id: 'w1',
    tenant_id: 't1',
    url: 'https://example.com/hook',
    events: ['document.sent'],
    enabled: true,
    secret: 'whsec_x',
    created_at: now,
  },
};

describe('Webhook decider', () => {
  const spec = deciderSpec(webhookDecider);

  it('updates only what changes, and nothing when nothing changes', () => {
    spec
      .given([created])
      .when({ type: 'UpdateWebhook', data: { enabled: false, now } })
      .then([
        {
          type: 'WebhookUpdated',
          data: {
            webhook_id: 'w1',
            url: 'https://example.com/hook',
            events: ['document.sent'],
            enabled: false,
            updated_at: now,
          },
        },
      ]);
    spec
      .given([created])
      .when({ type: 'UpdateWebhook', data: { events: ['document.sent'], now } })
      .thenNothingHappens();
  });

  it('deletes once; a deleted or absent subscription is not found', () => {
    const deleted: WebhookEvent = {
      type: 'WebhookDeleted',
      data: { webhook_id: 'w1', tenant_id: 't1', deleted_at: now },
    };
    spec.given([created]).when({ type: 'DeleteWebhook', data: { now } }).then([deleted]);
    spec.given([created, deleted]).when({ type: 'DeleteWebhook', data: { now } }).thenRefuses('not_found');
    spec
      .given([])
      .when({ type: 'UpdateWebhook', data: { enabled: true, now } })
      .thenRefuses('not_found');
  });

  it('matches the subscribed kinds, everything for "*", nothing when disabled', () => {
    expect(wantsKind({ events: ['document.sent'], enabled: true }, 'document.sent')).to.equal(true);
    expect(wantsKind({ events: ['document.sent'], enabled: true }, 'document.failed')).to.equal(false);
    expect(wantsKind({ events: ['*'], enabled: true }, 'document.failed')).to.equal(true);
    expect(wantsKind({ events: ['*'], enabled: false }, 'document.failed')).to.equal(false);
  });
});

describe('Webhook delivery decider', () => {
  const spec = deciderSpec(webhookDeliveryDecider);
  const payload = {
    id: 'e1',
    type: 'document.sent',
    created_at: now,
    sequence: '7',
    tenant_id: 't1',
    data: { document_id: 'd1' },
  };
  const scheduled: WebhookDeliveryEvent = {
    type: 'WebhookDeliveryScheduled',
    data: {
      delivery_id: 'x1',
      webhook_id: 'w1',
      tenant_id: 't1',
      event_id: 'e1',
      event_type: 'document.sent',
      payload,
      scheduled_at: now,
    },
  };
  const call = (attempt: number, outcome: 'delivered' | 'failed' | 'cancelled') => ({
    type: 'RecordWebhookAttempt' as const,
    data: {
      attempt,
      url: 'https://example.com/hook',
      outcome,
      status_code: outcome === 'delivered' ? 200 : null,
      error: null,
      started_at: now,
      duration_ms: 1,
      retry_at: '2026-05-01T10:01:00.000Z',
    },
  });
  const attempted = (
    attempt: number,
    outcome: 'delivered' | 'failed' | 'cancelled',
    next: string | null,
  ): WebhookDeliveryEvent => {
    const { retry_at: _r, ...data } = call(attempt, outcome).data;
    return {
      type: 'WebhookDeliveryAttempted',
      data: { ...data, delivery_id: 'x1', webhook_id: 'w1', tenant_id: 't1', next_attempt_at: next },
    };
  };

  it('is scheduled once per event and subscription', () => {
    spec
      .given([scheduled])
      .when({ type: 'ScheduleWebhookDelivery', data: { ...scheduled.data, now } as never })
      .thenNothingHappens();
  });

  it('retries failures until the schedule ends; a delivered or cancelled delivery is settled', () => {
    spec
      .given([scheduled])
      .when(call(1, 'failed'))
      .then([attempted(1, 'failed', '2026-05-01T10:01:00.000Z')]);
    spec
      .given([scheduled])
      .when(call(1, 'delivered'))
      .then([attempted(1, 'delivered', null)]);
    spec
      .given([scheduled])
      .when(call(1, 'cancelled'))
      .then([attempted(1, 'cancelled', null)]);
    const failures = Array.from({ length: WEBHOOK_MAX_ATTEMPTS - 1 }, (_, i) => attempted(i + 1, 'failed', 'x'));
    spec
      .given([scheduled, ...failures])
      .when(call(WEBHOOK_MAX_ATTEMPTS, 'failed'))
      .then([attempted(WEBHOOK_MAX_ATTEMPTS, 'failed', null)]);
    spec
      .given([scheduled, attempted(1, 'delivered', null)])
      .when(call(2, 'failed'))
      .thenNothingHappens();
    spec
      .given([scheduled, attempted(1, 'failed', 'x')])
      .when(call(1, 'failed'))
      .thenNothingHappens();
  });
});

describe('Document notifications', () => {
  it('names one kind per state change and nothing for other events', () => {
    expect(
      documentNotification({
        type: 'DocumentSent',
        data: { document_id: 'd1', delivery_id: 'x', message_id: 'm', sent_at: now },
      }),
    ).to.deep.equal({
      kind: 'document.sent',
      data: { document_id: 'd1', state: 'SENT', direction: 'OUTBOUND', message_id: 'm' },
    });
    expect(
      documentNotification({
        type: 'ResponseReceived',
        data: {
          document_id: 'd1',
          code: 'RE',
          reason: 'no PO',
          responder_peppol_id: null,
          invoice_response_ref: { sha256: '0'.repeat(64), size: 0, media_type: 'application/xml' },
          received_at: now,
        },
      })?.kind,
    ).to.equal('document.rejected');
    expect(
      documentNotification({
        type: 'DocumentValidated',
        data: { document_id: 'd1', validation_id: 'v', is_valid: true, fatal: 0, warnings: 0, validated_at: now },
      }),
    ).to.equal(null);
  });
});
