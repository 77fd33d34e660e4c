import type { Logger } from 'pino';
import { randomUUID } from 'node:crypto';
import { notFound } from '../../domain/errors.js';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '../ports/eventStore.js';
import { JOB_SCHEDULER, type JobScheduler } from '../ports/jobScheduler.js';
import type { ReadModelSession } from '../ports/readModelStore.js';
import { WEBHOOK_CLIENT, type WebhookClient } from '../ports/webhookClient.js';
import { LOGGER } from '../ports/logger.js';
import { inject, injectable } from '../injection.js';
import { handleCommand, loadState, loadStream, toDomainEvent } from '../commandHandler.js';
import { assertNever } from '../../domain/decider.js';
import { DOCUMENT_EVENT_TYPES, type DocumentEvent } from '../../domain/document/lifecycle/documentAggregate.js';
import { documentNotification } from '../../domain/webhook/documentNotifications.js';
import { wantsKind, webhookDecider, webhookStream, type WebhookEvent } from '../../domain/webhook/webhook.js';
import {
  webhookDeliveryDecider,
  webhookDeliveryStream,
  webhookRetryAt,
  type WebhookCallOutcome,
  type WebhookDeliveryState,
} from '../../domain/webhook/webhookDelivery.js';
import type { Projection } from '../ports/projection.js';
import { derivedId } from '../derivedId.js';
import { webhookHeaders } from './webhookSignature.js';
import { systemActor } from '../actor.js';

export const WEBHOOK_JOB = 'deliver-webhook';
interface WebhookJob {
  delivery_id: string;
  attempt: number;
}

/** The dispatcher's own copy of the subscriptions, as of the position it has reached in the log. */
interface Route {
  id: string;
  tenant_id: string;
  events: string[];
  enabled: boolean;
}
const ROUTES = 'webhook_routes';
const WEBHOOK_EVENTS: ReadonlySet<string> = new Set(['WebhookCreated', 'WebhookUpdated', 'WebhookDeleted']);
/** Whose event it is: every command records its tenant; a document's first event also names it. */
const tenantOf = (event: RecordedEvent): string | undefined =>
  event.metadata.tenantId ?? (event.data as { tenant_id?: string }).tenant_id;

export interface WebhookDispatchOptions {
  /** A minute in production; tests compress the schedule. */
  retryUnitMs: number;
  timeoutMs: number;
  concurrency: number;
  /** Called between the call and recording it (crash tests kill the process here). */
  afterCall?: () => void;
}

export const WEBHOOK_DISPATCH_OPTIONS = Symbol('WebhookDispatchOptions');

/**
 * Webhook notifications. The dispatcher follows the log: subscription changes update its own
 * routing table and each document state change becomes one delivery per matching subscription
 * (a stream of its own, then a job). Deliveries are calls with a timeout on their own job
 * queue, so a slow or dead subscriber delays nobody's documents. Because routing uses the
 * subscriptions as of each event's place in the log, a subscription sees exactly the changes
 * that happened after it was made.
 */
@injectable()
export class WebhookDispatch {
  private readonly logger: Logger;

