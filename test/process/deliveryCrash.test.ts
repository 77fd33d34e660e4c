import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { api, startServiceProcess, until, type ServiceProcess } from '../support/serviceProcess.js';
import { freePort } from '../support/postgres.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver.js';
import { realisticDocuments } from '../domain/document/fixtures/realisticDocuments.js';

const BUYER_ID = '0208:0451234595';
const invoice = (n: number) => ({
  ...(structuredClone(realisticDocuments()[0]!.body) as Record<string, unknown>),
  invoice_id: `CRASH-${n}`,
});

/**
 * The real `npm start` process killed with SIGKILL while it delivers documents and calls
 * webhooks, then started again on the same data: jobs resume, every document ends SENT, the
 * receiver has each exactly once, and every notification arrives (at least once, same id).
 */
describe('Crash safety of sending and webhook dispatch (SIGKILL)', function () {
  this.timeout(300_000);
  let dataDir: string;
  let port: number;
  let pgPort: number;
  let receiver: WebhookReceiver;
  const operatorKey = 'op_delivery_crash_key_0123456789ab';
  const start = (extra: Record<string, string> = {}) =>
    startServiceProcess(
      {
        DATA_DIR: dataDir,
        EMBEDDED_PG_PORT: String(pgPort),
        OPERATOR_KEY: operatorKey,
        // A crashed process's claimed jobs are taken over after this.
        JOB_LOCK_LIFETIME_MS: '2000',
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        ...extra,
      },
      port,
    );
  const stop = async (p: ServiceProcess) => {
    p.child.kill('SIGTERM');
    expect(await p.exited, p.output()).to.equal(0);
  };

  before(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'invoicing-delivery-crash-'));
    port = await freePort();
    pgPort = await freePort();
    receiver = await startWebhookReceiver();
  });
  after(async () => {
    await receiver?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('a crash between delivering and recording it: the job resumes, the receiver has the document once, the document ends SENT', async () => {
    const first = await start({ FAILPOINTS: 'delivery:after-transport' });
    const org = await api(first.baseUrl, 'POST', '/api/operator/organizations', operatorKey, {
      name: 'Crash reseller',
    });
    const adminKey: string = org.body.admin_key.key;
    const tenant = async (body: Record<string, unknown>) => {
      const created = await api(first.baseUrl, 'POST', '/api/admin/tenants', adminKey, body);
      const key = await api(first.baseUrl, 'POST', `/api/admin/tenants/${created.body.id}/api-keys`, adminKey, {
        name: 'app',
      });
      return { id: created.body.id as string, key: key.body.key as string };
    };
    const seller = await tenant({ name: 'crash-seller', peppol_ids: ['0208:0403013026'] });
    const buyer = await tenant({ name: 'crash-buyer', peppol_ids: [BUYER_ID] });
    const registered = await api(first.baseUrl, 'POST', `/api/admin/tenants/${buyer.id}/peppol/register`, adminKey, {
      peppol_id: BUYER_ID,
      company_name: 'Brouwerij De Zwaan NV',
    });
    expect(registered.status, JSON.stringify(registered.body)).to.equal(200);
    const doc = await api(first.baseUrl, 'POST', '/api/documents/', seller.key, invoice(0));
    expect(doc.status).to.equal(200);
    const sent = await api(first.baseUrl, 'POST', `/api/documents/${doc.body.id}/send`, seller.key);
    expect(sent.body.state).to.equal('TRANSIT');
    // The process kills itself right after the receiver's inbox got the document.
    expect(await first.exited).to.equal(null);

    let second = await start();
    try {
      await until(
        async () =>
          (await api(second.baseUrl, 'GET', `/api/documents/${doc.body.id}`, seller.key)).body.state === 'SENT',
        'SENT after restart',
      );
      const inbox = await api(second.baseUrl, 'GET', '/api/inbox/?search=CRASH-0', buyer.key);
      expect(inbox.body.total, 'the receiver has it exactly once').to.equal(1);
      const report = (await api(second.baseUrl, 'GET', `/api/documents/${doc.body.id}/transmission-report`, seller.key))
        .body;
      expect(report.deliveries).to.have.length(1);
      expect(report.deliveries[0].attempts.map((a: { outcome: string }) => a.outcome)).to.deep.equal(['delivered']);
      const received = (
        await api(second.baseUrl, 'GET', `/api/documents/${inbox.body.items[0].id}/transmission-report`, buyer.key)
      ).body.received;
      expect(received.message_id).to.equal(report.deliveries[0].message_id);
      // Received before the crash: the resumed attempt delivered again, and the receiver's copy
      // (its stream named after the message id) took the repeat as the same message.
      expect(new Date(received.received_at).getTime()).to.be.lessThan(
        new Date(report.deliveries[0].attempts[0].started_at).getTime() + report.deliveries[0].attempts[0].duration_ms,
      );

      // A burst of sends, killed at an arbitrary moment, then resumed.
      const ids: string[] = [];
      for (let n = 1; n <= 20; n++)
        ids.push((await api(second.baseUrl, 'POST', '/api/documents/', seller.key, invoice(n))).body.id);
      await Promise.all(ids.map((id) => api(second.baseUrl, 'POST', `/api/documents/${id}/send`, seller.key)));
      await new Promise((r) => setTimeout(r, 30));
      second.child.kill('SIGKILL');
      await second.exited;
      second = await start();
      await until(async () => {
        const states = await Promise.all(
          ids.map(async (id) => (await api(second.baseUrl, 'GET', `/api/documents/${id}`, seller.key)).body.state),
        );
        return states.every((s) => s === 'SENT');
      }, 'all 20 SENT');
      const all = await api(second.baseUrl, 'GET', '/api/inbox/?search=CRASH-&page_size=100', buyer.key);
      const numbers = all.body.items.map((d: { invoice_id: string }) => d.invoice_id).sort();
      expect(numbers).to.deep.equal(Array.from({ length: 21 }, (_, n) => `CRASH-${n}`).sort());
    } finally {
      await stop(second);
    }
  });

  it('a crash right after a send is accepted, before its first attempt: recovery hands the abandoned delivery to a job, and it ends SENT', async () => {
    const first = await start({ FAILPOINTS: 'send:after-request' });
    const org = await api(first.baseUrl, 'POST', '/api/operator/organizations', operatorKey, {
      name: 'Send crash reseller',
    });
    const adminKey: string = org.body.admin_key.key;
    // Sends the fixture seller's invoices: it holds the seller's id.
    const created = await api(first.baseUrl, 'POST', '/api/admin/tenants', adminKey, {
      name: 'crash-send',
      peppol_ids: ['0208:0403013026'],
    });
    const key = (
      await api(first.baseUrl, 'POST', `/api/admin/tenants/${created.body.id}/api-keys`, adminKey, { name: 'app' })
    ).body.key as string;
    await api(first.baseUrl, 'PUT', `/api/operator/tenants/${created.body.id}/test-mode`, operatorKey, {
      test_mode: true,
      email: 'qa@crash.test',
    });
    const doc = await api(first.baseUrl, 'POST', '/api/documents/', key, invoice(200));
    // SendRequested is recorded, then the process dies before answering or attempting anything.
    const answered = await api(first.baseUrl, 'POST', `/api/documents/${doc.body.id}/send`, key).then(
      () => true,
      () => false,
    );
    expect(answered).to.equal(false);
    expect(await first.exited).to.equal(null);

    const second = await start();
    try {
      const state = await until(async () => {
        const current = (await api(second.baseUrl, 'GET', `/api/documents/${doc.body.id}`, key)).body.state as string;
        return current !== 'TRANSIT' && current;
      }, 'the abandoned delivery to end');
      expect(state).to.equal('SENT');
      const report = (await api(second.baseUrl, 'GET', `/api/documents/${doc.body.id}/transmission-report`, key)).body;
      expect(report.deliveries).to.have.length(1);
      expect(
        report.deliveries[0].attempts.map((a: { attempt: number; outcome: string }) => [a.attempt, a.outcome]),
      ).to.deep.equal([[1, 'delivered']]);
      // Not before the delivery counted as abandoned (JOB_LOCK_LIFETIME_MS after it was requested).
      const waited =
        new Date(report.deliveries[0].attempts[0].started_at).getTime() -
        new Date(report.deliveries[0].requested_at).getTime();
      expect(waited).to.be.at.least(2000);
    } finally {
      await stop(second);
    }
  });

  it('a crash between calling a subscriber and recording it: the call is made again with the same webhook-id, and every notification arrives', async () => {
    const first = await start({ FAILPOINTS: 'webhook:after-call' });
    const org = await api(first.baseUrl, 'POST', '/api/operator/organizations', operatorKey, {
      name: 'Webhook crash reseller',
    });
    const adminKey: string = org.body.admin_key.key;
    // Sends the fixture seller's invoices: it holds the seller's id.
    const created = await api(first.baseUrl, 'POST', '/api/admin/tenants', adminKey, {
      name: 'crash-webhooks',
      peppol_ids: ['0208:0403013026'],
    });
    const key = (
      await api(first.baseUrl, 'POST', `/api/admin/tenants/${created.body.id}/api-keys`, adminKey, { name: 'app' })
    ).body.key as string;
    await api(first.baseUrl, 'PUT', `/api/operator/tenants/${created.body.id}/test-mode`, operatorKey, {
      test_mode: true,
      email: 'qa@crash.test',
    });
    const hook = await api(first.baseUrl, 'POST', '/api/webhooks/', key, {
      url: receiver.url('/crash'),
      events: ['*'],
    });
    expect(hook.status).to.equal(201);
    const doc = await api(first.baseUrl, 'POST', '/api/documents/', key, invoice(100));
    // The first notification (document.created) reaches the subscriber, then the process dies.
    expect(await first.exited).to.equal(null);
    expect(receiver.calls.filter((c) => c.path === '/crash').map((c) => JSON.parse(c.body).type)).to.deep.equal([
      'document.created',
    ]);

    const second = await start();
    try {
      await api(second.baseUrl, 'POST', `/api/documents/${doc.body.id}/send`, key);
      const calls = await until(async () => {
        const mine = receiver.calls.filter((c) => c.path === '/crash');
        const kinds = mine.map((c) => JSON.parse(c.body).type as string);
        // The interrupted call is made again once its job's lock lapses, which may come after the
        // later notifications: wait for it as well.
        const createdTwice = kinds.filter((k) => k === 'document.created').length >= 2;
        return createdTwice && kinds.includes('document.transit') && kinds.includes('document.sent') && mine;
      }, 'all notifications');
      const created1 = calls.filter((c) => JSON.parse(c.body).type === 'document.created');
      expect(created1.length, 'the interrupted call is made again').to.equal(2);
      expect(created1[0]!.headers['webhook-id']).to.equal(created1[1]!.headers['webhook-id']);
      const history = await until(async () => {
        const h = (await api(second.baseUrl, 'GET', `/api/webhooks/${hook.body.id}/deliveries`, key)).body;
        return h.items.length === 3 && h.items.every((d: { status: string }) => d.status === 'delivered') && h;
      }, 'three delivered notifications in the history');
      expect(history.items.map((d: { event_type: string }) => d.event_type).sort()).to.deep.equal([
        'document.created',
        'document.sent',
        'document.transit',
      ]);
    } finally {
      await stop(second);
    }
  });
});
