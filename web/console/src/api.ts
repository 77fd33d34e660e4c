/** The public API, as the console calls it: a bearer key, JSON in and out, the spec's error format. */

export type Role = 'tenant' | 'organization' | 'operator';

export interface Session {
  key: string;
  role: Role;
  name: string;
}

export interface FieldProblem {
  loc: Array<string | number>;
  msg: string;
  type: string;
}

/** An answer other than 2xx: its status and the spec's `detail` (a message, or 422 field problems). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string | FieldProblem[],
  ) {
    super(
      typeof detail === 'string'
        ? detail
        : detail.map((p) => `${p.loc.filter((l) => l !== 'body').join('.')}: ${p.msg}`).join('; '),
    );
    this.name = 'ApiError';
  }
}

export async function request<T>(
  key: string,
  method: string,
  path: string,
  body?: unknown,
  init: { raw?: BodyInit; contentType?: string } = {},
): Promise<T> {
  const headers: Record<string, string> = { Authorization: `Bearer ${key}`, Accept: 'application/json' };
  let payload: BodyInit | undefined;
  if (init.raw !== undefined) {
    payload = init.raw;
    if (init.contentType) headers['Content-Type'] = init.contentType;
  } else if (body !== undefined) {
    payload = JSON.stringify(body);
    headers['Content-Type'] = 'application/json';
  }
  const res = await fetch(path, { method, headers, body: payload });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (!res.ok) {
    const detail = (json as { detail?: string | FieldProblem[] } | null)?.detail ?? (text || res.statusText);
    throw new ApiError(res.status, detail);
  }
  return json as T;
}

/** A GET of an endpoint that may not exist on this version of the service: null on 404 or 405. */
export async function optional<T>(key: string, path: string): Promise<T | null> {
  try {
    return await request<T>(key, 'GET', path);
  } catch (e) {
    if (e instanceof ApiError && (e.status === 404 || e.status === 405)) return null;
    throw e;
  }
}

export async function fetchBlob(key: string, path: string): Promise<Blob> {
  const res = await fetch(path, { headers: { Authorization: `Bearer ${key}` } });
  if (!res.ok) throw new ApiError(res.status, `${res.status} ${res.statusText}`);
  return res.blob();
}

/**
 * Which kind of key this is, asked of the API itself: a tenant's key reads /api/me; an
 * organization's (admin) key lists tenants; the operator's key reads the operator interface
 * (an unknown tenant answers 404 to it, 401 to anyone else).
 */
export async function signIn(key: string): Promise<Session> {
  const attempt = async (path: string) => {
    try {
      return { ok: true as const, body: await request<Record<string, unknown>>(key, 'GET', path) };
    } catch (e) {
      if (e instanceof ApiError && (e.status === 401 || e.status === 403))
        return { ok: false as const, status: e.status };
      if (e instanceof ApiError && e.status === 404) return { ok: false as const, status: 404 };
      throw e;
    }
  };
  const me = await attempt('/api/me');
  if (me.ok) return { key, role: 'tenant', name: String(me.body.company_name ?? me.body.name ?? 'Tenant') };
  const tenants = await attempt('/api/admin/tenants?limit=1');
  if (tenants.ok) return { key, role: 'organization', name: 'Organization administrator' };
  const operator = await attempt('/api/operator/tenants/console-sign-in-probe');
  if (operator.ok || operator.status === 404) return { key, role: 'operator', name: 'Operator' };
  throw new ApiError(401, 'This API key is not valid here.');
}

export interface LineItem {
  description?: string | null;
  quantity?: string | number | null;
  unit?: string | null;
  unit_price?: string | number | null;
  tax_rate?: string | null;
  amount?: string | number | null;
  tax?: string | number | null;
}

export interface InvoiceResponse {
  status: 'accepted' | 'rejected';
  code: string;
  reason: string | null;
  responded_at: string;
}

/** Why this tenant cannot send a document: its issuer is not one of the tenant's participant ids. */
export interface SendBlocked {
  field: string;
  loc: string[];
  message: string;
  issuer_peppol_id: string | null;
  /** The participant ids the tenant sends as; empty when it holds none. */
  allowed_ids: string[];
}

