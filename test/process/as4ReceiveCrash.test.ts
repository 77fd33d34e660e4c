import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { api, startServiceProcess, type ServiceProcess } from '../support/serviceProcess.js';
import { freePort } from '../support/postgres.js';
import { makeTestPki, type TestPki } from '../support/testPki.js';
import { buildAs4, invoiceSbdh, signingKeyOf } from '../support/as4Sender.js';
import { realisticDocuments } from '../domain/document/fixtures/realisticDocuments.js';
import { readSignalResponse } from '../../src/infrastructure/as4/as4Signals.js';

const BUYER_ID = '0208:0451234595';
const SELLER_ID = '0208:0403013026';

/**
 * The receiving process killed (SIGKILL) after it stored an AS4 message and before it answered the
 * receipt: the sender saw no answer and sends the same message again to the restarted process,
 * which answers the receipt it stored, and the receiver has the document once.
 */
describe('Crash safety of AS4 receiving (SIGKILL between storing and answering)', function () {
  this.timeout(300_000);
  let dataDir: string;
  let port: number;
  let pgPort: number;
  let pki: TestPki;
  const operatorKey = 'op_as4_receive_crash_0123456789abc';
  const start = (extra: Record<string, string> = {}) =>
    startServiceProcess(
      {
        DATA_DIR: dataDir,
        EMBEDDED_PG_PORT: String(pgPort),
        OPERATOR_KEY: operatorKey,
        AS4_KEY_FILE: pki.instance(1).keyFile,
        AS4_CERTIFICATE_FILE: pki.instance(1).certificateFile,
        PEPPOL_AP_CA_FILES: pki.apCaCertificateFile,
        ...extra,
      },
      port,
    );
  const stop = async (p: ServiceProcess) => {
    p.child.kill('SIGTERM');
    expect(await p.exited, p.output()).to.equal(0);
  };
  const postAs4 = async (baseUrl: string, message: { contentType: string; body: Buffer }) => {
    const res = await fetch(`${baseUrl}/as4`, {
      method: 'POST',
      headers: { 'Content-Type': message.contentType },
      body: new Uint8Array(message.body),
    });
    return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
  };

  before(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'invoicing-as4-crash-'));
    port = await freePort();
    pgPort = await freePort();
    pki = await makeTestPki({ instances: 2 });
  });
  after(async () => {
    await pki?.dispose();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("the sender's retry gets the receipt stored before the crash, and there is one copy", async () => {
    const first = await start({ FAILPOINTS: 'as4:after-store' });
    const org = await api(first.baseUrl, 'POST', '/api/operator/organizations', operatorKey, { name: 'AS4 crash' });
    const adminKey: string = org.body.admin_key.key;
    const tenant = async (body: Record<string, unknown>) => {
      const created = await api(first.baseUrl, 'POST', '/api/admin/tenants', adminKey, body);
      const key = await api(first.baseUrl, 'POST', `/api/admin/tenants/${created.body.id}/api-keys`, adminKey, {
        name: 'app',
      });
      return { id: created.body.id as string, key: key.body.key as string };
    };
    const buyer = await tenant({ name: 'as4-crash-buyer', peppol_ids: [BUYER_ID] });
    const registered = await api(first.baseUrl, 'POST', `/api/admin/tenants/${buyer.id}/peppol/register`, adminKey, {
      peppol_id: BUYER_ID,
      company_name: 'Brouwerij De Zwaan NV',
    });
    expect(registered.status, JSON.stringify(registered.body)).to.equal(200);
    const writer = await tenant({ name: 'as4-crash-writer' });
    const doc = await api(first.baseUrl, 'POST', '/api/documents/', writer.key, {
      ...(structuredClone(realisticDocuments()[0]!.body) as Record<string, unknown>),
      invoice_id: 'AS4-CRASH',
    });
    const ubl = await (
      await fetch(`${first.baseUrl}/api/documents/${doc.body.id}/ubl?format=xml`, {
        headers: { Authorization: `Bearer ${writer.key}` },
      })
    ).text();

    const ourCertificate = new X509Certificate(readFileSync(pki.instance(1).certificateFile));
    const built = await buildAs4({
      sbdh: invoiceSbdh(SELLER_ID, BUYER_ID),
      businessDocument: ubl,
      from: { ...signingKeyOf(pki.instance(2)), seatId: pki.instance(2).seatId },
      toSeatId: pki.instance(1).seatId,
      receiverCertificate: ourCertificate,
    });
    // The process stores the message, then kills itself before answering: the sender gets no answer.
    const lost = await postAs4(first.baseUrl, built).then(
      () => 'answered',
      () => 'no answer',
    );
    expect(lost).to.equal('no answer');
    expect(await first.exited).to.equal(null);

    const second = await start();
    try {
      const retry = await postAs4(second.baseUrl, built);
      expect(retry.status).to.equal(200);
      const outcome = readSignalResponse(retry.body, {
        messageId: built.messageId,
        references: built.references,
        receiver: ourCertificate,
      });
      expect(outcome.kind, JSON.stringify(outcome)).to.equal('receipt');
      expect((await postAs4(second.baseUrl, built)).body.equals(retry.body), 'the same receipt again').to.equal(true);
      const inbox = await api(second.baseUrl, 'GET', '/api/inbox/?search=AS4-CRASH', buyer.key);
      expect(inbox.body.total, 'the receiver has it exactly once').to.equal(1);
      const report = await api(
        second.baseUrl,
        'GET',
        `/api/documents/${inbox.body.items[0].id}/transmission-report`,
        buyer.key,
      );
      expect(report.body.received.message_id).to.equal(built.messageId);
    } finally {
      await stop(second);
    }
  });
});
