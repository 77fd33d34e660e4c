/*
 * Calls to every route of the service through openapi-fetch, typed by the types openapi-typescript
 * generates from /api/openapi.json (./schema.js, written by test/http/generatedClient.test.ts).
 * Not compiled with the project (tsconfig.json leaves this folder out): the test compiles it against
 * the generated types. Each call reads a field or two of its answer, with the type its schema gives.
 */
import createClient from 'openapi-fetch';
import type { paths } from './schema.js';

export const client = createClient<paths>({
  baseUrl: 'http://localhost:8080',
  headers: { Authorization: 'Bearer key' },
});

const documentId = 'a-document';
const tenantId = 'a-tenant';
const webhookId = 'a-webhook';
const organizationId = 'an-organization';
const participant = 'iso6523-actorid-upis::0208:0451234595';
const file = { file: 'the bytes' };

/** What a caller of the tenant API does. */
export async function tenantCalls(): Promise<string[]> {
  const seen: Array<string | number | boolean | null | undefined> = [];
  const me = await client.GET('/api/me');
  seen.push(me.data?.company_name, me.data?.smp_registration);
  const whoami = await client.GET('/api/whoami');
  const kind: 'tenant' | 'organization' | 'operator' | undefined = whoami.data?.kind;
  seen.push(kind, whoami.data?.key_name);

  const created = await client.POST('/api/documents', {
    body: { items: [{ description: 'Workshop', quantity: 2, unit_price: 1250, tax_rate: '21.00' }] },
    params: { query: { construct_pdf: 'true' } },
  });
  const total: string | null | undefined = created.data?.invoice_total;
  const state: 'DRAFT' | 'TRANSIT' | 'FAILED' | 'SENT' | 'RECEIVED' | undefined = created.data?.state;
  seen.push(total, state, created.data?.items[0]?.unit_price);
  const list = await client.GET('/api/documents', { params: { query: { skip: 0, limit: 10 } } });
  seen.push(list.data?.total, list.data?.documents[0]?.id);
  const fromUbl = await client.POST('/api/documents/ubl', { body: file });
  seen.push(fromUbl.data?.vendor_name);
  const one = await client.GET('/api/documents/{documentId}', { params: { path: { documentId } } });
  seen.push(one.data?.invoice_response?.code, one.data?.attachments[0]?.file_url);
  const deleted = await client.DELETE('/api/documents/{documentId}', { params: { path: { documentId } } });
  seen.push(deleted.data?.is_deleted);
  const ubl = await client.GET('/api/documents/{documentId}/ubl', { params: { path: { documentId } } });
  // JSON, or the XML itself (Accept: application/xml): the answer is one or the other.
  const metadata = typeof ubl.data === 'object' ? ubl.data : undefined;
  seen.push(metadata?.file_hash, metadata?.receiver_peppol_id);
  const validated = await client.POST('/api/documents/{documentId}/validate', { params: { path: { documentId } } });
  seen.push(validated.data?.is_valid, validated.data?.issues[0]?.rule_id);
  const attachments = await client.GET('/api/documents/{documentId}/attachments', { params: { path: { documentId } } });
  seen.push(attachments.data?.[0]?.file_name);
  const added = await client.POST('/api/documents/{documentId}/attachments', {
    params: { path: { documentId } },
    body: file,
  });
  seen.push(added.data?.file_size);
  const attachment = await client.GET('/api/documents/{documentId}/attachments/{attachmentId}', {
    params: { path: { documentId, attachmentId: 'hours.csv' } },
  });
  seen.push(typeof attachment.data === 'object' ? attachment.data.file_type : attachment.data);
  const removed = await client.DELETE('/api/documents/{documentId}/attachments/{attachmentId}', {
    params: { path: { documentId, attachmentId: 'hours.csv' } },
  });
  seen.push(removed.data?.is_deleted);
  const fromPdf = await client.POST('/api/documents/pdf', { body: file });
  seen.push(fromPdf.data?.success, fromPdf.data?.extraction.method);
  const pdf = await client.GET('/api/documents/{documentId}/pdf', {
    params: { path: { documentId } },
    parseAs: 'arrayBuffer',
  });
  seen.push(pdf.response.status);

  const json = await client.POST('/api/validate/json', {
    body: { items: [{ description: 'Workshop', quantity: 1, unit_price: 100, tax_rate: '21.00' }] },
  });
  seen.push(json.data?.rule_set, json.data?.ubl_document);
  const checked = await client.POST('/api/validate/ubl', { body: file });
  seen.push(checked.data?.is_valid);
  const ruleSets = await client.GET('/api/validate/rule-sets');
  seen.push(ruleSets.data?.in_force, ruleSets.data?.rule_sets[0]?.valid_from);

  const sent = await client.POST('/api/documents/{documentId}/send', {
    params: { path: { documentId } },
    body: { receiver_peppol_scheme: '0208', receiver_peppol_id: '0451234595' },
  });
  seen.push(sent.data?.state);
  const cancelled = await client.POST('/api/documents/{documentId}/cancel', { params: { path: { documentId } } });
  seen.push(cancelled.data?.state);
  const report = await client.GET('/api/documents/{documentId}/transmission-report', {
    params: { path: { documentId } },
  });
  seen.push(report.data?.attempts_total, report.data?.deliveries[0]?.attempts[0]?.receipt_verified);
  const evidence = await client.GET('/api/documents/{documentId}/evidence', {
    params: { path: { documentId }, query: { part: 'receipt' } },
    parseAs: 'text',
  });
  seen.push(evidence.response.status);
  const bundle = await client.GET('/api/documents/{documentId}/evidence', {
    params: { path: { documentId } },
    parseAs: 'arrayBuffer',
  });
  seen.push(bundle.response.headers.get('content-type'));
  const timeline = await client.GET('/api/documents/{documentId}/timeline', { params: { path: { documentId } } });
  seen.push(timeline.data?.items[0]?.type);
  const history = await client.GET('/api/documents/{documentId}/history', { params: { path: { documentId } } });
  seen.push(history.data?.events[0]?.recorded_at);

  const outbox = await client.GET('/api/outbox', { params: { query: { state: 'SENT', sort_by: 'invoice_date' } } });
  seen.push(outbox.data?.has_next_page, outbox.data?.items[0]?.invoice_id);
  const drafts = await client.GET('/api/outbox/drafts');
  seen.push(drafts.data?.pages);
  const inbox = await client.GET('/api/inbox', { params: { query: { search: 'ACME' } } });
  seen.push(inbox.data?.items[0]?.vendor_name);
  const invoices = await client.GET('/api/inbox/invoices');
  seen.push(invoices.data?.total);
  const creditNotes = await client.GET('/api/inbox/credit-notes');
  seen.push(creditNotes.data?.total);
  const received = await client.GET('/api/inbox/{documentId}', { params: { path: { documentId } } });
  seen.push(received.data?.direction);
  const accepted = await client.POST('/api/inbox/{documentId}/accept', {
    params: { path: { documentId } },
    body: { note: 'Approved for payment' },
  });
  seen.push(accepted.data?.invoice_response?.status);
  const rejected = await client.POST('/api/inbox/{documentId}/reject', {
    params: { path: { documentId } },
    body: { reason: 'Not ours' },
  });
  seen.push(rejected.data?.invoice_response?.reason);

  const hooks = await client.GET('/api/webhooks');
  seen.push(hooks.data?.[0]?.url);
  const hook = await client.POST('/api/webhooks', {
    body: { url: 'https://example.com/hooks', events: ['document.sent'] },
  });
  const secret: string | undefined = hook.data?.secret;
  seen.push(secret);
  const oneHook = await client.GET('/api/webhooks/{webhookId}', { params: { path: { webhookId } } });
  seen.push(oneHook.data?.enabled);
  const changed = await client.PUT('/api/webhooks/{webhookId}', {
    params: { path: { webhookId } },
    body: { enabled: false },
  });
  seen.push(changed.data?.enabled);
  const gone = await client.DELETE('/api/webhooks/{webhookId}', { params: { path: { webhookId } } });
  seen.push(gone.data?.is_deleted);
  const deliveries = await client.GET('/api/webhooks/{webhookId}/deliveries', { params: { path: { webhookId } } });
  seen.push(deliveries.data?.items[0]?.status);
  const hookHistory = await client.GET('/api/webhooks/{webhookId}/history', { params: { path: { webhookId } } });
  seen.push(hookHistory.data?.items[0]?.attempt_count);
  const tested = await client.POST('/api/webhooks/{webhookId}/test', { params: { path: { webhookId } } });
  seen.push(tested.data?.delivered, tested.data?.status_code);

  const stats = await client.GET('/api/stats', {
    params: { query: { from: '2026-01-01', group_by: 'month', as_of: '2026-11-01T00:00:00Z' } },
  });
  seen.push(stats.data?.totals.count, stats.data?.items[0]?.period);
  const lookup = await client.GET('/api/lookup', { params: { query: { peppol_id: '0208:0451234595' } } });
  seen.push(lookup.data?.status, lookup.data?.queryMetadata.source);
  const valid = await client.GET('/api/validate/peppol-id', { params: { query: { peppol_id: '0208:0451234595' } } });
  seen.push(valid.data?.is_valid, valid.data?.business_card?.name);
  const search = await client.GET('/api/lookup/participants', { params: { query: { query: 'Zwaan' } } });
  seen.push(search.data?.total_count, search.data?.participants[0]?.peppol_id);
  return seen.map(String);
}