  constructor(
    @inject(EVENT_STORE) private readonly store: EventStore,
    @inject(JOB_SCHEDULER) private readonly scheduler: JobScheduler,
    @inject(WEBHOOK_CLIENT) private readonly client: WebhookClient,
    @inject(WEBHOOK_DISPATCH_OPTIONS) private readonly options: WebhookDispatchOptions,
    @inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'webhooks' });
  }

  register(): void {
    this.scheduler.define<WebhookJob>(WEBHOOK_JOB, (job) => this.attempt(job), {
      concurrency: this.options.concurrency,
    });
  }

  dispatcher(): Projection {
    return {
      name: 'webhook-dispatcher',
      version: 1,
      collections: [{ name: ROUTES, indexes: [{ fields: [{ field: 'tenant_id' }] }] }],
      handles: [...WEBHOOK_EVENTS, ...DOCUMENT_EVENT_TYPES],
      handle: (event, session) => this.dispatch([event], session),
      handleBatch: (events, session) => this.dispatch(events, session),
    };
  }

  /**
   * A batch in log order. The routes of the batch's tenants are read once; the batch's own
   * subscription changes update that table as they come, so each notification still sees the
   * subscriptions as of its place in the log.
   */
  private async dispatch(events: RecordedEvent[], session: ReadModelSession): Promise<void> {
    const routes = session.collection<Route>(ROUTES);
    const tenants = [
      ...new Set(
        events
          .filter((e) => !WEBHOOK_EVENTS.has(e.type))
          .map(tenantOf)
          .filter((t): t is string => !!t),
      ),
    ];
    const table = new Map<string, Route>();
    if (tenants.length > 0) {
      const found = await routes.find({ filter: { op: 'in', field: 'tenant_id', values: tenants }, limit: 100_000 });
      for (const route of found.items) table.set(route.id, route);
    }
    for (const event of events) {
      if (!WEBHOOK_EVENTS.has(event.type)) {
        await this.notify(event, table);
        continue;
      }
      await this.route(event, session);
      const id = (event.data as { webhook_id: string }).webhook_id;
      const route = await routes.get(id);
      if (route) table.set(id, route);
      else table.delete(id);
    }
  }

  private async route(event: RecordedEvent, session: ReadModelSession): Promise<void> {
    const routes = session.collection<Route>(ROUTES);
    const e = toDomainEvent<WebhookEvent>(event);
    switch (e.type) {
      case 'WebhookCreated':
        return routes.upsert(e.data.webhook_id, {
          id: e.data.webhook_id,
          tenant_id: e.data.tenant_id,
          events: e.data.events,
          enabled: e.data.enabled,
        });
      case 'WebhookUpdated': {
        const existing = await routes.get(e.data.webhook_id);
        if (existing) await routes.upsert(existing.id, { ...existing, events: e.data.events, enabled: e.data.enabled });
        return;
      }
      case 'WebhookDeleted':
        return routes.delete(e.data.webhook_id);
      default:
        return assertNever(e);
    }
  }

  private async notify(event: RecordedEvent, table: ReadonlyMap<string, Route>): Promise<void> {
    const notification = documentNotification(toDomainEvent<DocumentEvent>(event));
    const tenantId = tenantOf(event);
    if (!notification || !tenantId) return;
    for (const route of [...table.values()].filter(
      (r) => r.tenant_id === tenantId && wantsKind(r, notification.kind),
    )) {
      const deliveryId = derivedId('webhook', event.id, route.id);
      // Usually a new stream, so it is not read first; when the event is seen again the append
      // conflicts, the stream is read, and the decider records nothing.
      await handleCommand(
        this.store,
        webhookDeliveryDecider,
        webhookDeliveryStream(deliveryId),
        {
          type: 'ScheduleWebhookDelivery',
          data: {
            delivery_id: deliveryId,
            webhook_id: route.id,
            tenant_id: tenantId,
            event_id: event.id,
            event_type: notification.kind,
            payload: {
              id: event.id,
              type: notification.kind,
              created_at: event.recordedAt,
              sequence: String(event.globalPosition),
              tenant_id: tenantId,
              data: notification.data,
            },
            now: new Date().toISOString(),
          },
        },
        { actor: systemActor('webhooks'), tenantId, causationId: event.id },
        [],
      );
      await this.schedule({ delivery_id: deliveryId, attempt: 1 });
    }
  }

  private schedule(job: WebhookJob, at?: Date): Promise<void> {
    return this.scheduler.schedule(WEBHOOK_JOB, job, { at, uniqueKey: `webhook:${job.delivery_id}:${job.attempt}` });
  }

  async attempt(job: WebhookJob): Promise<void> {
    const stream = webhookDeliveryStream(job.delivery_id);
    const loaded = await loadStream(this.store, webhookDeliveryDecider, stream);
    const { state } = loaded;
    if (state.status !== 'present') return;
    if (state.attempts >= job.attempt) return this.followUp(state); // ran before a crash
    if (job.attempt !== state.attempts + 1) return;
    const webhook = await loadState(this.store, webhookDecider, webhookStream(state.webhook_id));
    const started = new Date();
    let outcome: WebhookCallOutcome = 'cancelled';
    let statusCode: number | null = null;
    let error: string | null = null;
    let url = '';
    if (webhook.status !== 'present') error = 'The subscription was deleted';
    else if (!webhook.enabled) error = 'The subscription is disabled';
    else {
      url = webhook.url;
      const body = JSON.stringify(state.payload);
      const headers = webhookHeaders(
        webhook.secret,
        state.payload.id,
        Math.floor(started.getTime() / 1000),
        body,
        state.payload.type,
      );
      try {
        statusCode = await this.client.post(url, headers, body, this.options.timeoutMs);
        outcome = statusCode >= 200 && statusCode < 300 ? 'delivered' : 'failed';
        if (outcome === 'failed') error = `HTTP ${statusCode}`;
      } catch (e) {
        outcome = 'failed';
        error = (e as Error).message || 'request failed';
      }
    }
    this.options.afterCall?.();
    const finished = new Date();
    const result = await handleCommand(
      this.store,
      webhookDeliveryDecider,
      stream,
      {
        type: 'RecordWebhookAttempt',
        data: {
          attempt: job.attempt,
          url,
          outcome,
          status_code: statusCode,
          error,
          started_at: started.toISOString(),
          duration_ms: finished.getTime() - started.getTime(),
          retry_at: webhookRetryAt(job.attempt, finished, this.options.retryUnitMs)?.toISOString() ?? null,
        },
      },
      { actor: systemActor('webhooks'), tenantId: state.tenant_id },
      loaded,
    );
    if (outcome === 'failed')
      this.logger.warn(
        { webhook: state.webhook_id, delivery: state.delivery_id, attempt: job.attempt, url, error },
        `webhook call ${job.attempt} of ${state.webhook_id}${url ? ` to ${url}` : ''} failed (${error})`,
      );
    await this.followUp(result.state);
  }

  private async followUp(state: WebhookDeliveryState): Promise<void> {
    if (state.status !== 'present' || state.delivery_status !== 'retrying' || !state.next_attempt_at) return;
    await this.schedule(
      { delivery_id: state.delivery_id, attempt: state.attempts + 1 },
      new Date(state.next_attempt_at),
    );
  }

  /**
   * `POST /api/webhooks/{id}/test`: posts a signed `webhook.test` notification to the
   * subscription's URL now (also when it is disabled) and answers how it went. Nothing is
   * recorded: a test is not a delivery, and is neither retried nor in the history.
   */
  async sendTest(tenantId: string, webhookId: string): Promise<WebhookTestOutcome> {
    const webhook = await loadState(this.store, webhookDecider, webhookStream(webhookId));
    if (webhook.status !== 'present' || webhook.tenant_id !== tenantId) throw notFound('Webhook not found');
    const started = new Date();
    const payload = {
      id: `evt_test_${randomUUID()}`,
      type: 'webhook.test',
      created_at: started.toISOString(),
      sequence: '0',
      tenant_id: tenantId,
      data: { webhook_id: webhookId, message: 'A test notification: no document changed.' },
    };
    const body = JSON.stringify(payload);
    const headers = webhookHeaders(
      webhook.secret,
      payload.id,
      Math.floor(started.getTime() / 1000),
      body,
      payload.type,
    );
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      statusCode = await this.client.post(webhook.url, headers, body, this.options.timeoutMs);
      if (statusCode < 200 || statusCode >= 300) error = `HTTP ${statusCode}`;
    } catch (e) {
      error = (e as Error).message || 'request failed';
    }
    return {
      event_id: payload.id,
      url: webhook.url,
      delivered: error === null,
      status_code: statusCode,
      error,
      duration_ms: Date.now() - started.getTime(),
    };
  }
}

/** How a test notification went. */
export interface WebhookTestOutcome {
  event_id: string;
  url: string;
  delivered: boolean;
  /** The subscriber's HTTP status; null when no answer came (refused, timed out). */
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}
