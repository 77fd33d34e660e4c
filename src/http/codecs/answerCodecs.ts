import * as t from 'io-ts';

/*
 * The shapes of answers the OpenAPI document describes with a schema. Each handler types its answer
 * by the codec (`const answer: t.TypeOf<typeof X> = …`), so the compiler holds the application's
 * value and the published shape together: a field renamed on one side fails the build.
 */

export const nullable = <C extends t.Mixed>(codec: C) => t.union([codec, t.null]);
/** One of the values, as a string enum in the schema. */
export const oneOf = (values: readonly string[]) =>
  t.keyof(Object.fromEntries(values.map((v) => [v, null])) as Record<string, null>);
/** Decimal amounts as strings (never floating point), by ISO 4217 currency code. */
const AmountsByCurrency = t.record(t.string, t.string);

/** `{"is_deleted": true}`: what a DELETE answers. */
export const DeletedAnswer = t.type({ is_deleted: t.boolean });

/** A page of a list, as every list of the API answers it. */
export const pageOf = <C extends t.Mixed>(item: C) =>
  t.type({
    items: t.array(item),
    total: t.number,
    page: t.number,
    page_size: t.number,
    pages: t.number,
    has_next_page: t.boolean,
  });

/** `GET /api/documents/{id}/timeline`. */
export const TimelineAnswer = t.type({
  document_id: t.string,
  /** The document's state now; null once deleted. */
  state: nullable(t.string),
  items: t.array(
    t.type({
      type: t.string,
      at: t.string,
      /** Who did it, in words. */
      actor: t.string,
      /** Who did it, as recorded: kind (api_key, organization_admin, operator, access_point, system, unknown) and its ids. */
      actor_detail: t.record(t.string, nullable(t.string)),
      /** What happened and who did it as whom, in words, e.g. "sent by API key 'app' (…) as 0208:0123456749"; null for steps without one. */
      summary: nullable(t.string),
      details: t.UnknownRecord,
    }),
  ),
});

/** A webhook subscription, in the client's shape. */
export const WebhookAnswer = t.type({
  id: t.string,
  url: t.string,
  events: t.array(t.string),
  secret: t.string,
  enabled: t.boolean,
});

/** `GET /api/webhooks`. */
export const WebhooksAnswer = t.array(WebhookAnswer);

const WebhookCall = t.type({
  attempt: t.number,
  url: t.string,
  outcome: t.string,
  status_code: nullable(t.number),
  error: nullable(t.string),
  started_at: t.string,
  duration_ms: t.number,
  next_attempt_at: nullable(t.string),
});

/** `GET /api/webhooks/{id}/history`. */
export const WebhookHistoryAnswer = pageOf(
  t.type({
    id: t.string,
    event_id: t.string,
    event_type: t.string,
    document_id: nullable(t.string),
    status: t.string,
    attempt_count: t.number,
    response_code: nullable(t.number),
    error: nullable(t.string),
    created_at: t.string,
    last_attempt_at: nullable(t.string),
    next_attempt_at: nullable(t.string),
    attempts: t.array(WebhookCall),
  }),
);

/** `GET /api/webhooks/{id}/deliveries`: each notification and every call made for it. */
export const WebhookDeliveriesAnswer = pageOf(
  t.type({
    id: t.string,
    webhook_id: t.string,
    event_id: t.string,
    event_type: t.string,
    document_id: nullable(t.string),
    status: oneOf(['pending', 'retrying', 'delivered', 'failed', 'cancelled']),
    created_at: t.string,
    last_attempt_at: nullable(t.string),
    next_attempt_at: nullable(t.string),
    attempts: t.array(WebhookCall),
  }),
);

/** `POST /api/webhooks/{id}/test`. */
export const WebhookTestAnswer = t.type({
  event_id: t.string,
  url: t.string,
  delivered: t.boolean,
  status_code: nullable(t.number),
  error: nullable(t.string),
  duration_ms: t.number,
});

/** `GET /api/stats`. */
export const StatsAnswer = t.type({
  from: t.string,
  to: t.string,
  group_by: t.keyof({ day: null, month: null }),
  totals: t.type({
    count: t.number,
    amounts: AmountsByCurrency,
    by_state: t.record(t.string, t.number),
    by_direction: t.record(t.string, t.number),
  }),
  items: t.array(
    t.type({ period: t.string, direction: t.string, state: t.string, count: t.number, amounts: AmountsByCurrency }),
  ),
});