/** What a reseller (organization key) and the operator do. */
export async function administrativeCalls(): Promise<string[]> {
  const seen: Array<string | number | boolean | null | undefined> = [];
  const organizations = await client.GET('/api/operator/organizations', { params: { query: { page: 1 } } });
  seen.push(organizations.data?.items[0]?.tenant_count);
  const organization = await client.POST('/api/operator/organizations', { body: { name: 'My reseller' } });
  const adminKey: string | undefined = organization.data?.admin_key.key;
  seen.push(adminKey);
  const oneOrganization = await client.GET('/api/operator/organizations/{organizationId}', {
    params: { path: { organizationId } },
  });
  seen.push(oneOrganization.data?.tenants[0]?.usage.drafts);
  const organizationKey = await client.POST('/api/operator/organizations/{organizationId}/keys', {
    params: { path: { organizationId } },
  });
  seen.push(organizationKey.data?.prefix);
  const anyTenant = await client.GET('/api/operator/tenants/{tenantId}', { params: { path: { tenantId } } });
  seen.push(anyTenant.data?.rate_tier);
  const testMode = await client.PUT('/api/operator/tenants/{tenantId}/test-mode', {
    params: { path: { tenantId } },
    body: { test_mode: true, email: 'test@example.com' },
  });
  seen.push(testMode.data?.test_mode_email);
  const tier = await client.PUT('/api/operator/tenants/{tenantId}/tier', {
    params: { path: { tenantId } },
    body: { tier: 'premium' },
  });
  seen.push(tier.data?.rate_tier);
  const retention = await client.PUT('/api/operator/organizations/{organizationId}/retention', {
    params: { path: { organizationId } },
    body: { retention_years: 7, reason: 'Dutch tenants: AWR art. 52(4)' },
  });
  seen.push(retention.data?.retention_years);
  const kept = await client.GET('/api/operator/tenants/{tenantId}/retention', { params: { path: { tenantId } } });
  seen.push(kept.data?.retention_until, kept.data?.retention_over);
  const erased = await client.POST('/api/operator/tenants/{tenantId}/erasure', {
    params: { path: { tenantId } },
    body: { reason: 'GDPR art. 17 request of 2026-11-02', legal_basis: null },
  });
  seen.push(erased.data?.erased_at, erased.data?.keys_destroyed[0]);
  const reports = await client.GET('/api/operator/reports/peppol', { params: { query: { month: '2026-10' } } });
  const both = typeof reports.data === 'object' ? reports.data : undefined;
  seen.push(both?.tsr_sha256, both?.prepared?.prepared_at);
  const submissions = await client.GET('/api/operator/reports/peppol/submissions', {
    params: { query: { month: '2026-10' } },
  });
  seen.push(submissions.data?.tsr?.status, submissions.data?.eusr?.deliveries[0]?.attempts[0]?.outcome);
  const submitted = await client.POST('/api/operator/reports/peppol/submissions', { body: { month: '2026-10' } });
  seen.push(submitted.data?.prepared?.tsr_sha256);
  const resent = await client.POST('/api/operator/reports/peppol/submissions/{month}/{report}/resend', {
    params: { path: { month: '2026-10', report: 'tsr' } },
  });
  seen.push(resent.data?.message_id, resent.data?.receiver);
  const checkpoints = await client.GET('/api/operator/history/checkpoints', { params: { query: { page: 1 } } });
  seen.push(
    checkpoints.data?.signing_key_id,
    checkpoints.data?.chain.chained_through,
    checkpoints.data?.items[0]?.head_hash,
  );
  const checkpoint = await client.POST('/api/operator/history/checkpoints');
  seen.push(checkpoint.data?.position, checkpoint.data?.key_id);
  const verified = await client.POST('/api/operator/history/verify', { body: { blobs: false } });
  seen.push(verified.data?.ok, verified.data?.first_problem?.kind, verified.data?.problems[0]?.position);

  const tenants = await client.GET('/api/admin/tenants');
  seen.push(tenants.data?.total, tenants.data?.tenants[0]?.is_deleted);
  const tenant = await client.POST('/api/admin/tenants', { body: { name: 'acme', peppol_ids: ['0208:0403013026'] } });
  seen.push(tenant.data?.id, tenant.data?.peppol_ids[0]);
  const oneTenant = await client.GET('/api/admin/tenants/{tenantId}', { params: { path: { tenantId } } });
  seen.push(oneTenant.data?.test_mode);
  const updated = await client.PUT('/api/admin/tenants/{tenantId}', {
    params: { path: { tenantId } },
    body: { description: 'Acme Solutions' },
  });
  seen.push(updated.data?.description);
  const deletedTenant = await client.DELETE('/api/admin/tenants/{tenantId}', { params: { path: { tenantId } } });
  seen.push(deletedTenant.data?.is_deleted);
  const key = await client.POST('/api/admin/tenants/{tenantId}/api-keys', {
    params: { path: { tenantId } },
    body: { name: 'erp' },
  });
  const value: string | undefined = key.data?.key;
  seen.push(value);
  const keys = await client.GET('/api/admin/tenants/{tenantId}/api-keys', { params: { path: { tenantId } } });
  seen.push(keys.data?.api_keys[0]?.prefix);
  const latest = await client.GET('/api/admin/tenants/{tenantId}/api-keys/latest', { params: { path: { tenantId } } });
  seen.push(latest.data?.created_at);
  const renamed = await client.PUT('/api/admin/tenants/{tenantId}/api-keys/{keyId}', {
    params: { path: { tenantId, keyId: 'a-key' } },
    body: { name: 'erp-2' },
  });
  seen.push(renamed.data?.name);
  const revoked = await client.DELETE('/api/admin/tenants/{tenantId}/api-keys/{keyId}', {
    params: { path: { tenantId, keyId: 'a-key' } },
  });
  seen.push(revoked.data?.is_deleted);

  const status = await client.GET('/api/admin/tenants/{tenantId}/peppol/status', { params: { path: { tenantId } } });
  seen.push(status.data?.status, status.data?.sml);
  const registered = await client.POST('/api/admin/tenants/{tenantId}/peppol/register', {
    params: { path: { tenantId } },
    body: { peppol_id: '0208:0403013026', company_name: 'Acme Solutions BV' },
  });
  seen.push(registered.data?.message);
  const card = await client.POST('/api/admin/tenants/{tenantId}/peppol/business-card', {
    params: { path: { tenantId } },
    body: { company_name: 'Acme Solutions BV' },
  });
  seen.push(card.data?.registration_date);
  const unregistered = await client.POST('/api/admin/tenants/{tenantId}/peppol/unregister', {
    params: { path: { tenantId } },
  });
  seen.push(unregistered.data?.unregistered_at);
  return seen.map(String);
}

