import type { Webhook } from '../../domain/webhook/webhook.js';
import type { WebhookDeliveryStatus } from '../../domain/webhook/webhookDelivery.js';
import type { Versioned } from '../ports/projection.js';

/** A tenant's subscriptions (projections/webhooksProjection.ts). */
export type WebhookView = Webhook & Versioned;
export const WEBHOOKS = 'webhooks';

export interface WebhookAttemptView {
  attempt: number;
  url: string;
  outcome: string;
  status_code: number | null;
  error: string | null;
  started_at: string;
  duration_ms: number;
  next_attempt_at: string | null;
}

/** The delivery history of each subscription: every notification and every call made for it. */
export interface WebhookDeliveryView extends Versioned {
  id: string;
  webhook_id: string;
  tenant_id: string;
  event_id: string;
  event_type: string;
  document_id: string | null;
  status: WebhookDeliveryStatus;
  created_at: string;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
  attempts: WebhookAttemptView[];
}
export const WEBHOOK_DELIVERIES = 'webhook_deliveries';
