import { assertNever, type Decider, type Event } from '../decider.js';
import { notFound } from '../errors.js';

/** The notifications a subscription can ask for: one per document state change (and deletion). */
export const WEBHOOK_EVENT_KINDS = [
  'document.created',
  'document.transit',
  'document.sent',
  'document.failed',
  'document.received',
  'document.accepted',
  'document.rejected',
  'document.deleted',
  'document.mls_received',
] as const;
export type WebhookEventKind = (typeof WEBHOOK_EVENT_KINDS)[number];
/** Subscribes to every kind, present and future. */
export const ALL_EVENTS = '*';

export interface WebhookSettings {
  url: string;
  events: string[];
  enabled: boolean;
}

export type WebhookCreated = Event<
  'WebhookCreated',
  WebhookSettings & { webhook_id: string; tenant_id: string; secret: string; created_at: string }
>;
export type WebhookUpdated = Event<'WebhookUpdated', WebhookSettings & { webhook_id: string; updated_at: string }>;
export type WebhookDeleted = Event<'WebhookDeleted', { webhook_id: string; tenant_id: string; deleted_at: string }>;
export type WebhookEvent = WebhookCreated | WebhookUpdated | WebhookDeleted;

export type WebhookCommand =
  | {
      type: 'CreateWebhook';
      data: WebhookSettings & { webhook_id: string; tenant_id: string; secret: string; now: string };
    }
  | { type: 'UpdateWebhook'; data: Partial<WebhookSettings> & { now: string } }
  | { type: 'DeleteWebhook'; data: { now: string } };

export interface Webhook extends WebhookSettings {
  id: string;
  tenant_id: string;
  secret: string;
  created_at: string;
  updated_at: string;
}

export type WebhookState =
  { status: 'absent' } | { status: 'deleted'; id: string; tenant_id: string } | ({ status: 'present' } & Webhook);

export const webhookStream = (id: string) => `webhook-${id}`;

export const wantsKind = (webhook: Pick<Webhook, 'events' | 'enabled'>, kind: string) =>
  webhook.enabled && (webhook.events.includes(ALL_EVENTS) || webhook.events.includes(kind));

const sameEvents = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** A tenant's subscription to document notifications. */
export const webhookDecider: Decider<WebhookState, WebhookCommand, WebhookEvent> = {
  initialState: () => ({ status: 'absent' }),

  decide(command, state) {
    switch (command.type) {
      case 'CreateWebhook': {
        if (state.status !== 'absent') return []; // the id is fresh per request: a repeat is a retry
        const { now, ...data } = command.data;
        return [{ type: 'WebhookCreated', data: { ...data, created_at: now } }];
      }
      case 'UpdateWebhook': {
        if (state.status !== 'present') throw notFound('Webhook not found');
        const next = {
          url: command.data.url ?? state.url,
          events: command.data.events ?? state.events,
          enabled: command.data.enabled ?? state.enabled,
        };
        if (next.url === state.url && next.enabled === state.enabled && sameEvents(next.events, state.events))
          return [];
        return [{ type: 'WebhookUpdated', data: { ...next, webhook_id: state.id, updated_at: command.data.now } }];
      }
      case 'DeleteWebhook':
        if (state.status !== 'present') throw notFound('Webhook not found');
        return [
          {
            type: 'WebhookDeleted',
            data: { webhook_id: state.id, tenant_id: state.tenant_id, deleted_at: command.data.now },
          },
        ];
      default:
        return assertNever(command);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'WebhookCreated': {
        const { webhook_id, created_at, ...rest } = event.data;
        return { status: 'present', ...rest, id: webhook_id, created_at, updated_at: created_at };
      }
      case 'WebhookUpdated': {
        if (state.status !== 'present') return state;
        const { webhook_id: _id, updated_at, ...settings } = event.data;
        return { ...state, ...settings, updated_at };
      }
      case 'WebhookDeleted':
        return state.status === 'present' ? { status: 'deleted', id: state.id, tenant_id: state.tenant_id } : state;
      default:
        return assertNever(event);
    }
  },
};
