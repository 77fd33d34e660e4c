import { expect } from 'chai';
import type * as t from 'io-ts';
import { bearer, createOrganization, createTenant, startTestService, type TestService } from '../support/service.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver.js';
import { realisticDocuments } from '../domain/document/fixtures/realisticDocuments.js';
import {
  OrganizationAnswer,
  OrganizationsAnswer,
  StatsAnswer,
  TimelineAnswer,
  WebhookHistoryAnswer,
  WebhookTestAnswer,
} from '../../src/http/codecs/answerCodecs.js';

/**
 * The answers the OpenAPI document describes with a schema (timeline, webhook history and test,
 * stats, the operator's organizations): the document carries each codec's schema, and what the
 * routes answer, read from the real service, has that shape.
 */
describe('Documented answer shapes (timeline, webhook history and test, stats, organizations)', function () {
  this.timeout(60_000);
  let t: TestService;
  let receiver: WebhookReceiver;
  let organization: { id: string; adminKey: string };
  let tenant: { id: string; key: string };
  let documentId: string;
  let webhookId: string;

  before(async () => {
    t = await startTestService();
    receiver = await startWebhookReceiver();
    organization = await createOrganization(t);
    tenant = await createTenant(t, organization.adminKey);
    const doc = await t.http.post('/api/documents/').set(bearer(tenant.key)).send(realisticDocuments()[0]!.body);
    expect(doc.status, JSON.stringify(doc.body)).to.equal(200);
    documentId = doc.body.id;
    const hook = await t.http
      .post('/api/webhooks/')
      .set(bearer(tenant.key))
      .send({ url: receiver.url('/shapes'), events: ['document.created'] });
    expect(hook.status, JSON.stringify(hook.body)).to.be.oneOf([200, 201]);
    webhookId = hook.body.id;
  });
  after(async () => {
    await receiver?.stop();
    await t?.stop();
  });

  const shaped = (codec: t.Any, body: unknown, what: string) =>
    expect(codec.is(body), `${what}: ${JSON.stringify(body).slice(0, 400)}`).to.equal(true);

  it('each route answers the shape its OpenAPI entry documents', async () => {
    const get = async (route: string, key: string) => {
      const res = await t.http.get(route).set(bearer(key));
      expect(res.status, `${route}: ${JSON.stringify(res.body)}`).to.equal(200);
      return res.body as unknown;
    };
    const timeline = await get(`/api/documents/${documentId}/timeline`, tenant.key);
    shaped(TimelineAnswer, timeline, 'timeline');
    expect((timeline as { items: Array<{ type: string }> }).items.map((i) => i.type)).to.deep.equal(['created']);
    shaped(StatsAnswer, await get('/api/stats?from=2024-01-01&to=2030-12-31', tenant.key), 'stats');
    const tested = await t.http.post(`/api/webhooks/${webhookId}/test`).set(bearer(tenant.key));
    shaped(WebhookTestAnswer, tested.body, 'webhook test');
    expect(tested.body.delivered).to.equal(true);
    shaped(WebhookHistoryAnswer, await get(`/api/webhooks/${webhookId}/history`, tenant.key), 'webhook history');
    const organizations = await get('/api/operator/organizations', t.operatorKey);
    shaped(OrganizationsAnswer, organizations, 'organizations');
    const one = await get(`/api/operator/organizations/${organization.id}`, t.operatorKey);
    shaped(OrganizationAnswer, one, 'organization');
    expect((one as { tenants: Array<{ id: string }> }).tenants.map((x) => x.id)).to.include(tenant.id);
  });

  it('the OpenAPI document gives those answers a schema', async () => {
    const doc = (await t.http.get('/api/openapi.json')).body as {
      paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>;
    };
    for (const [path, method] of [
      ['/api/documents/{documentId}/timeline', 'get'],
      ['/api/webhooks/{webhookId}/history', 'get'],
      ['/api/webhooks/{webhookId}/test', 'post'],
      ['/api/stats', 'get'],
      ['/api/operator/organizations', 'get'],
      ['/api/operator/organizations/{organizationId}', 'get'],
    ] as const) {
      const content = doc.paths[path]?.[method]?.responses['200']?.content as
        { 'application/json': { schema: { type?: string; properties?: object; allOf?: object } } } | undefined;
      const schema = content?.['application/json'].schema;
      expect(schema, `${method} ${path}`).to.not.equal(undefined);
      expect(schema!.properties ?? schema!.allOf, `${method} ${path} names its fields`).to.not.equal(undefined);
    }
  });
});
