import * as t from 'io-ts';
import {
  DeletedAnswer,
  WebhookAnswer,
  WebhookDeliveriesAnswer,
  WebhookHistoryAnswer,
  WebhooksAnswer,
  WebhookTestAnswer,
} from '../../codecs/answerCodecs.js';
import { webhookResponse, type WebhookCommands } from '../../../application/webhooks/webhookCommands.js';
import type { WebhookDispatch } from '../../../application/webhooks/webhookDispatch.js';
import { tenantOf } from '../../auth.js';
import { decode, Nullable, PAGE_FIELDS } from '../../codecs.js';
import { commandMetadata } from '../../requestContext.js';
import type { RouteRegistry } from '../../routeRegistry.js';

const CreateWebhook = t.intersection([
  t.type({ url: t.string, events: t.array(t.string) }),
  t.partial({ enabled: t.boolean }),
]);
const UpdateWebhook = t.partial({
  url: Nullable(t.string),
  events: Nullable(t.array(t.string)),
  enabled: Nullable(t.boolean),
});
const PageQuery = t.partial(PAGE_FIELDS);

/**
 * Webhook subscriptions in the client's shape (`id, url, events, secret, enabled`), and each
 * subscription's delivery history.
 */
export function webhookRoutes(
  routes: RouteRegistry,
  webhooks: WebhookCommands,
  readYourWrites: () => Promise<void>,
  testing: Pick<WebhookDispatch, 'sendTest'>,
): void {
  const id = (params: Record<string, unknown>) => String(params.webhookId);

  routes.add({
    method: 'get',
    path: '/api/webhooks',
    summary: "The tenant's webhook subscriptions",
    tag: 'webhooks',
    auth: 'tenant',
    answer: WebhooksAnswer,
    handler: async (_req, res, answer) => {
      await readYourWrites();
      answer((await webhooks.list(tenantOf(res).tenantId)).map(webhookResponse));
    },
  });
  routes.add({
    method: 'post',
    path: '/api/webhooks',
    summary:
      'Subscribe a URL to document events (document.created, .transit, .sent, .failed, .received, .accepted, .rejected, .deleted, or "*")',
    tag: 'webhooks',
    auth: 'tenant',
    body: CreateWebhook,
    responses: { 201: 'The subscription, with its signing secret', 422: 'Bad URL or unknown event' },
    answer: WebhookAnswer,
    handler: async (req, res, answer) => {
      const body = decode(CreateWebhook, req.body, 'body');
      const webhook = await webhooks.create(
        tenantOf(res).tenantId,
        { url: body.url, events: body.events, enabled: body.enabled ?? true },
        commandMetadata(req, res),
      );
      answer(webhookResponse(webhook));
    },
  });
  routes.add({
    method: 'get',
    path: '/api/webhooks/:webhookId',
    summary: 'One subscription',
    tag: 'webhooks',
    auth: 'tenant',
    responses: { 200: 'The subscription', 404: 'Not found' },
    answer: WebhookAnswer,
    handler: async (req, res, answer) => {
      answer(webhookResponse(await webhooks.get(tenantOf(res).tenantId, id(req.params))));
    },
  });
  routes.add({
    method: 'put',
    path: '/api/webhooks/:webhookId',
    summary: 'Change the URL, the events or enabled (omitted or null fields stay as they are)',
    tag: 'webhooks',
    auth: 'tenant',
    body: UpdateWebhook,
    responses: { 200: 'The subscription', 404: 'Not found', 422: 'Bad URL or unknown event' },
    answer: WebhookAnswer,
    handler: async (req, res, answer) => {
      const body = decode(UpdateWebhook, req.body, 'body');
      const change = {
        ...(body.url != null ? { url: body.url } : {}),
        ...(body.events != null ? { events: body.events } : {}),
        ...(body.enabled != null ? { enabled: body.enabled } : {}),
      };
      answer(
        webhookResponse(
          await webhooks.update(tenantOf(res).tenantId, id(req.params), change, commandMetadata(req, res)),
        ),
      );
    },
  });
  routes.add({
    method: 'delete',
    path: '/api/webhooks/:webhookId',
    summary: 'Delete a subscription (pending deliveries are cancelled)',
    tag: 'webhooks',
    auth: 'tenant',
    responses: { 200: '{"is_deleted": true}', 404: 'Not found' },
    answer: DeletedAnswer,
    handler: async (req, res, answer) => {
      await webhooks.delete(tenantOf(res).tenantId, id(req.params), commandMetadata(req, res));
      answer({ is_deleted: true });
    },
  });
  routes.add({
    method: 'get',
    path: '/api/webhooks/:webhookId/deliveries',
    summary: "The subscription's notifications, newest first, each with every call made (status code, error, duration)",
    tag: 'webhooks',
    auth: 'tenant',
    query: PageQuery,
    responses: { 200: 'A page of deliveries', 404: 'Not found' },
    answer: WebhookDeliveriesAnswer,
    handler: async (req, res, answer) => {
      const q = decode(PageQuery, req.query, 'query');
      await readYourWrites();
      answer(await webhooks.deliveries(tenantOf(res).tenantId, id(req.params), q.page ?? 1, q.page_size ?? 20));
    },
  });
  routes.add({
    method: 'get',
    path: '/api/webhooks/:webhookId/history',
    summary:
      "The subscription's delivery history, newest first (page, page_size): each notification's status (pending, retrying, delivered, failed, cancelled), attempt_count, the last response_code and error, and every call",
    tag: 'webhooks',
    auth: 'tenant',
    query: PageQuery,
    responses: { 200: 'A page: items, total, page, page_size, pages, has_next_page', 404: 'Not found' },
    answer: WebhookHistoryAnswer,
    handler: async (req, res, answer) => {
      const q = decode(PageQuery, req.query, 'query');
      await readYourWrites();
      answer(await webhooks.history(tenantOf(res).tenantId, id(req.params), q.page ?? 1, q.page_size ?? 20));
    },
  });
  routes.add({
    method: 'post',
    path: '/api/webhooks/:webhookId/test',
    summary:
      'Post a signed webhook.test notification to the subscription now and answer the outcome: {event_id, url, delivered, status_code, error, duration_ms} (not recorded in the history, not retried)',
    tag: 'webhooks',
    auth: 'tenant',
    responses: { 200: 'The outcome (delivered false when the subscriber failed or did not answer)', 404: 'Not found' },
    answer: WebhookTestAnswer,
    handler: async (req, res, answer) => {
      answer(await testing.sendTest(tenantOf(res).tenantId, id(req.params)));
    },
  });
}
