import { randomUUID } from 'node:crypto';
import { EVENT_STORE, type EventMetadata, type EventStore } from '../ports/eventStore.js';
import { READ_MODEL_STORE, type ReadModelStore } from '../ports/readModelStore.js';
import { inject, injectable } from '../injection.js';
import { handleCommand, loadState, loadStream } from '../commandHandler.js';
import {
  ALL_EVENTS,
  WEBHOOK_EVENT_KINDS,
  webhookDecider,
  webhookStream,
  type Webhook,
  type WebhookSettings,
  type WebhookState,
} from '../../domain/webhook/webhook.js';
import { invalid, notFound } from '../../domain/errors.js';
import {
  WEBHOOKS,
  WEBHOOK_DELIVERIES,
  type WebhookDeliveryView,
  type WebhookView,
} from '../readModels/webhookViews.js';
import { newWebhookSecret } from './webhookSignature.js';
import { isPrivateHost } from './privateNetworks.js';

const KNOWN_KINDS: ReadonlySet<string> = new Set([...WEBHOOK_EVENT_KINDS, ALL_EVENTS]);
const now = () => new Date().toISOString();

/** The client's WebhookResponse shape. */
export const webhookResponse = (w: Webhook) => ({
  id: w.id,
  url: w.url,
  events: w.events,
  secret: w.secret,
  enabled: w.enabled,
});

/** `boolean`: whether subscriptions may name loopback and private-network addresses (WEBHOOK_ALLOW_PRIVATE_NETWORKS). */
export const WEBHOOKS_ALLOW_PRIVATE_NETWORKS = Symbol('WebhooksAllowPrivateNetworks');

/** A tenant's webhook subscriptions. Reads come from the read model; writes from the aggregate. */
@injectable()
export class WebhookCommands {
  constructor(
    @inject(EVENT_STORE) private readonly store: EventStore,
    @inject(READ_MODEL_STORE) private readonly readModels: ReadModelStore,
    @inject(WEBHOOKS_ALLOW_PRIVATE_NETWORKS) private readonly allowPrivateNetworks: boolean,
  ) {}

  private checkUrl(url: string): string {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw invalid('The url is not a valid absolute URL', ['body', 'url']);
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
      throw invalid('The url must use http or https', ['body', 'url']);
    if (parsed.username || parsed.password)
      throw invalid('The url must not carry credentials; verify deliveries with the signing secret instead', [
        'body',
        'url',
      ]);
    if (url.length > 2000) throw invalid('The url is longer than 2000 characters', ['body', 'url']);
    if (!this.allowPrivateNetworks && isPrivateHost(parsed.hostname)) {
      throw invalid('The url points at a loopback or private-network address, which this service does not call', [
        'body',
        'url',
      ]);
    }
    return parsed.toString();
  }

  private checkEvents(events: string[]): string[] {
    if (events.length === 0)
      throw invalid(`Subscribe to at least one event: ${WEBHOOK_EVENT_KINDS.join(', ')}, or "*"`, ['body', 'events']);
    events.forEach((kind, i) => {
      if (!KNOWN_KINDS.has(kind))
        throw invalid(
          `Unknown event ${JSON.stringify(kind)}; known: ${WEBHOOK_EVENT_KINDS.join(', ')}, or "*" for all`,
          ['body', 'events', i],
        );
    });
    return [...new Set(events)];
  }

  async create(tenantId: string, input: WebhookSettings, metadata: EventMetadata): Promise<Webhook> {
    const webhookId = randomUUID();
    const result = await handleCommand(
      this.store,
      webhookDecider,
      webhookStream(webhookId),
      {
        type: 'CreateWebhook',
        data: {
          webhook_id: webhookId,
          tenant_id: tenantId,
          url: this.checkUrl(input.url),
          events: this.checkEvents(input.events),
          enabled: input.enabled,
          secret: newWebhookSecret(),
          now: now(),
        },
      },
      { ...metadata, tenantId },
      [],
    ); // a fresh id names no stream yet: nothing to read
    return present(result.state);
  }

