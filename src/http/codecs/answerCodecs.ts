import * as t from 'io-ts';

/*
 * The shapes of answers the OpenAPI document describes with a schema. Each handler types its answer
 * by the codec (`const answer: t.TypeOf<typeof X> = …`), so the compiler holds the application's
 * value and the published shape together: a field renamed on one side fails the build.
 */

const nullable = <C extends t.Mixed>(codec: C) => t.union([codec, t.null]);
/** Decimal amounts as strings (never floating point), by ISO 4217 currency code. */
const AmountsByCurrency = t.record(t.string, t.string);

/** A page of a list, as every list of the API answers it. */
const pageOf = <C extends t.Mixed>(item: C) =>
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
      details: t.UnknownRecord,
    }),
  ),
});

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

const Usage = t.type({
  documents_sent: t.number,
  documents_received: t.number,
  documents_failed: t.number,
  documents_in_transit: t.number,
  drafts: t.number,
});

const OrganizationSummary = t.type({
  id: t.string,
  name: t.string,
  created_at: t.string,
  tenant_count: t.number,
  usage: Usage,
});

/** `GET /api/operator/organizations`. */
export const OrganizationsAnswer = pageOf(OrganizationSummary);

/** `GET /api/operator/organizations/{id}`: the organization with each tenant (as the tenant routes answer it) and its usage. */
export const OrganizationAnswer = t.intersection([
  OrganizationSummary,
  t.type({ tenants: t.array(t.intersection([t.type({ id: t.string, name: t.string }), t.type({ usage: Usage })])) }),
]);
