import { expect } from 'chai';
import { bearer, createOrganization, createTenant, publicClient, eventually, startTestService, waitForState, type TestService } from '../support/service.js';
import { startWebhookReceiver, type ReceivedCall, type WebhookReceiver } from '../support/webhookReceiver.js';
import { realisticDocuments } from '../domain/document/fixtures/realisticDocuments.js';
import { verifyWebhook } from '../../src/application/webhooks/webhookSignature.js';
import { WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_DELAYS_MINUTES } from '../../src/domain/webhook/webhookDelivery.js';
import { HttpWebhookClient } from '../../src/infrastructure/webhooks/httpWebhookClient.js';

const invoice = () => structuredClone(realisticDocuments()[0]!.body) as Record<string, unknown>;
const UNIT_MS = 5;
const TIMEOUT_MS = 400;

const verified = (call: ReceivedCall, secret: string) =>
  verifyWebhook(secret, { id: String(call.headers['webhook-id']), timestamp: String(call.headers['webhook-timestamp']), signature: String(call.headers['webhook-signature']) }, call.body);

describe('Webhooks: subscriptions, signed deliveries, retries and history (real app, real HTTP subscriber)', function () {
  let t: TestService;
  let receiver: WebhookReceiver;
  let adminKey: string;

  before(async () => {
    receiver = await startWebhookReceiver();
    t = await startTestService({}, undefined, { deliveryRetryUnitMs: UNIT_MS, webhookTimeoutMs: TIMEOUT_MS });
    adminKey = (await createOrganization(t)).adminKey;
  });
  after(async () => {
    await t?.stop();
    await receiver?.stop();
  });

  /** A tenant in test mode: its documents go DRAFT → TRANSIT → SENT by (.eml) mail. */
  const testModeTenant = async () => {
    const tenant = await createTenant(t, adminKey);
    const res = await t.http.put(`/api/operator/tenants/${tenant.id}/test-mode`).set(bearer(t.operatorKey)).send({ test_mode: true, email: 'qa@tenant.test' });
    expect(res.status).to.equal(200);
    return tenant;
  };
  const subscribe = async (key: string, path: string, events: string[] = ['*']) => {
    const res = await t.http.post('/api/webhooks/').set(bearer(key)).send({ url: receiver.url(path), events });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body as { id: string; secret: string };
  };
  const createAndSend = async (key: string) => {
    const doc = (await t.http.post('/api/documents/').set(bearer(key)).send(invoice())).body;
    expect((await t.http.post(`/api/documents/${doc.id}/send`).set(bearer(key))).status).to.equal(200);
    return doc.id as string;
  };
  const callsTo = (path: string) => receiver.calls.filter((c) => c.path === path);

  it('manages subscriptions in the client shape; another tenant cannot see them', async () => {
    const tenant = await createTenant(t, adminKey);
    const other = await createTenant(t, adminKey);
    const created = await t.http.post('/api/webhooks/').set(bearer(tenant.key)).send({ url: receiver.url('/crud'), events: ['document.sent'] });
    expect(created.status).to.equal(201);
    expect(created.body).to.include({ url: receiver.url('/crud'), enabled: true });
    expect(created.body.events).to.deep.equal(['document.sent']);
    expect(created.body.secret).to.match(/^whsec_[A-Za-z0-9+/]{43}=$/);

    const list = await t.http.get('/api/webhooks/').set(bearer(tenant.key));
    expect(list.body.map((w: { id: string }) => w.id)).to.deep.equal([created.body.id]);
    expect((await t.http.get('/api/webhooks/').set(bearer(other.key))).body).to.deep.equal([]);
    expect((await t.http.get(`/api/webhooks/${created.body.id}`).set(bearer(other.key))).status).to.equal(404);
    expect((await t.http.delete(`/api/webhooks/${created.body.id}`).set(bearer(other.key))).status).to.equal(404);

    const updated = await t.http.put(`/api/webhooks/${created.body.id}`).set(bearer(tenant.key)).send({ events: ['document.sent', 'document.failed'], enabled: false, url: null });
    expect(updated.status).to.equal(200);
    expect(updated.body).to.include({ enabled: false, url: receiver.url('/crud'), secret: created.body.secret });
    expect(updated.body.events).to.deep.equal(['document.sent', 'document.failed']);

    const badEvent = await t.http.post('/api/webhooks/').set(bearer(tenant.key)).send({ url: receiver.url('/x'), events: ['document.sent', 'invoice.paid'] });
    expect(badEvent.status).to.equal(422);
    expect(badEvent.body.detail[0].loc).to.deep.equal(['body', 'events', 1]);
    for (const url of ['not a url', 'ftp://example.com/hook', 'https://user:pw@example.com/hook']) {
      const bad = await t.http.post('/api/webhooks/').set(bearer(tenant.key)).send({ url, events: ['*'] });
      expect(bad.status, url).to.equal(422);
      expect(bad.body.detail[0].loc).to.deep.equal(['body', 'url']);
    }
    expect((await t.http.post('/api/webhooks/').set(bearer(tenant.key)).send({ url: receiver.url('/x') })).status).to.equal(422);

    const deleted = await t.http.delete(`/api/webhooks/${created.body.id}`).set(bearer(tenant.key));
    expect(deleted.body).to.deep.equal({ is_deleted: true });
    expect((await t.http.get(`/api/webhooks/${created.body.id}`).set(bearer(tenant.key))).status).to.equal(404);
    expect((await t.http.get('/api/webhooks/').set(bearer(tenant.key))).body).to.deep.equal([]);
  });

  it('works through the public e-invoice-api client', async () => {
    const tenant = await createTenant(t, adminKey);
    const { client, close } = await publicClient(t, tenant.key);
    try {
      const created = await client.webhooks.create({ url: receiver.url('/client'), events: ['document.sent'] });
      expect((await client.webhooks.retrieve(created.id)).url).to.equal(receiver.url('/client'));
      expect((await client.webhooks.list()).map((w) => w.id)).to.deep.equal([created.id]);
      expect((await client.webhooks.update(created.id, { enabled: false })).enabled).to.equal(false);
      expect((await client.webhooks.delete(created.id)).is_deleted).to.equal(true);
    } finally {
      await close();
    }
  });

  it('posts signed notifications for DRAFT → TRANSIT → SENT, once each, with a sequence to order them by', async () => {
    const tenant = await testModeTenant();
    const hook = await subscribe(tenant.key, '/all');
    const docId = await createAndSend(tenant.key);
    await waitForState(t, tenant.key, docId, ['SENT']);
    const calls = await eventually(async () => {
      const mine = callsTo('/all').filter((c) => JSON.parse(c.body).data.document_id === docId);
      return mine.length >= 3 && mine;
    }, 'three notifications');
    await new Promise((r) => setTimeout(r, 300)); // nothing more arrives
    // Calls run concurrently and retries reorder them: receivers order by the log sequence.
    const mine = callsTo('/all')
      .filter((c) => JSON.parse(c.body).data.document_id === docId)
      .sort((a, b) => Number(BigInt(JSON.parse(a.body).sequence) - BigInt(JSON.parse(b.body).sequence)));
    expect(mine.map((c) => JSON.parse(c.body).type)).to.deep.equal(['document.created', 'document.transit', 'document.sent']);
    expect(mine.map((c) => JSON.parse(c.body).data.state)).to.deep.equal(['DRAFT', 'TRANSIT', 'SENT']);
    for (const call of calls) {
      expect(call.headers['content-type']).to.equal('application/json');
      expect(call.headers['webhook-event']).to.equal(JSON.parse(call.body).type);
      expect(call.headers['webhook-id']).to.equal(JSON.parse(call.body).id);
      expect(verified(call, hook.secret), 'signature').to.equal(true);
      // Tampering with the body, another secret, or a replay outside the window fails verification.
      expect(verified({ ...call, body: call.body.replace('"state":', '"state" :') }, hook.secret)).to.equal(false);
      expect(verifyWebhook('whsec_' + Buffer.alloc(32).toString('base64'), { id: String(call.headers['webhook-id']), timestamp: String(call.headers['webhook-timestamp']), signature: String(call.headers['webhook-signature']) }, call.body)).to.equal(false);
      expect(verifyWebhook(hook.secret, { id: String(call.headers['webhook-id']), timestamp: String(call.headers['webhook-timestamp']), signature: String(call.headers['webhook-signature']) }, call.body, Number(call.headers['webhook-timestamp']) + 3600)).to.equal(false);
    }
    expect(new Set(mine.map((c) => c.headers['webhook-id'])).size).to.equal(3);
    const sentBody = JSON.parse(mine[2]!.body);
    expect(sentBody).to.include({ type: 'document.sent', tenant_id: tenant.id });
    expect(sentBody.data).to.include({ document_id: docId, state: 'SENT', direction: 'OUTBOUND' });

    const history = await t.http.get(`/api/webhooks/${hook.id}/deliveries`).set(bearer(tenant.key));
    expect(history.status).to.equal(200);
    const forDoc = history.body.items.filter((d: { document_id: string }) => d.document_id === docId);
    expect(forDoc.map((d: { event_type: string }) => d.event_type).sort()).to.deep.equal(['document.created', 'document.sent', 'document.transit']);
    for (const d of forDoc) {
      expect(d.status).to.equal('delivered');
      expect(d.attempts).to.have.length(1);
      expect(d.attempts[0]).to.include({ attempt: 1, outcome: 'delivered', status_code: 200, url: receiver.url('/all') });
    }
  });

  it('sends only the kinds subscribed to, and nothing to disabled or other tenants\' subscriptions', async () => {
    const tenant = await testModeTenant();
    const other = await testModeTenant();
    await subscribe(tenant.key, '/sent-only', ['document.sent']);
    const disabled = await subscribe(tenant.key, '/disabled');
    expect((await t.http.put(`/api/webhooks/${disabled.id}`).set(bearer(tenant.key)).send({ enabled: false })).status).to.equal(200);
    await subscribe(other.key, '/other');
    const docId = await createAndSend(tenant.key);
    await waitForState(t, tenant.key, docId, ['SENT']);
    await eventually(async () => callsTo('/sent-only').some((c) => JSON.parse(c.body).data.document_id === docId), 'the sent notification');
    await new Promise((r) => setTimeout(r, 300));
    expect(callsTo('/sent-only').filter((c) => JSON.parse(c.body).data.document_id === docId).map((c) => JSON.parse(c.body).type)).to.deep.equal(['document.sent']);
    expect(callsTo('/disabled')).to.have.length(0);
    expect(callsTo('/other')).to.have.length(0);
  });

  it('retries a failing subscriber on the back-off schedule, records every call, and gives up; sending is not held up', async () => {
    const tenant = await testModeTenant();
    receiver.answer('/down', 503);
    const hook = await subscribe(tenant.key, '/down', ['document.sent']);
    const docId = await createAndSend(tenant.key);
    await waitForState(t, tenant.key, docId, ['SENT']);
    const delivery = await eventually(async () => {
      const res = await t.http.get(`/api/webhooks/${hook.id}/deliveries`).set(bearer(tenant.key));
      const d = res.body.items[0];
      return d?.status === 'failed' && d;
    }, 'the delivery to give up', 30_000);
    expect(delivery.attempts).to.have.length(WEBHOOK_MAX_ATTEMPTS);
    delivery.attempts.forEach((a: { attempt: number; status_code: number; error: string; outcome: string; next_attempt_at: string | null; started_at: string; duration_ms: number }, i: number) => {
      expect(a).to.include({ attempt: i + 1, outcome: 'failed', status_code: 503, error: 'HTTP 503' });
      if (i < WEBHOOK_MAX_ATTEMPTS - 1) {
        const planned = new Date(a.next_attempt_at!).getTime() - new Date(a.started_at).getTime() - a.duration_ms;
        expect(planned).to.equal(WEBHOOK_RETRY_DELAYS_MINUTES[i]! * UNIT_MS);
      } else expect(a.next_attempt_at).to.equal(null);
    });
    expect(callsTo('/down')).to.have.length(WEBHOOK_MAX_ATTEMPTS);
  });

  it('times out a slow subscriber without delaying the documents', async () => {
    const tenant = await testModeTenant();
    receiver.answer('/slow', 200, 5_000);
    const hook = await subscribe(tenant.key, '/slow', ['*']);
    const docs = [await createAndSend(tenant.key), await createAndSend(tenant.key)];
    for (const id of docs) await waitForState(t, tenant.key, id, ['SENT'], 3_000);
    const attempt = await eventually(async () => {
      const res = await t.http.get(`/api/webhooks/${hook.id}/deliveries`).set(bearer(tenant.key));
      return res.body.items.flatMap((d: { attempts: unknown[] }) => d.attempts).find((a: { error: string | null }) => a.error !== null);
    }, 'a timed-out call');
    expect(attempt).to.include({ outcome: 'failed', status_code: null, error: `No answer within ${TIMEOUT_MS} ms` });
  });

  it('refuses loopback and private-network targets unless the deployment allows them', async () => {
    const client = new HttpWebhookClient(false);
    for (const url of [receiver.url('/x'), 'http://localhost:9/x', 'http://[::1]:9/x', 'http://10.1.2.3/x', 'http://169.254.169.254/latest/meta-data']) {
      let error: Error | null = null;
      await client.post(url, {}, '{}', 1000).catch((e: Error) => (error = e));
      expect(error, url).to.be.instanceOf(Error);
      expect(error!.message).to.match(/^Refused: /);
    }
    expect(callsTo('/x')).to.have.length(0);
    expect(await new HttpWebhookClient(true).post(receiver.url('/x'), { 'content-type': 'application/json' }, '{}', 1000)).to.equal(200);
  });
});
