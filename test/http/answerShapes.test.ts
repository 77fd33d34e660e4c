import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import type { Response } from 'supertest';
import { Ajv2020, strictSchema, type OpenApiDocument, type Operation, type Schema } from '../support/openApiSchemas.js';
import { bearer, startTestService, type TestService } from '../support/service.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver.js';
import { createPeppolTenant, registerPeppol } from '../support/peppol.js';
import { accessPointSettings, makeTestPki, type TestPki } from '../support/testPki.js';
import { buildAs4, invoiceSbdh, signingKeyOf } from '../support/as4Sender.js';
import { realisticDocuments } from '../domain/document/fixtures/realisticDocuments.js';

const SELLER_ID = '0208:0403013026';
const BUYER_ID = '0208:0451234595';
/** Nobody on the network: an attempt to reach it waits for a retry (the SML's DNS does not answer here). */
const NOBODY = '0208:0202239951';
const INVOICE_DOCUMENT_TYPE =
  'busdox-docid-qns::urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1';

/**
 * Every route's answer is described in /api/openapi.json by a schema built from the codec its
 * handler is typed by. Here every route is called on the real service (with an AS4 identity, so
 * that the Peppol routes answer too) and each JSON answer is checked against the schema the
 * document publishes for it, closed (no field the schema does not name); a route without a
 * schema for its answer, or one this suite does not call, fails.
 */
