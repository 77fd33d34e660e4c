import { expect } from 'chai';
import {
  bearer,
  capturingLogger,
  createOrganization,
  createTenant,
  eventually,
  startTestService,
  type TestService,
} from '../support/service.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver.js';
import { realisticDocuments } from '../domain/document/fixtures/realisticDocuments.js';
import { DeliveryProcess } from '../../src/application/delivery/deliveryProcess.js';

const invoice = () => structuredClone(realisticDocuments()[0]!.body) as Record<string, unknown>;
/** The fixture's seller (BE0403013026): live senders send as their own Peppol identifier. */
const SELLER_ID = '0208:0403013026';
/** Nobody on the network: every attempt to reach it is a retryable "no Peppol route". */
const NOBODY = '0208:0202239951';

describe('Operations: cancelling a delivery, send options in the body, failure log, metrics and readiness (real app, PostgreSQL)', function () {
  let t: TestService;
  let adminKey: string;
  let receiver: WebhookReceiver;
  const log = capturingLogger('warn');
  let sequence = 0;

  before(async () => {
    receiver = await startWebhookReceiver();
    // A schedule minute is a real minute: a failed first attempt waits a minute for its retry.
    t = await startTestService({}, undefined, { deliveryRetryUnitMs: 60_000, logger: log.logger });
    adminKey = (await createOrganization(t)).adminKey;
  });
  after(async () => {
    await t?.stop();
    await receiver?.stop();
  });

  const createDocument = async (key: string, body: Record<string, unknown> = {}) => {
    const res = await t.http
      .post('/api/documents/')
      .set(bearer(key))
      .send({ ...invoice(), invoice_id: `OPS-${++sequence}`, ...body });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body as { id: string; state: string };
  };
  const report = async (key: string, id: string) => {
    const res = await t.http.get(`/api/documents/${id}/transmission-report`).set(bearer(key));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body;
  };
  const events = async (key: string, id: string) =>
    (await t.http.get(`/api/documents/${id}/history`).set(bearer(key))).body.events as Array<{
      type: string;
      data: Record<string, unknown>;
    }>;
  /** Sends the document and waits until its first attempt failed and a retry waits. */
  const sendToWait = async (key: string, id: string, body?: object, query = '') => {
    const sent = await t.http
      .post(`/api/documents/${id}/send${query}`)
      .set(bearer(key))
      .send(body ?? {});
    expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
    expect(sent.body.state).to.equal('TRANSIT');
    return eventually(async () => {
      const r = await report(key, id);
      const attempts = r.deliveries[0]?.attempts ?? [];
      return attempts.length === 1 && attempts[0].next_attempt_at ? r : false;
    }, 'the first attempt, failed, and a retry planned');
  };

  describe('cancelling a delivery that waits for a retry', () => {
    it('makes the document FAILED with the reason "cancelled", records it, notifies document.failed, and the retry then does nothing', async () => {
      const seller = await createTenant(t, adminKey, undefined, { peppol_ids: [SELLER_ID] });
      const hook = await t.http
        .post('/api/webhooks/')
        .set(bearer(seller.key))
        .send({ url: receiver.url('/cancel'), events: ['document.failed'] });
      expect(hook.status, JSON.stringify(hook.body)).to.equal(201);
      const doc = await createDocument(seller.key, { customer_peppol_id: NOBODY });
      const waiting = await sendToWait(seller.key, doc.id);
      const deliveryId = waiting.deliveries[0].delivery_id as string;

      const other = await createTenant(t, adminKey);
      const foreign = await t.http.post(`/api/documents/${doc.id}/cancel`).set(bearer(other.key));
      expect(foreign.status).to.equal(404);
      expect(foreign.body).to.deep.equal({ detail: 'Document not found' });

      const cancelled = await t.http.post(`/api/documents/${doc.id}/cancel`).set(bearer(seller.key));
      expect(cancelled.status, JSON.stringify(cancelled.body)).to.equal(200);
      expect(cancelled.body.id).to.equal(doc.id);
      expect(cancelled.body.state).to.equal('FAILED');

      const r = await report(seller.key, doc.id);
      expect(r.state).to.equal('FAILED');
      expect(r.deliveries[0].status).to.equal('failed');
      expect(r.deliveries[0].failure_reason).to.equal('cancelled');
      const recorded = await events(seller.key, doc.id);
      const failed = recorded.filter((e) => e.type === 'DocumentFailed');
      expect(failed).to.have.length(1);
      expect(failed[0]!.data).to.include({ reason: 'cancelled', delivery_id: deliveryId });

      // The retry job, when it comes, finds the document FAILED: nothing is attempted or recorded.
      await t.service.resolve(DeliveryProcess).attempt({ document_id: doc.id, delivery_id: deliveryId, attempt: 2 });
      expect(await events(seller.key, doc.id)).to.have.length(recorded.length);
      expect((await report(seller.key, doc.id)).deliveries[0].attempts).to.have.length(1);

      const call = await eventually(
        async () => receiver.calls.find((c) => c.path === '/cancel' && JSON.parse(c.body).data.document_id === doc.id),
        'the document.failed notification',
      );
      expect(JSON.parse(call.body)).to.deep.include({ type: 'document.failed' });
      expect(JSON.parse(call.body).data).to.include({ state: 'FAILED', reason: 'cancelled' });

      // It may be sent again: a fresh delivery.
      const again = await t.http.post(`/api/documents/${doc.id}/send`).set(bearer(seller.key));
      expect(again.status).to.equal(200);
      expect(again.body.state).to.equal('TRANSIT');
    });

    it('refuses to cancel a document not in TRANSIT (409 in the error format), and changes nothing', async () => {
      const seller = await createTenant(t, adminKey, undefined, { peppol_ids: [SELLER_ID] });
      const draft = await createDocument(seller.key, { customer_peppol_id: NOBODY });
      const before = (await events(seller.key, draft.id)).length;
      const refused = await t.http.post(`/api/documents/${draft.id}/cancel`).set(bearer(seller.key));
      expect(refused.status).to.equal(409);
      expect(refused.body).to.deep.equal({
        detail: 'A DRAFT document has no delivery to cancel; only one in TRANSIT can be cancelled',
      });
      expect(await events(seller.key, draft.id)).to.have.length(before);

      const missing = await t.http.post('/api/documents/no-such-document/cancel').set(bearer(seller.key));
      expect(missing.status).to.equal(404);

      const doc = await createDocument(seller.key, { customer_peppol_id: NOBODY });
      await sendToWait(seller.key, doc.id);
      expect((await t.http.post(`/api/documents/${doc.id}/cancel`).set(bearer(seller.key))).status).to.equal(200);
      const twice = await t.http.post(`/api/documents/${doc.id}/cancel`).set(bearer(seller.key));
      expect(twice.status).to.equal(409);
      expect(twice.body.detail).to.match(/^A FAILED document has no delivery to cancel/);
    });
  });

  describe('send options', () => {
    it('takes them from a JSON body as from the query: the receiver override in the body is where it goes', async () => {
      const seller = await createTenant(t, adminKey, undefined, { peppol_ids: [SELLER_ID] });
      // The document names its buyer (derived from the fixture's tax id); the body overrides it.
      const doc = await createDocument(seller.key);
      const r = await sendToWait(seller.key, doc.id, {
        receiver_peppol_scheme: '0208',
        receiver_peppol_id: '0202239951',
      });
      expect(r.deliveries[0].receiver_peppol_id).to.equal(NOBODY);
      expect(r.deliveries[0].attempts[0].error).to.equal(`no Peppol route to ${NOBODY}`);

      // The same value in both is one value.
      const doc2 = await createDocument(seller.key);
      const r2 = await sendToWait(
        seller.key,
        doc2.id,
        { receiver_peppol_id: '0202239951' },
        '?receiver_peppol_scheme=0208&receiver_peppol_id=0202239951',
      );
      expect(r2.deliveries[0].receiver_peppol_id).to.equal(NOBODY);
    });

    it('refuses the query and the body disagreeing (422 naming the field), and bad body options, recording nothing', async () => {
      const seller = await createTenant(t, adminKey, undefined, { peppol_ids: [SELLER_ID] });
      const doc = await createDocument(seller.key);
      const disagree = await t.http
        .post(`/api/documents/${doc.id}/send?receiver_peppol_scheme=0208&receiver_peppol_id=0202239951`)
        .set(bearer(seller.key))
        .send({ receiver_peppol_scheme: '0208', receiver_peppol_id: '0451234595' });
      expect(disagree.status).to.equal(422);
      expect(disagree.body.detail).to.have.length(1);
      expect(disagree.body.detail[0].loc).to.deep.equal(['body', 'receiver_peppol_id']);
      expect(disagree.body.detail[0].msg).to.match(/given in the query .* and in the body .* with different values/);

      const badType = await t.http
        .post(`/api/documents/${doc.id}/send`)
        .set(bearer(seller.key))
        .send({ receiver_peppol_id: 208 });
      expect(badType.status).to.equal(422);
      expect(badType.body.detail[0].loc).to.deep.equal(['body', 'receiver_peppol_id']);

      const badEmail = await t.http
        .post(`/api/documents/${doc.id}/send`)
        .set(bearer(seller.key))
        .send({ email: 'nope' });
      expect(badEmail.status).to.equal(422);
      expect(badEmail.body.detail[0].loc).to.deep.equal(['body', 'email']);
      expect(await events(seller.key, doc.id)).to.have.length(1);
    });
  });

  describe('the failure log', () => {
    it('logs every failed delivery attempt in one warn line: document, attempt, transport, reason, next attempt', async () => {
      const seller = await createTenant(t, adminKey, undefined, { peppol_ids: [SELLER_ID] });
      const doc = await createDocument(seller.key, { customer_peppol_id: NOBODY });
      const r = await sendToWait(seller.key, doc.id);
      const record = await eventually(
        async () => log.records.find((l) => l.document === doc.id && l.attempt === 1),
        'the failure in the log',
      );
      expect(record).to.include({
        level: 40,
        component: 'delivery',
        document: doc.id,
        attempt: 1,
        transport: 'peppol',
        outcome: 'retryable',
        reason: `no Peppol route to ${NOBODY}`,
        next_attempt_at: r.deliveries[0].attempts[0].next_attempt_at,
      });
      expect(record.msg).to.equal(
        `delivery attempt 1 of document ${doc.id} failed (no Peppol route to ${NOBODY}); next attempt at ${r.deliveries[0].attempts[0].next_attempt_at}`,
      );
      // One line for the one failure: no other warning names the document.
      expect(log.records.filter((l) => l.document === doc.id && (l.level as number) >= 40)).to.have.length(1);
      await t.http.post(`/api/documents/${doc.id}/cancel`).set(bearer(seller.key));
    });
  });

  describe('test mode', () => {
    const setTestMode = (tenantId: string, body: object) =>
      t.http.put(`/api/operator/tenants/${tenantId}/test-mode`).set(bearer(t.operatorKey)).send(body);
    const tenantSeen = async (tenantId: string) =>
      (await t.http.get(`/api/operator/tenants/${tenantId}`).set(bearer(t.operatorKey))).body;

    it('cannot be switched on without an address (422 naming the field); switching it off keeps the address', async () => {
      const tenant = await createTenant(t, adminKey);
      for (const body of [{ test_mode: true }, { test_mode: true, email: null }]) {
        const refused = await setTestMode(tenant.id, body);
        expect(refused.status).to.equal(422);
        expect(refused.body.detail).to.have.length(1);
        expect(refused.body.detail[0].loc).to.deep.equal(['body', 'email']);
        expect(refused.body.detail[0].msg).to.match(/^Test mode needs the e-mail address its documents go to/);
      }
      expect(await tenantSeen(tenant.id)).to.include({ test_mode: false, test_mode_email: null });

      const on = await setTestMode(tenant.id, { test_mode: true, email: 'qa@tenant.test' });
      expect(on.status).to.equal(200);
      expect(on.body).to.include({ test_mode: true, test_mode_email: 'qa@tenant.test' });
      const off = await setTestMode(tenant.id, { test_mode: false });
      expect(off.status).to.equal(200);
      expect(off.body).to.include({ test_mode: false, test_mode_email: 'qa@tenant.test' });
      expect(await tenantSeen(tenant.id)).to.include({ test_mode: false, test_mode_email: 'qa@tenant.test' });
      // On again without naming one: the kept address.
      const again = await setTestMode(tenant.id, { test_mode: true });
      expect(again.status).to.equal(200);
      expect(again.body).to.include({ test_mode: true, test_mode_email: 'qa@tenant.test' });
      // Off with null removes it.
      const cleared = await setTestMode(tenant.id, { test_mode: false, email: null });
      expect(cleared.body).to.include({ test_mode: false, test_mode_email: null });
    });
  });

  describe('metrics and readiness', () => {
    /** The metrics, once the read models (which the queue depth is read from) include every write so far. */
    const metrics = async () => {
      await t.service.projections.catchUp();
      const res = await t.http.get('/metrics');
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.match(/^text\/plain; version=0\.0\.4/);
      return res.text;
    };
    const value = (text: string, series: string): number | null => {
      const line = text.split('\n').find((l) => l.startsWith(`${series} `));
      return line ? Number(line.slice(series.length + 1)) : null;
    };

    it('counts requests per route pattern with their latency, deliveries by transport and outcome, the queue and the projections', async () => {
      const seller = await createTenant(t, adminKey, undefined, { peppol_ids: [SELLER_ID] });
      const before = await metrics();
      const series =
        'http_request_duration_seconds_count{method="POST",route="/api/documents/:documentId/send",status="200"}';
      const retryable = 'document_delivery_attempts_total{transport="peppol",outcome="retryable"}';
      const sentBefore = value(before, series) ?? 0;
      const failedBefore = value(before, retryable) ?? 0;
      const queueBefore = value(before, 'document_delivery_queue_depth')!;

      const doc = await createDocument(seller.key, { customer_peppol_id: NOBODY });
      await sendToWait(seller.key, doc.id);
      const during = await metrics();
      expect(value(during, series)).to.equal(sentBefore + 1);
      expect(value(during, retryable)).to.equal(failedBefore + 1);
      expect(value(during, 'document_delivery_queue_depth')).to.equal(queueBefore + 1);
      // Raw paths (with ids) are never labels.
      expect(during).to.not.include(doc.id);
      expect(during).to.match(
        /^http_request_duration_seconds_bucket\{le="0\.005",method="POST",route="\/api\/documents\/:documentId\/send",status="200"\} \d+$/m,
      );
      expect(during).to.match(/^projection_lag_events\{projection="documents@v\d+"\} \d+$/m);
      expect(during).to.include('process_cpu_user_seconds_total');

      expect((await t.http.post(`/api/documents/${doc.id}/cancel`).set(bearer(seller.key))).status).to.equal(200);
      expect(value(await metrics(), 'document_delivery_queue_depth')).to.equal(queueBefore);
    });

    it('reports readiness: the database and each projection with its lag; 503 once the projections stop', async () => {
      await t.service.projections.catchUp();
      const ready = await t.http.get('/readyz');
      expect(ready.status).to.equal(200);
      expect(ready.body).to.deep.include({ status: 'ready', database: 'ok' });
      expect(ready.body.projections.status).to.equal('following');
      const names = (ready.body.projections.items as Array<{ name: string }>).map((p) => p.name);
      expect(names.some((n) => /^documents@v\d+$/.test(n))).to.equal(true);
      for (const item of ready.body.projections.items) {
        expect(item.lag).to.be.a('number').and.at.least(0);
        expect(BigInt(item.position) >= -1n).to.equal(true);
      }

      await t.service.projections.stop();
      try {
        const stopped = await t.http.get('/readyz');
        expect(stopped.status).to.equal(503);
        expect(stopped.body).to.deep.include({
          detail: 'The projections are not following the event log',
          status: 'not_ready',
          database: 'ok',
        });
        expect(stopped.body.projections.status).to.equal('stopped');
      } finally {
        await t.service.projections.start();
      }
    });
  });
});
