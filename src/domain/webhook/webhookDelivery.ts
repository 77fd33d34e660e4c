import { assertNever, type Decider, type Event } from '../decider.js';
import { retrySchedule } from '../retrySchedule.js';

/**
 * One notification to one subscription, and every attempt to deliver it. A failed call (no
 * 2xx, a timeout, a refused connection) is tried again after 1, 5, 15, 60, 240 and 720 minutes;
 * after that the delivery is given up.
 */
export const WEBHOOK_RETRY_DELAYS_MINUTES: readonly number[] = [1, 5, 15, 60, 240, 720];
export const { maxAttempts: WEBHOOK_MAX_ATTEMPTS, nextAttemptAt: webhookRetryAt } =
  retrySchedule(WEBHOOK_RETRY_DELAYS_MINUTES);

export interface WebhookPayload {
  id: string;
  type: string;
  created_at: string;
  /** The event's position in the log: notifications may arrive out of order, this orders them. */
  sequence: string;
  tenant_id: string;
  data: Record<string, unknown>;
}

export type WebhookDeliveryScheduled = Event<
  'WebhookDeliveryScheduled',
  {
    delivery_id: string;
    webhook_id: string;
    tenant_id: string;
    event_id: string;
    event_type: string;
    payload: WebhookPayload;
    scheduled_at: string;
  }
>;
export type WebhookCallOutcome = 'delivered' | 'failed' | 'cancelled';
export type WebhookDeliveryAttempted = Event<
  'WebhookDeliveryAttempted',
  {
    delivery_id: string;
    webhook_id: string;
    tenant_id: string;
    attempt: number;
    url: string;
    outcome: WebhookCallOutcome;
    status_code: number | null;
    error: string | null;
    started_at: string;
    duration_ms: number;
    /** Null once the delivery is settled: delivered, cancelled, or given up. */
    next_attempt_at: string | null;
  }
>;
export type WebhookDeliveryEvent = WebhookDeliveryScheduled | WebhookDeliveryAttempted;

export type WebhookDeliveryCommand =
  | { type: 'ScheduleWebhookDelivery'; data: Omit<WebhookDeliveryScheduled['data'], 'scheduled_at'> & { now: string } }
  | {
      type: 'RecordWebhookAttempt';
      data: Omit<WebhookDeliveryAttempted['data'], 'next_attempt_at' | 'delivery_id' | 'webhook_id' | 'tenant_id'> & {
        retry_at: string | null;
      };
    };

export type WebhookDeliveryStatus = 'pending' | 'retrying' | 'delivered' | 'failed' | 'cancelled';

export type WebhookDeliveryState =
  | { status: 'absent' }
  | {
      status: 'present';
      delivery_id: string;
      webhook_id: string;
      tenant_id: string;
      payload: WebhookPayload;
      attempts: number;
      delivery_status: WebhookDeliveryStatus;
      next_attempt_at: string | null;
    };

export const webhookDeliveryStream = (id: string) => `webhookdelivery-${id}`;

export function webhookStatusAfter(outcome: WebhookCallOutcome, retrying: boolean): WebhookDeliveryStatus {
  switch (outcome) {
    case 'delivered':
      return 'delivered';
    case 'cancelled':
      return 'cancelled';
    case 'failed':
      return retrying ? 'retrying' : 'failed';
    default:
      return assertNever(outcome);
  }
}

export const webhookDeliveryDecider: Decider<WebhookDeliveryState, WebhookDeliveryCommand, WebhookDeliveryEvent> = {
  initialState: () => ({ status: 'absent' }),

  decide(command, state) {
    switch (command.type) {
      case 'ScheduleWebhookDelivery': {
        if (state.status !== 'absent') return []; // the dispatcher may see an event twice
        const { now, ...data } = command.data;
        return [{ type: 'WebhookDeliveryScheduled', data: { ...data, scheduled_at: now } }];
      }
      case 'RecordWebhookAttempt': {
        // Only the next attempt of an unsettled delivery counts; a re-run job changes nothing.
        if (state.status !== 'present' || command.data.attempt !== state.attempts + 1) return [];
        if (state.delivery_status !== 'pending' && state.delivery_status !== 'retrying') return [];
        const { retry_at, ...attempt } = command.data;
        const retrying = attempt.outcome === 'failed' && retry_at !== null && attempt.attempt < WEBHOOK_MAX_ATTEMPTS;
        return [
          {
            type: 'WebhookDeliveryAttempted',
            data: {
              ...attempt,
              delivery_id: state.delivery_id,
              webhook_id: state.webhook_id,
              tenant_id: state.tenant_id,
              next_attempt_at: retrying ? retry_at : null,
            },
          },
        ];
      }
      default:
        return assertNever(command);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'WebhookDeliveryScheduled': {
        const d = event.data;
        return {
          status: 'present',
          delivery_id: d.delivery_id,
          webhook_id: d.webhook_id,
          tenant_id: d.tenant_id,
          payload: d.payload,
          attempts: 0,
          delivery_status: 'pending',
          next_attempt_at: null,
        };
      }
      case 'WebhookDeliveryAttempted': {
        if (state.status !== 'present') return state;
        const d = event.data;
        return {
          ...state,
          attempts: d.attempt,
          delivery_status: webhookStatusAfter(d.outcome, d.next_attempt_at !== null),
          next_attempt_at: d.next_attempt_at,
        };
      }
      default:
        return assertNever(event);
    }
  },
};