describe('Every answer described: each route answers what /api/openapi.json says (real app, PostgreSQL, AS4)', function () {
  this.timeout(180_000);
  let pki: TestPki;
  let t: TestService;
  let receiver: WebhookReceiver;
  let openApi: OpenApiDocument;
  const checked = new Set<string>();
  const ajv = new Ajv2020({ strict: false, allErrors: true });

  before(async () => {
    pki = await makeTestPki({ instances: 2 });
    receiver = await startWebhookReceiver();
    t = await startTestService({
      // No DNS answers for the SML: sends to anyone off this instance wait for a retry.
      peppol: accessPointSettings(pki, 1, { smlDnsServer: '127.0.0.1:9', lookupTimeoutMs: 300 }),
    });
    openApi = (await t.http.get('/api/openapi.json')).body as OpenApiDocument;
  });
  after(async () => {
    await receiver?.stop();
    await t?.stop();
    await pki?.dispose();
  });

  const operationOf = (method: string, template: string): Operation => {
    const operation = openApi.paths[template]?.[method];
    expect(operation, `${method.toUpperCase()} ${template} is documented`).to.not.equal(undefined);
    return operation!;
  };

  /** Checks one real answer against what the document publishes for the route and its status. */
  const conforms = (method: string, template: string, res: Response, status = 200) => {
    const what = `${method.toUpperCase()} ${template}`;
    expect(res.status, `${what}: ${String(res.text ?? '').slice(0, 300)}`).to.equal(status);
    const content = operationOf(method, template).responses[String(status)]?.content ?? {};
    const type = String(res.headers['content-type'] ?? '').split(';')[0]!;
    if (type === 'application/json') {
      const published = content['application/json']?.schema;
      // A refusal's schema is the shared Error component.
      const ref = (published as { $ref?: string } | undefined)?.$ref?.replace('#/components/schemas/', '');
      const schema = ref
        ? (openApi as unknown as { components: { schemas: Record<string, Schema> } }).components.schemas[ref]
        : published;
      expect(schema, `${what} publishes a schema of its JSON answer`).to.not.equal(undefined);
      const validate = ajv.compile(strictSchema(schema!));
      expect(
        validate(res.body),
        `${what}: ${ajv.errorsText(validate.errors)}\n${String(res.text ?? '').slice(0, 600)}`,
      ).to.equal(true);
    } else {
      const declared = Object.keys(content);
      expect(
        declared.some((d) => d === type || (d === 'application/octet-stream' && type !== '')),
        `${what} answered ${type}, which it does not declare (${declared.join(', ')})`,
      ).to.equal(true);
    }
    checked.add(`${method} ${template}`);
    return res.body as Record<string, unknown> & { id: string };
  };

  it('every route of the OpenAPI document describes its successful answer (a JSON schema, or its media types)', () => {
    const missing: string[] = [];
    for (const [template, operations] of Object.entries(openApi.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const success = Object.entries(operation.responses).find(([status]) => /^2\d\d$/.test(status));
        const content = success?.[1].content ?? {};
        const described = Object.values(content).some((c) => c.schema !== undefined);
        if (!described) missing.push(`${method.toUpperCase()} ${template}`);
      }
    }
    expect(missing, 'routes without a schema for their answer').to.deep.equal([]);
  });

  it("every route's real answer has the shape its schema publishes, fields included and none more", async () => {
    const get = (path: string, key?: string) => (key ? t.http.get(path).set(bearer(key)) : t.http.get(path));
    const operator = t.operatorKey;

    // Public
    conforms('get', '/', await t.http.get('/').set('Accept', 'application/json'));
    conforms('get', '/healthz', await get('/healthz'));
    conforms('get', '/readyz', await get('/readyz'));
    conforms('get', '/metrics', await get('/metrics'));
    conforms('get', '/docs', await get('/docs'));
    conforms('get', '/docs/{asset}', await get('/docs/swagger-ui.css'));
    conforms('get', '/api/openapi.json', await get('/api/openapi.json'));

    // Operator and organizations
    const organization = conforms(
      'post',
      '/api/operator/organizations',
      await t.http.post('/api/operator/organizations').set(bearer(operator)).send({ name: 'Shapes' }),
      201,
    );
    const adminKey = (organization.admin_key as { key: string }).key;
    conforms('get', '/api/operator/organizations', await get('/api/operator/organizations', operator));
    conforms(
      'post',
      '/api/operator/organizations/{organizationId}/keys',
      await t.http.post(`/api/operator/organizations/${organization.id}/keys`).set(bearer(operator)),
      201,
    );

    // Tenants and keys
    const spare = conforms(
      'post',
      '/api/admin/tenants',
      await t.http.post('/api/admin/tenants').set(bearer(adminKey)).send({ name: 'shapes-spare' }),
      201,
    );
    const seller = await createPeppolTenant(t, adminKey, { name: 'shapes-seller', peppol_ids: [SELLER_ID] });
    const buyer = await createPeppolTenant(t, adminKey, { name: 'shapes-buyer', peppol_ids: [BUYER_ID] });
    conforms('get', '/api/admin/tenants', await get('/api/admin/tenants', adminKey));
    conforms('get', '/api/admin/tenants/{tenantId}', await get(`/api/admin/tenants/${spare.id}`, adminKey));
    conforms(
      'put',
      '/api/admin/tenants/{tenantId}',
      await t.http.put(`/api/admin/tenants/${spare.id}`).set(bearer(adminKey)).send({ description: 'Spare' }),
    );
    const key = conforms(
      'post',
      '/api/admin/tenants/{tenantId}/api-keys',
      await t.http.post(`/api/admin/tenants/${spare.id}/api-keys`).set(bearer(adminKey)).send({ name: 'spare' }),
      201,
    );
    conforms(
      'get',
      '/api/admin/tenants/{tenantId}/api-keys',
      await get(`/api/admin/tenants/${spare.id}/api-keys`, adminKey),
    );
    conforms(
      'get',
      '/api/admin/tenants/{tenantId}/api-keys/latest',
      await get(`/api/admin/tenants/${spare.id}/api-keys/latest`, adminKey),
    );
    conforms(
      'put',
      '/api/admin/tenants/{tenantId}/api-keys/{keyId}',
      await t.http
        .put(`/api/admin/tenants/${spare.id}/api-keys/${key.id}`)
        .set(bearer(adminKey))
        .send({ name: 'renamed' }),
    );
    conforms(
      'delete',
      '/api/admin/tenants/{tenantId}/api-keys/{keyId}',
      await t.http.delete(`/api/admin/tenants/${spare.id}/api-keys/${key.id}`).set(bearer(adminKey)),
    );
    conforms('get', '/api/operator/tenants/{tenantId}', await get(`/api/operator/tenants/${spare.id}`, operator));
    conforms(
      'put',
      '/api/operator/tenants/{tenantId}/tier',
      await t.http.put(`/api/operator/tenants/${spare.id}/tier`).set(bearer(operator)).send({ tier: 'premium' }),
    );
    conforms(
      'get',
      '/api/operator/organizations/{organizationId}',
      await get(`/api/operator/organizations/${organization.id}`, operator),
    );

    // Peppol registration (the spare tenant registers, shows its card, and leaves again)
    await registerPeppol(t, adminKey, seller.id, { peppol_id: SELLER_ID, company_name: 'Acme Solutions BV' });
    const spareId = '0208:0403019261';
    await t.http
      .put(`/api/admin/tenants/${spare.id}`)
      .set(bearer(adminKey))
      .send({ peppol_ids: [spareId] });
    conforms(
      'post',
      '/api/admin/tenants/{tenantId}/peppol/register',
      await t.http
        .post(`/api/admin/tenants/${spare.id}/peppol/register`)
        .set(bearer(adminKey))
        .send({ peppol_id: spareId, company_name: 'Spare NV' }),
    );
    conforms(
      'get',
      '/api/admin/tenants/{tenantId}/peppol/status',
      await get(`/api/admin/tenants/${spare.id}/peppol/status`, adminKey),
    );
    conforms(
      'post',
      '/api/admin/tenants/{tenantId}/peppol/business-card',
      await t.http
        .post(`/api/admin/tenants/${spare.id}/peppol/business-card`)
        .set(bearer(adminKey))
        .send({ company_name: 'Spare and Sons NV' }),
    );
    const participant = encodeURIComponent(`iso6523-actorid-upis::${spareId}`);
    conforms('get', '/{participant}', await get(`/${participant}`));
    conforms(
      'get',
      '/{participant}/services/{documentType}',
      await get(`/${participant}/services/${encodeURIComponent(INVOICE_DOCUMENT_TYPE)}`),
    );
    conforms('get', '/businesscard/{participant}', await get(`/businesscard/${participant}`));
    conforms(
      'post',
      '/api/admin/tenants/{tenantId}/peppol/unregister',
      await t.http.post(`/api/admin/tenants/${spare.id}/peppol/unregister`).set(bearer(adminKey)),
    );
    conforms(
      'put',
      '/api/operator/tenants/{tenantId}/test-mode',
      await t.http
        .put(`/api/operator/tenants/${spare.id}/test-mode`)
        .set(bearer(operator))
        .send({ test_mode: true, email: 'spare@example.com' }),
    );
    // Retention and erasure (the spare tenant has issued nothing: nothing holds its erasure back).
    conforms(
      'put',
      '/api/operator/organizations/{organizationId}/retention',
      await t.http
        .put(`/api/operator/organizations/${organization.id}/retention`)
        .set(bearer(operator))
        .send({ retention_years: 10, reason: 'Belgian VAT Code art. 60 §4' }),
    );
    conforms(
      'get',
      '/api/operator/tenants/{tenantId}/retention',
      await get(`/api/operator/tenants/${spare.id}/retention`, operator),
    );
    conforms(
      'post',
      '/api/operator/tenants/{tenantId}/erasure',
      await t.http.post(`/api/operator/tenants/${spare.id}/erasure`).set(bearer(operator)).send({ reason: 'asked' }),
    );
    conforms(
      'delete',
      '/api/admin/tenants/{tenantId}',
      await t.http.delete(`/api/admin/tenants/${spare.id}`).set(bearer(adminKey)),
    );
    await registerPeppol(t, adminKey, buyer.id, { peppol_id: BUYER_ID, company_name: 'Brouwerij De Zwaan NV' });

    // Documents
    const as = (key: string) => bearer(key);
    conforms('get', '/api/me', await get('/api/me', seller.key));
    // Any kind of key says which it is and whose.
    const whoami = [seller.key, adminKey, operator].map(async (key) =>
      conforms('get', '/api/whoami', await get('/api/whoami', key)),
    );
    expect((await Promise.all(whoami)).map((w) => [w.kind, w.tenant_id, w.organization_id])).to.deep.equal([
      ['tenant', seller.id, organization.id],
      ['organization', null, organization.id],
      ['operator', null, null],
    ]);
    expect((await get('/api/whoami', 'ik_not.a-key')).status, 'a key of no kind').to.equal(401);
    const body = {
      ...(structuredClone(realisticDocuments()[0]!.body) as Record<string, unknown>),
      customer_peppol_id: BUYER_ID,
    };
    const doc = conforms('post', '/api/documents', await t.http.post('/api/documents').set(as(seller.key)).send(body));
    conforms('get', '/api/documents', await get('/api/documents?limit=5', seller.key));
    conforms('get', '/api/documents/{documentId}', await get(`/api/documents/${doc.id}`, seller.key));
    conforms('get', '/api/documents/{documentId}/ubl', await get(`/api/documents/${doc.id}/ubl`, seller.key));
    const ubl = await get(`/api/documents/${doc.id}/ubl?format=xml`, seller.key);
    conforms('get', '/api/documents/{documentId}/ubl', ubl);
    conforms(
      'post',
      '/api/documents/{documentId}/validate',
      await t.http.post(`/api/documents/${doc.id}/validate`).set(as(seller.key)),
    );
    conforms('post', '/api/validate/json', await t.http.post('/api/validate/json').set(as(seller.key)).send(body));
    conforms(
      'post',
      '/api/validate/ubl',
      await t.http.post('/api/validate/ubl').set(as(seller.key)).set('Content-Type', 'application/xml').send(ubl.text),
    );
    conforms('get', '/api/validate/rule-sets', await get('/api/validate/rule-sets', seller.key));
    const fromUbl = conforms(
      'post',
      '/api/documents/ubl',
      await t.http
        .post('/api/documents/ubl')
        .set(as(seller.key))
        .set('Content-Type', 'application/xml')
        .send(ubl.text.replace(/<cbc:ID>[^<]*</, '<cbc:ID>SHAPES-UBL-1<')),
    );
    const pdf = await get(`/api/documents/${doc.id}/pdf`, seller.key).buffer(true);
    conforms('get', '/api/documents/{documentId}/pdf', pdf);
    conforms(
      'post',
      '/api/documents/pdf',
      await t.http
        .post('/api/documents/pdf')
        .set(as(seller.key))
        .attach('file', pdf.body as Buffer, 'invoice.pdf'),
    );
    const attachment = conforms(
      'post',
      '/api/documents/{documentId}/attachments',
      await t.http
        .post(`/api/documents/${doc.id}/attachments`)
        .set(as(seller.key))
        .attach('file', Buffer.from('hours,rate\n10,85\n'), { filename: 'hours.csv', contentType: 'text/csv' }),
    );
    conforms(
      'get',
      '/api/documents/{documentId}/attachments',
      await get(`/api/documents/${doc.id}/attachments`, seller.key),
    );
    const oneAttachment = `/api/documents/${doc.id}/attachments/${attachment.id}`;
    conforms('get', '/api/documents/{documentId}/attachments/{attachmentId}', await get(oneAttachment, seller.key));
    conforms(
      'get',
      '/api/documents/{documentId}/attachments/{attachmentId}',
      await get(`${oneAttachment}?download=true`, seller.key),
    );
    conforms(
      'delete',
      '/api/documents/{documentId}/attachments/{attachmentId}',
      await t.http.delete(oneAttachment).set(as(seller.key)),
    );
    conforms(
      'delete',
      '/api/documents/{documentId}',
      await t.http.delete(`/api/documents/${fromUbl.id}`).set(as(seller.key)),
    );

    // Webhooks
    const hook = conforms(
      'post',
      '/api/webhooks',
      await t.http
        .post('/api/webhooks')
        .set(as(seller.key))
        .send({ url: receiver.url('/shapes'), events: ['document.sent'] }),
      201,
    );
    conforms('get', '/api/webhooks', await get('/api/webhooks', seller.key));
    conforms('get', '/api/webhooks/{webhookId}', await get(`/api/webhooks/${hook.id}`, seller.key));
    conforms(
      'put',
      '/api/webhooks/{webhookId}',
      await t.http
        .put(`/api/webhooks/${hook.id}`)
        .set(as(seller.key))
        .send({ events: ['*'] }),
    );
    conforms(
      'post',
      '/api/webhooks/{webhookId}/test',
      await t.http.post(`/api/webhooks/${hook.id}/test`).set(as(seller.key)),
    );

    // Sending to the buyer on this instance, the buyer's answer
    conforms(
      'post',
      '/api/documents/{documentId}/send',
      await t.http.post(`/api/documents/${doc.id}/send`).set(as(seller.key)),
    );
    let state = '';
    for (let i = 0; i < 100 && state !== 'SENT'; i++) {
      state = (await get(`/api/documents/${doc.id}`, seller.key)).body.state;
      if (state !== 'SENT') await new Promise((r) => setTimeout(r, 100));
    }
    expect(state).to.equal('SENT');
    conforms(
      'get',
      '/api/documents/{documentId}/transmission-report',
      await get(`/api/documents/${doc.id}/transmission-report`, seller.key),
    );
    conforms('get', '/api/documents/{documentId}/timeline', await get(`/api/documents/${doc.id}/timeline`, seller.key));
    conforms('get', '/api/documents/{documentId}/history', await get(`/api/documents/${doc.id}/history`, seller.key));
    const inbox = conforms('get', '/api/inbox', await get('/api/inbox', buyer.key)) as unknown as {
      items: Array<{ id: string }>;
    };
    conforms('get', '/api/inbox/invoices', await get('/api/inbox/invoices', buyer.key));
    conforms('get', '/api/inbox/credit-notes', await get('/api/inbox/credit-notes', buyer.key));
    const received = inbox.items[0]!.id;
    conforms('get', '/api/inbox/{documentId}', await get(`/api/inbox/${received}`, buyer.key));
    conforms(
      'post',
      '/api/inbox/{documentId}/accept',
      await t.http.post(`/api/inbox/${received}/accept`).set(as(buyer.key)).send({ note: 'Fine' }),
    );
    conforms(
      'get',
      '/api/webhooks/{webhookId}/deliveries',
      await get(`/api/webhooks/${hook.id}/deliveries`, seller.key),
    );
    conforms('get', '/api/webhooks/{webhookId}/history', await get(`/api/webhooks/${hook.id}/history`, seller.key));
    conforms(
      'delete',
      '/api/webhooks/{webhookId}',
      await t.http.delete(`/api/webhooks/${hook.id}`).set(as(seller.key)),
    );

    // A delivery that waits for a retry, cancelled
    const waiting = conforms(
      'post',
      '/api/documents',
      await t.http
        .post('/api/documents')
        .set(as(seller.key))
        .send({ ...body, invoice_id: 'SHAPES-NOBODY-1', customer_peppol_id: NOBODY }),
    );
    await t.http.post(`/api/documents/${waiting.id}/send`).set(as(seller.key));
    let cancelled: Response | null = null;
    for (let i = 0; i < 100 && cancelled?.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      cancelled = await t.http.post(`/api/documents/${waiting.id}/cancel`).set(as(seller.key));
    }
    conforms('post', '/api/documents/{documentId}/cancel', cancelled!);

    // Over AS4: a message from another access point to the buyer, its evidence, a rejection
    const built = await buildAs4({
      sbdh: invoiceSbdh(SELLER_ID, BUYER_ID),
      businessDocument: ubl.text.replace(/<cbc:ID>[^<]*</, '<cbc:ID>SHAPES-AS4-1<'),
      from: { ...signingKeyOf(pki.instance(2)), seatId: pki.instance(2).seatId },
      toSeatId: pki.instance(1).seatId,
      receiverCertificate: new X509Certificate(readFileSync(pki.instance(1).certificateFile)),
    });
    conforms('post', '/as4', await t.http.post('/as4').set('Content-Type', built.contentType).send(built.body));
    const overAs4 = (await get('/api/inbox?search=SHAPES-AS4-1', buyer.key)).body.items[0].id as string;
    conforms('get', '/api/documents/{documentId}/evidence', await get(`/api/documents/${overAs4}/evidence`, buyer.key));
    conforms(
      'post',
      '/api/inbox/{documentId}/reject',
      await t.http.post(`/api/inbox/${overAs4}/reject`).set(as(buyer.key)).send({ reason: 'Not ours' }),
    );
    const month = new Date().toISOString().slice(0, 7);
    conforms('get', '/api/operator/reports/peppol', await get(`/api/operator/reports/peppol?month=${month}`, operator));
    conforms(
      'get',
      '/api/operator/reports/peppol',
      await get(`/api/operator/reports/peppol?month=${month}&report=tsr`, operator),
    );
    // The history chain: a checkpoint written now, the list of them, and a walk of the chain.
    const checkpoint = await t.http.post('/api/operator/history/checkpoints').set(bearer(operator));
    conforms('post', '/api/operator/history/checkpoints', checkpoint, checkpoint.status === 201 ? 201 : 200);
    conforms('get', '/api/operator/history/checkpoints', await get('/api/operator/history/checkpoints', operator));
    conforms(
      'post',
      '/api/operator/history/verify',
      await t.http.post('/api/operator/history/verify').set(bearer(operator)).send({ blobs: false }),
    );
    // Submitted (queued for OpenPeppol, which has no route from here).
    const submitted = conforms(
      'post',
      '/api/operator/reports/peppol/submissions',
      await t.http.post('/api/operator/reports/peppol/submissions').set(bearer(operator)).send({ month }),
    );
    expect(submitted.month).to.equal(month);
    conforms(
      'get',
      '/api/operator/reports/peppol/submissions',
      await get(`/api/operator/reports/peppol/submissions?month=${month}`, operator),
    );
    // A resend answers one submission (the shape GET's tsr and eusr have, checked above); of a month
    // never submitted, the 404 it publishes.
    conforms(
      'post',
      '/api/operator/reports/peppol/submissions/{month}/{report}/resend',
      await t.http.post('/api/operator/reports/peppol/submissions/2020-01/eusr/resend').set(bearer(operator)),
      404,
    );

    // Lists, stats, lookups
    conforms('get', '/api/outbox', await get('/api/outbox', seller.key));
    conforms('get', '/api/outbox/drafts', await get('/api/outbox/drafts', seller.key));
    conforms('get', '/api/stats', await get('/api/stats?from=2024-01-01&to=2030-12-31', seller.key));
    conforms('get', '/api/lookup', await get(`/api/lookup?peppol_id=${BUYER_ID}`, seller.key));
    conforms('get', '/api/validate/peppol-id', await get(`/api/validate/peppol-id?peppol_id=${BUYER_ID}`, seller.key));
    conforms('get', '/api/lookup/participants', await get('/api/lookup/participants?query=Zwaan', seller.key));

    // Every documented route was called and checked.
    const documented = Object.entries(openApi.paths).flatMap(([template, operations]) =>
      Object.keys(operations).map((method) => `${method} ${template}`),
    );
    expect(
      documented.filter((route) => !checked.has(route)),
      'routes this suite did not check',
    ).to.deep.equal([]);
  });
});