  async get(tenantId: string, webhookId: string): Promise<Webhook> {
    return tenantWebhook(tenantId, await loadState(this.store, webhookDecider, webhookStream(webhookId)));
  }

  async update(
    tenantId: string,
    webhookId: string,
    change: Partial<WebhookSettings>,
    metadata: EventMetadata,
  ): Promise<Webhook> {
    // Read once: not found comes before the input's problems, and the stream read is handed on.
    const loaded = await loadStream(this.store, webhookDecider, webhookStream(webhookId));
    tenantWebhook(tenantId, loaded.state);
    const checked = {
      ...(change.url !== undefined ? { url: this.checkUrl(change.url) } : {}),
      ...(change.events !== undefined ? { events: this.checkEvents(change.events) } : {}),
      ...(change.enabled !== undefined ? { enabled: change.enabled } : {}),
    };
    const result = await handleCommand(
      this.store,
      webhookDecider,
      webhookStream(webhookId),
      { type: 'UpdateWebhook', data: { ...checked, now: now() } },
      { ...metadata, tenantId },
      loaded,
    );
    return present(result.state);
  }

  async delete(tenantId: string, webhookId: string, metadata: EventMetadata): Promise<void> {
    const command = { type: 'DeleteWebhook' as const, data: { now: now() } };
    await handleCommand(
      this.store,
      webhookDecider,
      webhookStream(webhookId),
      (state) => {
        tenantWebhook(tenantId, state);
        return command;
      },
      { ...metadata, tenantId },
    );
  }

  async list(tenantId: string): Promise<WebhookView[]> {
    const page = await this.readModels.collection<WebhookView>(WEBHOOKS).find({
      filter: { op: 'eq', field: 'tenant_id', value: tenantId },
      sort: [{ field: 'created_at', direction: 'asc' }],
      limit: 1000,
    });
    return page.items;
  }

  /** The subscription's notifications, newest first, with every call made for each. */
  async deliveries(tenantId: string, webhookId: string, page: number, pageSize: number) {
    await this.get(tenantId, webhookId);
    const result = await this.readModels.collection<WebhookDeliveryView>(WEBHOOK_DELIVERIES).find({
      filter: { op: 'eq', field: 'webhook_id', value: webhookId },
      sort: [
        { field: 'created_at', direction: 'desc' },
        { field: 'id', direction: 'desc' },
      ],
      skip: (page - 1) * pageSize,
      limit: pageSize,
    });
    const pages = Math.ceil(result.total / pageSize);
    return {
      items: result.items.map(({ last_position: _p, tenant_id: _t, ...view }) => view),
      total: result.total,
      page,
      page_size: pageSize,
      pages,
      has_next_page: page < pages,
    };
  }

  /**
   * The subscription's delivery history, newest first: each notification with its status, how
   * many calls were made, the last answer's status code, and every call.
   */
  async history(tenantId: string, webhookId: string, page: number, pageSize: number) {
    const deliveries = await this.deliveries(tenantId, webhookId, page, pageSize);
    return {
      ...deliveries,
      items: deliveries.items.map((delivery) => {
        const last = delivery.attempts[delivery.attempts.length - 1];
        return {
          id: delivery.id,
          event_id: delivery.event_id,
          event_type: delivery.event_type,
          document_id: delivery.document_id,
          status: delivery.status,
          attempt_count: delivery.attempts.length,
          response_code: last?.status_code ?? null,
          error: last?.error ?? null,
          created_at: delivery.created_at,
          last_attempt_at: delivery.last_attempt_at,
          next_attempt_at: delivery.next_attempt_at,
          attempts: delivery.attempts,
        };
      }),
    };
  }
}

function present(state: WebhookState): Webhook {
  if (state.status !== 'present') throw notFound('Webhook not found');
  const { status: _status, ...webhook } = state;
  return webhook;
}

/** Refuses as not found what is not the tenant's present subscription. */
function tenantWebhook(tenantId: string, state: WebhookState): Webhook {
  if (state.status !== 'present' || state.tenant_id !== tenantId) throw notFound('Webhook not found');
  return present(state);
}