export interface Document {
  id: string;
  created_at: string;
  document_type: string;
  state: string;
  direction: string;
  invoice_id: string | null;
  invoice_date: string | null;
  due_date: string | null;
  currency: string;
  vendor_name: string | null;
  vendor_tax_id: string | null;
  vendor_address: string | null;
  vendor_peppol_id?: string | null;
  customer_name: string | null;
  customer_tax_id: string | null;
  customer_address: string | null;
  customer_peppol_id: string | null;
  note: string | null;
  subtotal: string | null;
  total_tax: string | null;
  invoice_total: string | null;
  amount_due: string | null;
  items: LineItem[];
  attachments: Array<{ id: string; file_name: string; file_type: string; file_size: number; file_url: string }>;
  invoice_response?: InvoiceResponse | null;
  /** Set on a draft (or failed document) this tenant may not send, before Send is pressed. */
  send_blocked?: SendBlocked | null;
}

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  page_size: number;
  pages: number;
  has_next_page: boolean;
}

export interface ValidationIssue {
  message: string;
  type: string;
  flag: string;
  rule_id: string | null;
  location: string | null;
}

export interface ValidationResult {
  is_valid: boolean;
  issues: ValidationIssue[];
  /** The release of the rules it was checked by (the one in force today). */
  rule_set: string;
}

export interface Attempt {
  attempt: number;
  transport: string;
  receiver: string;
  started_at: string;
  duration_ms: number;
  outcome: string;
  error: string | null;
  next_attempt_at: string | null;
}

export interface Delivery {
  delivery_id: string;
  transport: string;
  sender_peppol_id: string | null;
  receiver_peppol_id: string | null;
  email: string | null;
  requested_at: string;
  status: 'in_progress' | 'sent' | 'failed';
  completed_at: string | null;
  failure_reason: string | null;
  next_attempt_at: string | null;
  attempts: Attempt[];
  /** The receiving provider's Message Level Status about this delivery (AP/AB delivered, RE rejected); null until one came. */
  mls?: {
    code: string | null;
    description: string | null;
    issues: Array<{ location: string | null; description: string | null; reason: string | null }>;
    valid: boolean;
    problems: string[];
    sender_ap: string;
    received_at: string;
  } | null;
}

export interface TransmissionReport {
  document_id: string;
  state: string;
  direction: string | null;
  deliveries: Delivery[];
  received: { message_id: string; sender_peppol_id: string | null; received_at: string } | null;
  response: { code: string; reason: string | null; responded_at: string } | null;
}

export interface Webhook {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
  secret?: string;
}

// The code lists are the service's own (its domain modules, bundled): one copy of each.
export {
  DOCUMENT_TYPES,
  DOCUMENT_STATES as STATES,
  SORT_FIELDS,
} from '../../../src/domain/document/invoice/documentModel.js';
export { CURRENCIES } from '../../../src/domain/document/invoice/codeLists.js';
export { WEBHOOK_EVENT_KINDS as WEBHOOK_EVENTS } from '../../../src/domain/webhook/webhook.js';

/** An amount as the API returns it (a decimal string), shown with its currency; no float arithmetic. */
export function money(amount: string | number | null | undefined, currency: string): string {
  if (amount === null || amount === undefined || amount === '') return '—';
  const text = String(amount);
  const [whole, fraction = ''] = text.replace(/^-/, '').split('.');
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${text.startsWith('-') ? '−' : ''}${currency} ${grouped}.${(fraction + '00').slice(0, Math.max(2, fraction.length))}`;
}

const DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const MOMENT = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium' });

/** A date (YYYY-MM-DD, shown as written: no time zone moves it) or a moment (local time). */
export function date(value: string | null | undefined): string {
  if (!value) return '—';
  const parsed = new Date(value.length === 10 ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(parsed.getTime())) return value;
  return value.length === 10 ? DAY.format(parsed) : MOMENT.format(parsed);
}

let openApiPaths: Promise<string[]> | null = null;

/** Whether this service has an endpoint (from its public OpenAPI document), e.g. `/api/webhooks/{}/test`. */
export async function hasEndpoint(method: string, template: string): Promise<boolean> {
  openApiPaths ??= fetch('/api/openapi.json')
    .then((r) => (r.ok ? r.json() : { paths: {} }))
    .then((doc: { paths?: Record<string, Record<string, unknown>> }) =>
      Object.entries(doc.paths ?? {}).flatMap(([path, ops]) =>
        Object.keys(ops).map((m) => `${m.toLowerCase()} ${path.replace(/\{[^}]*\}/g, '{}')}`),
      ),
    )
    .catch(() => []);
  return (await openApiPaths).includes(`${method.toLowerCase()} ${template}`);
}
