import { expect } from 'chai';
import {
  bearer,
  createOrganization,
  createTenant,
  publicClient,
  eventually,
  startTestService,
  waitForState,
  type TestService,
} from '../support/service.js';
import { startWebhookReceiver, type ReceivedCall, type WebhookReceiver } from '../support/webhookReceiver.js';
import { realisticDocuments } from '../domain/document/fixtures/realisticDocuments.js';
import { verifyWebhook } from '../../src/application/webhooks/webhookSignature.js';
import { WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_DELAYS_MINUTES } from '../../src/domain/webhook/webhookDelivery.js';
import { HttpWebhookClient, type ResolveHost } from '../../src/infrastructure/webhooks/httpWebhookClient.js';

const invoice = () => structuredClone(realisticDocuments()[0]!.body) as Record<string, unknown>;
/** The fixture's seller (BE0403013026), whose documents a tenant sends as its own id. */
const SELLER_ID = '0208:0403013026';
const UNIT_MS = 5;
const TIMEOUT_MS = 400;

const verified = (call: ReceivedCall, secret: string) =>
  verifyWebhook(
    secret,
    {
      id: String(call.headers['webhook-id']),
      timestamp: String(call.headers['webhook-timestamp']),
      signature: String(call.headers['webhook-signature']),
    },
    call.body,
  );

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

  /** A tenant in test mode, holding the fixture seller's id: its documents go DRAFT → TRANSIT → SENT by (.eml) mail. */
  const testModeTenant = async () => {
    const tenant = await createTenant(t, adminKey, undefined, { peppol_ids: [SELLER_ID] });
    const res = await t.http
      .put(`/api/operator/tenants/${tenant.id}/test-mode`)
      .set(bearer(t.operatorKey))
      .send({ test_mode: true, email: 'qa@tenant.test' });
    expect(res.status).to.equal(200);
    return tenant;
  };
  const subscribe = async (key: string, path: string, events: string[] = ['*']) => {
    const res = await t.http
      .post('/api/webhooks/')
      .set(bearer(key))
      .send({ url: receiver.url(path), events });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body as { id: string; secret: string };
  };
  let sequence = 0;
  const createAndSend = async (key: string) => {
    // A number is sent to a receiver once: each document its own.
    const doc = (
      await t.http
        .post('/api/documents/')
        .set(bearer(key))
        .send({ ...invoice(), invoice_id: `WH-${++sequence}` })
    ).body;
    expect((await t.http.post(`/api/documents/${doc.id}/send`).set(bearer(key))).status).to.equal(200);
    return doc.id as string;
  };
  const callsTo = (path: string) => receiver.calls.filter((c) => c.path === path);

  it('manages subscriptions in the client shape; another tenant cannot see them', async () => {
    const tenant = await createTenant(t, adminKey);
    const other = await createTenant(t, adminKey);
    const created = await t.http
      .post('/api/webhooks/')
      .set(bearer(tenant.key))
      .send({ url: receiver.url('/crud'), events: ['document.sent'] });
    expect(created.status).to.equal(201);
    expect(created.body).to.include({ url: receiver.url('/crud'), enabled: true });
    expect(created.body.events).to.deep.equal(['document.sent']);
    expect(created.body.secret).to.match(/^whsec_[A-Za-z0-9+/]{43}=$/);

    const list = await t.http.get('/api/webhooks/').set(bearer(tenant.key));
    expect(list.body.map((w: { id: string }) => w.id)).to.deep.equal([created.body.id]);
    expect((await t.http.get('/api/webhooks/').set(bearer(other.key))).body).to.deep.equal([]);
    expect((await t.http.get(`/api/webhooks/${created.body.id}`).set(bearer(other.key))).status).to.equal(404);
    expect((await t.http.delete(`/api/webhooks/${created.body.id}`).set(bearer(other.key))).status).to.equal(404);

    const updated = await t.http
      .put(`/api/webhooks/${created.body.id}`)
      .set(bearer(tenant.key))
      .send({ events: ['document.sent', 'document.failed'], enabled: false, url: null });
    expect(updated.status).to.equal(200);
    expect(updated.body).to.include({ enabled: false, url: receiver.url('/crud'), secret: created.body.secret });
    expect(updated.body.events).to.deep.equal(['document.sent', 'document.failed']);

    const badEvent = await t.http
      .post('/api/webhooks/')
      .set(bearer(tenant.key))
      .send({ url: receiver.url('/x'), events: ['document.sent', 'invoice.paid'] });
    expect(badEvent.status).to.equal(422);
    expect(badEvent.body.detail[0].loc).to.deep.equal(['body', 'events', 1]);
    for (const url of ['not a url', 'ftp://example.com/hook', 'https://user:pw@example.com/hook']) {
      const bad = await t.http
        .post('/api/webhooks/')
        .set(bearer(tenant.key))
        .send({ url, events: ['*'] });
      expect(bad.status, url).to.equal(422);
      expect(bad.body.detail[0].loc).to.deep.equal(['body', 'url']);
    }
    expect(
      (
        await t.http
          .post('/api/webhooks/')
          .set(bearer(tenant.key))
          .send({ url: receiver.url('/x') })
      ).status,
    ).to.equal(422);

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
    expect(mine.map((c) => JSON.parse(c.body).type)).to.deep.equal([
      'document.created',
      'document.transit',
      'document.sent',
    ]);
    expect(mine.map((c) => JSON.parse(c.body).data.state)).to.deep.equal(['DRAFT', 'TRANSIT', 'SENT']);
    for (const call of calls) {
      expect(call.headers['content-type']).to.equal('application/json');
      expect(call.headers['webhook-event']).to.equal(JSON.parse(call.body).type);
      expect(call.headers['webhook-id']).to.equal(JSON.parse(call.body).id);
      expect(verified(call, hook.secret), 'signature').to.equal(true);
      // Tampering with the body, another secret, or a replay outside the window fails verification.
      expect(verified({ ...call, body: call.body.replace('"state":', '"state" :') }, hook.secret)).to.equal(false);
      expect(
        verifyWebhook(
          'whsec_' + Buffer.alloc(32).toString('base64'),
          {
            id: String(call.headers['webhook-id']),
            timestamp: String(call.headers['webhook-timestamp']),
            signature: String(call.headers['webhook-signature']),
          },
          call.body,
        ),
      ).to.equal(false);
      expect(
        verifyWebhook(
          hook.secret,
          {
            id: String(call.headers['webhook-id']),
            timestamp: String(call.headers['webhook-timestamp']),
            signature: String(call.headers['webhook-signature']),
          },
          call.body,
          Number(call.headers['webhook-timestamp']) + 3600,
        ),
      ).to.equal(false);
    }
    expect(new Set(mine.map((c) => c.headers['webhook-id'])).size).to.equal(3);
    const sentBody = JSON.parse(mine[2]!.body);
    expect(sentBody).to.include({ type: 'document.sent', tenant_id: tenant.id });
    expect(sentBody.data).to.include({ document_id: docId, state: 'SENT', direction: 'OUTBOUND' });

    const history = await t.http.get(`/api/webhooks/${hook.id}/deliveries`).set(bearer(tenant.key));
    expect(history.status).to.equal(200);
    const forDoc = history.body.items.filter((d: { document_id: string }) => d.document_id === docId);
    expect(forDoc.map((d: { event_type: string }) => d.event_type).sort()).to.deep.equal([
      'document.created',
      'document.sent',
      'document.transit',
    ]);
    for (const d of forDoc) {
      expect(d.status).to.equal('delivered');
      expect(d.attempts).to.have.length(1);
      expect(d.attempts[0]).to.include({
        attempt: 1,
        outcome: 'delivered',
        status_code: 200,
        url: receiver.url('/all'),
      });
    }
  });

  it("sends only the kinds subscribed to, and nothing to disabled or other tenants' subscriptions", async () => {
    const tenant = await testModeTenant();
    const other = await testModeTenant();
    await subscribe(tenant.key, '/sent-only', ['document.sent']);
    const disabled = await subscribe(tenant.key, '/disabled');
    expect(
      (await t.http.put(`/api/webhooks/${disabled.id}`).set(bearer(tenant.key)).send({ enabled: false })).status,
    ).to.equal(200);
    await subscribe(other.key, '/other');
    const docId = await createAndSend(tenant.key);
    await waitForState(t, tenant.key, docId, ['SENT']);
    await eventually(
      async () => callsTo('/sent-only').some((c) => JSON.parse(c.body).data.document_id === docId),
      'the sent notification',
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(
      callsTo('/sent-only')
        .filter((c) => JSON.parse(c.body).data.document_id === docId)
        .map((c) => JSON.parse(c.body).type),
    ).to.deep.equal(['document.sent']);
    expect(callsTo('/disabled')).to.have.length(0);
    expect(callsTo('/other')).to.have.length(0);
  });

  it('retries a failing subscriber on the back-off schedule, records every call, and gives up; sending is not held up', async () => {
    const tenant = await testModeTenant();
    receiver.answer('/down', 503);
    const hook = await subscribe(tenant.key, '/down', ['document.sent']);
    const docId = await createAndSend(tenant.key);
    await waitForState(t, tenant.key, docId, ['SENT']);
    const delivery = await eventually(
      async () => {
        const res = await t.http.get(`/api/webhooks/${hook.id}/deliveries`).set(bearer(tenant.key));
        const d = res.body.items[0];
        return d?.status === 'failed' && d;
      },
      'the delivery to give up',
      30_000,
    );
    expect(delivery.attempts).to.have.length(WEBHOOK_MAX_ATTEMPTS);
    delivery.attempts.forEach(
      (
        a: {
          attempt: number;
          status_code: number;
          error: string;
          outcome: string;
          next_attempt_at: string | null;
          started_at: string;
          duration_ms: number;
        },
        i: number,
      ) => {
        expect(a).to.include({ attempt: i + 1, outcome: 'failed', status_code: 503, error: 'HTTP 503' });
        if (i < WEBHOOK_MAX_ATTEMPTS - 1) {
          const planned = new Date(a.next_attempt_at!).getTime() - new Date(a.started_at).getTime() - a.duration_ms;
          expect(planned).to.equal(WEBHOOK_RETRY_DELAYS_MINUTES[i]! * UNIT_MS);
        } else expect(a.next_attempt_at).to.equal(null);
      },
    );
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
      return res.body.items
        .flatMap((d: { attempts: unknown[] }) => d.attempts)
        .find((a: { error: string | null }) => a.error !== null);
    }, 'a timed-out call');
    expect(attempt).to.include({ outcome: 'failed', status_code: null, error: `No answer within ${TIMEOUT_MS} ms` });
  });

  it('refuses loopback and private-network targets unless the deployment allows them', async () => {
    const client = new HttpWebhookClient(false);
    for (const url of [
      receiver.url('/x'),
      'http://localhost:9/x',
      'http://[::1]:9/x',
      'http://10.1.2.3/x',
      'http://169.254.169.254/latest/meta-data',
      // other spellings of loopback: IPv4-mapped IPv6, a decimal integer, NAT64 and 6to4 forms
      'http://[::ffff:127.0.0.1]:9/x',
      'http://2130706433:9/x',
      'http://[64:ff9b::7f00:1]:9/x',
      'http://[2002:7f00:1::1]:9/x',
      'http://[fd00::1]/x',
    ]) {
      let error: Error | null = null;
      await client.post(url, {}, '{}', 1000).catch((e: Error) => (error = e));
      expect(error, url).to.be.instanceOf(Error);
      expect(error!.message).to.match(/^Refused: /);
    }
    expect(callsTo('/x')).to.have.length(0);
    expect(
      await new HttpWebhookClient(true).post(receiver.url('/x'), { 'content-type': 'application/json' }, '{}', 1000),
    ).to.equal(200);
  });

  describe('the address check is made on the addresses connected to (DNS rebinding)', () => {
    const port = () => Number(new URL(receiver.url('/')).port);
    const answering =
      (...addresses: string[]): ResolveHost =>
      async () =>
        addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    const failure = (promise: Promise<unknown>) =>
      promise.then(
        () => {
          throw new Error('the call should fail');
        },
        (error: Error) => error,
      );

    it('resolves a name once per call, when connecting: a name that answers a public address, then loopback, never reaches loopback', async () => {
      let answers = 0;
      const rebinding: ResolveHost = async () =>
        ++answers === 1 ? [{ address: '192.0.2.10', family: 4 }] : [{ address: '127.0.0.1', family: 4 }];
      const client = new HttpWebhookClient(false, rebinding);
      const url = `http://rebind.example:${port()}/rebind`;
      // The first answer is public (TEST-NET-1): that is where the call goes, and nobody answers there.
      const first = await failure(client.post(url, {}, '{}', 500));
      expect(first.message).to.match(/^(Request failed|No answer within)/);
      // The second is loopback: refused before any connection.
      const second = await failure(client.post(url, {}, '{}', 500));
      expect(second.message).to.equal('Refused: rebind.example resolves to a private-network address (127.0.0.1)');
      expect(answers).to.equal(2);
      expect(callsTo('/rebind')).to.have.length(0);
    });

    it('refuses every internal address a name may resolve to, also among public ones and in IPv6 forms', async () => {
      const internal = [
        '127.0.0.1',
        '10.0.0.7',
        '172.20.1.1',
        '192.168.1.1',
        '169.254.169.254',
        '100.64.0.1',
        '0.0.0.0',
        '::1',
        '::',
        '::ffff:127.0.0.1',
        '::ffff:a9fe:a9fe',
        'fd12:3456::1',
        'fe80::1',
        '64:ff9b::a00:1',
        '2002:c0a8:101::1',
      ];
      for (const address of internal) {
        const error = await failure(
          new HttpWebhookClient(false, answering('93.184.215.14', address)).post(
            `http://mixed.example:${port()}/mixed`,
            {},
            '{}',
            500,
          ),
        );
        expect(error.message, address).to.equal(
          `Refused: mixed.example resolves to a private-network address (${address})`,
        );
      }
      expect(callsTo('/mixed')).to.have.length(0);
    });

    it('connects to the address the lookup answered when private networks are allowed', async () => {
      const status = await new HttpWebhookClient(true, answering('127.0.0.1')).post(
        `http://hooks.example:${port()}/named`,
        { 'content-type': 'application/json' },
        '{"a":1}',
        1000,
      );
      expect(status).to.equal(200);
      const [call] = callsTo('/named');
      expect(call!.headers.host).to.equal(`hooks.example:${port()}`);
      expect(call!.body).to.equal('{"a":1}');
    });

    it('does not follow redirects: a redirect is recorded as an answer, and its target is not called', async () => {
      receiver.answer('/moved', 307);
      expect(await new HttpWebhookClient(true).post(receiver.url('/moved'), {}, '{}', 1000)).to.equal(307);
      expect(callsTo('/moved')).to.have.length(1);
    });

    it('records a refused call as a failed webhook delivery with the reason (the service, not a 500)', async () => {
      const guarded = await startTestService({ webhookAllowPrivateNetworks: false }, undefined, {
        deliveryRetryUnitMs: UNIT_MS,
        webhookTimeoutMs: TIMEOUT_MS,
        webhookResolveHost: async (hostname) =>
          hostname === 'hooks.rebind.test' ? [{ address: '127.0.0.1', family: 4 }] : [],
      });
      try {
        const org = await createOrganization(guarded);
        const tenant = await createTenant(guarded, org.adminKey);
        expect(
          (
            await guarded.http
              .put(`/api/operator/tenants/${tenant.id}/test-mode`)
              .set(bearer(guarded.operatorKey))
              .send({ test_mode: true, email: 'qa@tenant.test' })
          ).status,
        ).to.equal(200);
        // A literal private address is refused when subscribing; a name can only be judged when called.
        const literal = await guarded.http
          .post('/api/webhooks/')
          .set(bearer(tenant.key))
          .send({ url: receiver.url('/literal'), events: ['*'] });
        expect(literal.status).to.equal(422);
        const created = await guarded.http
          .post('/api/webhooks/')
          .set(bearer(tenant.key))
          .send({ url: `http://hooks.rebind.test:${port()}/guarded`, events: ['document.created'] });
        expect(created.status, JSON.stringify(created.body)).to.equal(201);

        const doc = await guarded.http.post('/api/documents/').set(bearer(tenant.key)).send(invoice());
        expect(doc.status).to.equal(200);
        const delivery = await eventually(async () => {
          const res = await guarded.http.get(`/api/webhooks/${created.body.id}/deliveries`).set(bearer(tenant.key));
          expect(res.status).to.equal(200);
          return res.body.items[0]?.attempts.length > 0 && res.body.items[0];
        }, 'the refused call to be recorded');
        expect(delivery).to.include({ document_id: doc.body.id, event_type: 'document.created' });
        expect(delivery.attempts[0]).to.include({
          attempt: 1,
          outcome: 'failed',
          status_code: null,
          error: 'Refused: hooks.rebind.test resolves to a private-network address (127.0.0.1)',
        });
        expect(callsTo('/guarded')).to.have.length(0);
      } finally {
        await guarded.stop();
      }
    });
  });
});