/** The public routes: health, the reference, the SMP, the AS4 endpoint. */
export async function publicCalls(): Promise<string[]> {
  const seen: Array<string | number | boolean | null | undefined> = [];
  const health = await client.GET('/healthz');
  seen.push(health.data?.status);
  const ready = await client.GET('/readyz');
  seen.push(ready.data?.projections.items[0]?.lag);
  const metrics = await client.GET('/metrics', { parseAs: 'text' });
  seen.push(metrics.response.status);
  const home = await client.GET('/');
  seen.push(typeof home.data === 'object' ? home.data.links[0]?.href : home.data);
  const reference = await client.GET('/docs', { parseAs: 'text' });
  seen.push(reference.response.status);
  const asset = await client.GET('/docs/{asset}', { params: { path: { asset: 'swagger-ui.css' } }, parseAs: 'text' });
  seen.push(asset.response.status);
  const openApi = await client.GET('/api/openapi.json');
  seen.push(typeof openApi.data);
  const serviceGroup = await client.GET('/{participant}', { params: { path: { participant } }, parseAs: 'text' });
  seen.push(serviceGroup.response.status);
  const serviceMetadata = await client.GET('/{participant}/services/{documentType}', {
    params: { path: { participant, documentType: 'busdox-docid-qns::urn:…' } },
    parseAs: 'text',
  });
  seen.push(serviceMetadata.response.status);
  const businessCard = await client.GET('/businesscard/{participant}', {
    params: { path: { participant } },
    parseAs: 'text',
  });
  seen.push(businessCard.response.status);
  const as4 = await client.POST('/as4', { parseAs: 'text' });
  seen.push(as4.response.status);
  return seen.map(String);
}
