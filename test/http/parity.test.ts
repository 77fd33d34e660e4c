import { expect } from 'chai';
import {
  bearer,
  createOrganization,
  createTenant,
  eventually,
  startTestService,
  waitForState,
  type TestService,
} from '../support/service.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver.js';
import { realisticDocuments } from '../domain/document/fixtures/realisticDocuments.js';
import { verifyWebhook } from '../../src/application/webhooks/webhookSignature.js';

const invoice = () => structuredClone(realisticDocuments()[0]!.body) as Record<string, unknown>;
/** The fixture's buyer (BE0451234595) and seller (BE0403013026) as Peppol participants. */
const BUYER_ID = '0208:0451234595';
const SELLER_ID = '0208:0403013026';

describe('Parity with the newer public API: timeline, webhook history and test, stats, list filters and inbox sort (real app, PostgreSQL)', function () {
  let t: TestService;
  let adminKey: string;
  let receiver: WebhookReceiver;
  let buyer: { id: string; key: string };
  let sequence = 0;

  before(async () => {
    receiver = await startWebhookReceiver();
    t = await startTestService({}, undefined, { deliveryRetryUnitMs: 5 });
    adminKey = (await createOrganization(t)).adminKey;
    buyer = await createTenant(t, adminKey, 'the-buyer', { peppol_ids: [BUYER_ID] });
    const registered = await t.http
      .post(`/api/admin/tenants/${buyer.id}/peppol/register`)
      .set(bearer(adminKey))
      .send({ peppol_id: BUYER_ID, company_name: 'Brouwerij De Zwaan NV' });
    expect(registered.status, JSON.stringify(registered.body)).to.equal(200);
  });
  after(async () => {
    await t?.stop();
    await receiver?.stop();
  });

  const create = async (key: string, body: Record<string, unknown> = {}) => {
    const res = await t.http
      .post('/api/documents/')
      .set(bearer(key))
      .send({ ...invoice(), invoice_id: `PAR-${++sequence}`, ...body });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body as { id: string; invoice_id: string; invoice_total: string; currency: string };
  };
  const send = async (key: string, id: string) => {
    const res = await t.http.post(`/api/documents/${id}/send`).set(bearer(key));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    await waitForState(t, key, id, ['SENT']);
  };
  const seller = () => createTenant(t, adminKey, undefined, { peppol_ids: [SELLER_ID] });

  describe('GET /api/documents/{id}/timeline', () => {
    it("shows the document's life in order, each step with its time, actor and facts; another tenant's is not found", async () => {
      const s = await seller();
      const doc = await create(s.key);
      await send(s.key, doc.id);
      const res = await t.http.get(`/api/documents/${doc.id}/timeline`).set(bearer(s.key));
      expect(res.status).to.equal(200);
      expect(res.body.document_id).to.equal(doc.id);
      expect(res.body.state).to.equal('SENT');
      const items = res.body.items as Array<{
        type: string;
        at: string;
        actor: string;
        actor_detail: Record<string, string | null>;
        details: Record<string, unknown>;
      }>;
      expect(items.map((i) => i.type)).to.deep.equal(['created', 'send_requested', 'delivery_attempted', 'sent']);
      const times = items.map((i) => Date.parse(i.at));
      expect(times.every((time) => !Number.isNaN(time))).to.equal(true);
      expect([...times].sort((a, b) => a - b)).to.deep.equal(times);
      expect(items[0]!.details).to.include({ invoice_id: doc.invoice_id, state: 'DRAFT' });
      expect(items[0]!.details).to.not.have.property('document_id');
      // Who did each step, in words and as recorded.
      expect(items[0]!.actor).to.equal(`API key 'app' (${s.keyId})`);
      expect(items[0]!.actor_detail).to.deep.equal({
        kind: 'api_key',
        key_id: s.keyId,
        key_name: 'app',
        tenant_id: s.id,
      });
      expect(items[2]!.actor).to.equal('delivery job');
      expect(items[2]!.actor_detail).to.deep.equal({ kind: 'system', job: 'delivery' });
      expect(items[2]!.details).to.include({ attempt: 1, outcome: 'delivered', transport: 'peppol' });
      expect(items[3]!.details).to.have.property('message_id');

      // The receiver's copy has its own timeline, beginning with its reception.
      const inbox = await t.http.get(`/api/inbox/?search=${doc.invoice_id}`).set(bearer(buyer.key));
      const received = await t.http.get(`/api/documents/${inbox.body.items[0].id}/timeline`).set(bearer(buyer.key));
      expect(received.body.items.map((i: { type: string }) => i.type)).to.deep.equal(['received']);
      // Delivered inside this instance: the delivery job recorded its reception.
      expect(received.body.items[0].actor).to.equal('delivery job');

      const other = await createTenant(t, adminKey);
      expect((await t.http.get(`/api/documents/${doc.id}/timeline`).set(bearer(other.key))).status).to.equal(404);
    });
  });

  describe('webhooks', () => {
    const subscribe = async (key: string, path: string) => {
      const res = await t.http
        .post('/api/webhooks/')
        .set(bearer(key))
        .send({ url: receiver.url(path), events: ['document.created'] });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      return res.body as { id: string; secret: string };
    };

    it('POST /api/webhooks/{id}/test posts a signed webhook.test now and answers the outcome; nothing is recorded', async () => {
      const s = await seller();
      const ok = await subscribe(s.key, '/test-ok');
      const res = await t.http.post(`/api/webhooks/${ok.id}/test`).set(bearer(s.key));
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.include({ url: receiver.url('/test-ok'), delivered: true, status_code: 200, error: null });
      expect(res.body.event_id).to.match(/^evt_test_/);
      expect(res.body.duration_ms).to.be.a('number');
      const call = receiver.calls.find((c) => c.path === '/test-ok')!;
      const payload = JSON.parse(call.body);
      expect(payload).to.deep.include({ id: res.body.event_id, type: 'webhook.test', tenant_id: s.id });
      expect(payload.data).to.include({ webhook_id: ok.id });
      expect(
        verifyWebhook(
          ok.secret,
          {
            id: String(call.headers['webhook-id']),
            timestamp: String(call.headers['webhook-timestamp']),
            signature: String(call.headers['webhook-signature']),
          },
          call.body,
        ),
      ).to.equal(true);

      receiver.answer('/test-down', 503);
      const down = await subscribe(s.key, '/test-down');
      const failed = await t.http.post(`/api/webhooks/${down.id}/test`).set(bearer(s.key));
      expect(failed.status).to.equal(200);
      expect(failed.body).to.include({ delivered: false, status_code: 503, error: 'HTTP 503' });

      // A test is not a delivery.
      await t.service.projections.catchUp();
      const history = await t.http.get(`/api/webhooks/${ok.id}/history`).set(bearer(s.key));
      expect(history.body.total).to.equal(0);

      const other = await createTenant(t, adminKey);
      expect((await t.http.post(`/api/webhooks/${ok.id}/test`).set(bearer(other.key))).status).to.equal(404);
      expect((await t.http.post('/api/webhooks/nope/test').set(bearer(s.key))).status).to.equal(404);
    });

    it('GET /api/webhooks/{id}/history lists each delivery with its status, attempts and response code', async () => {
      const s = await seller();
      const ok = await subscribe(s.key, '/hist-ok');
      receiver.answer('/hist-down', 500);
      const down = await subscribe(s.key, '/hist-down');
      const doc = await create(s.key);
      const delivered = await eventually(async () => {
        const res = await t.http.get(`/api/webhooks/${ok.id}/history`).set(bearer(s.key));
        return res.body.items?.[0]?.status === 'delivered' && res.body;
      }, 'the delivered notification');
      expect(delivered).to.include({ total: 1, page: 1, page_size: 20, pages: 1, has_next_page: false });
      expect(delivered.items[0]).to.include({
        event_type: 'document.created',
        document_id: doc.id,
        status: 'delivered',
        attempt_count: 1,
        response_code: 200,
        error: null,
      });
      expect(delivered.items[0].attempts).to.have.length(1);

      const failing = await eventually(async () => {
        const res = await t.http.get(`/api/webhooks/${down.id}/history`).set(bearer(s.key));
        return res.body.items?.[0]?.attempt_count >= 2 && res.body;
      }, 'two failed calls');
      expect(failing.items[0]).to.include({ response_code: 500, error: 'HTTP 500' });
      expect(failing.items[0].status).to.be.oneOf(['retrying', 'failed']);

      const other = await createTenant(t, adminKey);
      expect((await t.http.get(`/api/webhooks/${ok.id}/history`).set(bearer(other.key))).status).to.equal(404);
    });
  });

  describe('GET /api/stats', () => {
    it('counts and sums the documents per period, direction and state, amounts exact per currency', async () => {
      const s = await seller();
      const a = await create(s.key);
      const b = await create(s.key);
      const usd = await create(s.key, { currency: 'USD' });
      await send(s.key, a.id);
      const today = new Date().toISOString().slice(0, 10);
      const res = await t.http.get(`/api/stats?from=${today}&to=${today}&group_by=day`).set(bearer(s.key));
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.include({ from: today, to: today, group_by: 'day' });
      const sum = (...totals: string[]) =>
        // Exact decimal strings: compare through cents.
        (totals.reduce((n, x) => n + BigInt(Math.round(Number(x) * 100)), 0n) / 1n).toString();
      const cents = (amount: string) => BigInt(amount.replace('.', '')).toString();
      expect(res.body.items).to.have.length(2);
      const [draft, sent] = res.body.items;
      expect(draft).to.deep.include({ period: today, direction: 'OUTBOUND', state: 'DRAFT', count: 2 });
      expect(Object.keys(draft.amounts)).to.deep.equal(['EUR', 'USD']);
      expect(cents(draft.amounts.EUR)).to.equal(sum(b.invoice_total));
      expect(cents(draft.amounts.USD)).to.equal(sum(usd.invoice_total));
      expect(sent).to.deep.include({ period: today, direction: 'OUTBOUND', state: 'SENT', count: 1 });
      expect(cents(sent.amounts.EUR)).to.equal(sum(a.invoice_total));
      expect(res.body.totals).to.deep.include({
        count: 3,
        by_state: { DRAFT: 2, SENT: 1 },
        by_direction: { OUTBOUND: 3 },
      });
      expect(cents(res.body.totals.amounts.EUR)).to.equal(sum(a.invoice_total, b.invoice_total));
      for (const amount of Object.values(res.body.totals.amounts)) expect(amount).to.match(/^\d+\.\d{2,}$/);

      // By month, the same documents in one period.
      const monthly = await t.http.get(`/api/stats?from=${today}&to=${today}`).set(bearer(s.key));
      expect(monthly.body.group_by).to.equal('month');
      expect(monthly.body.items.map((i: { period: string }) => i.period)).to.deep.equal([
        today.slice(0, 7),
        today.slice(0, 7),
      ]);
      // A period without documents.
      const empty = await t.http.get('/api/stats?from=2001-01-01&to=2001-12-31').set(bearer(s.key));
      expect(empty.body).to.deep.include({
        items: [],
        totals: { count: 0, amounts: {}, by_state: {}, by_direction: {} },
      });
    });

    it('refuses bad periods with a 422 naming the field', async () => {
      const s = await seller();
      for (const [query, field] of [
        ['from=2026-13-01', 'from'],
        ['to=yesterday', 'to'],
        ['from=2026-05-02&to=2026-05-01', 'from'],
        ['group_by=week', 'group_by'],
      ] as const) {
        const res = await t.http.get(`/api/stats?${query}`).set(bearer(s.key));
        expect(res.status, query).to.equal(422);
        expect(res.body.detail[0].loc, query).to.deep.equal(['query', field]);
      }
    });
  });

  describe('list filters and sorts', () => {
    it('filters the outbox lists by customer_peppol_id (any case), and sorts the inbox', async () => {
      const s = await seller();
      const other = await create(s.key, { customer_peppol_id: '9925:BE0202239951' });
      const mine = [
        await create(s.key, { customer_peppol_id: BUYER_ID }),
        await create(s.key, { customer_peppol_id: BUYER_ID }),
      ];
      // Derived from a tax id is not given: the filter matches the identifier the document names.
      await create(s.key);
      for (const given of ['9925:BE0202239951', '9925:be0202239951']) {
        const drafts = await t.http.get(`/api/outbox/drafts?customer_peppol_id=${given}`).set(bearer(s.key));
        expect(drafts.status).to.equal(200);
        expect(drafts.body.items.map((d: { id: string }) => d.id)).to.deep.equal([other.id]);
      }
      const outbox = await t.http.get(`/api/outbox/drafts?customer_peppol_id=${BUYER_ID}`).set(bearer(s.key));
      expect(outbox.body.items.map((d: { id: string }) => d.id)).to.have.members(mine.map((d) => d.id));

      // Sent to the buyer on this instance: its inbox, sorted and filtered.
      for (const doc of mine) await send(s.key, doc.id);
      const numbers = mine.map((d) => d.invoice_id);
      const asc = await t.http
        .get(`/api/inbox/?customer_peppol_id=${BUYER_ID}&sort_by=invoice_id&sort_order=asc&search=PAR-`)
        .set(bearer(buyer.key));
      expect(asc.status).to.equal(200);
      const ascIds = asc.body.items
        .map((d: { invoice_id: string }) => d.invoice_id)
        .filter((n: string) => numbers.includes(n));
      expect(ascIds).to.deep.equal([...numbers].sort());
      const desc = await t.http
        .get(`/api/inbox/?customer_peppol_id=${BUYER_ID}&sort_by=invoice_id&sort_order=desc&search=PAR-`)
        .set(bearer(buyer.key));
      const descIds = desc.body.items
        .map((d: { invoice_id: string }) => d.invoice_id)
        .filter((n: string) => numbers.includes(n));
      expect(descIds).to.deep.equal([...numbers].sort().reverse());
      const none = await t.http.get('/api/inbox/?customer_peppol_id=0208:0202239951').set(bearer(buyer.key));
      expect(none.body.total).to.equal(0);
      const badSort = await t.http.get('/api/inbox/?sort_by=colour').set(bearer(buyer.key));
      expect(badSort.status).to.equal(422);
      expect(badSort.body.detail[0].loc).to.deep.equal(['query', 'sort_by']);
    });
  });
});
