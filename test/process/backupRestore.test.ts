import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { api, MAIN, startServiceProcess, until, type ServiceProcess } from '../support/serviceProcess.js';
import { freePort } from '../support/postgres.js';
import { startSmtpServer, type TestSmtp } from '../support/smtp.js';
import { makeTestPki, type TestPki } from '../support/testPki.js';
import { buildAs4, invoiceSbdh, signingKeyOf } from '../support/as4Sender.js';
import { realisticDocuments } from '../domain/document/fixtures/realisticDocuments.js';
import type { BackupManifest } from '../../src/infrastructure/backup/backupManifest.js';

const SCRIPTS = path.resolve(path.dirname(MAIN), '../scripts');
const BUYER_ID = '0208:0451234595';
const SELLER_ID = '0208:0403013026';
const invoice = (number: string) => ({
  ...(structuredClone(realisticDocuments()[0]!.body) as Record<string, unknown>),
  invoice_id: number,
});

/** Runs one of the operational scripts as an operator would, with the instance's settings. */
function script(
  name: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(SCRIPTS, `${name}.js`), ...args], {
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

/** A rendering's bytes with the moment it was made left out (PDFs rendered on request carry it). */
const withoutRenderTime = (pdf: Buffer) =>
  pdf
    .toString('latin1')
    .replace(/D:\d{14}Z/g, 'D:')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/g, '')
    .replace(/\/ID \[<[0-9a-f]+>\s*<[0-9a-f]+>\]/g, '/ID []');

/**
 * `npm run backup` taken from a running instance while documents are being created, restored
 * into a new data folder with `npm run restore`, and a new instance started on it: it answers as
 * the first did for everything the backup holds (documents, UBL and PDF bytes, histories,
 * timelines, transmission reports, AS4 evidence, the Peppol reports as of the snapshot, keys and
 * the generated operator key), and the delivery that was waiting for a retry is made.
 */
describe('Backup under load and restore into a new instance (real processes)', function () {
  this.timeout(420_000);
  let pki: TestPki;
  let sourceMail: TestSmtp;
  let targetMail: TestSmtp;
  const dirs: string[] = [];
  const running: ServiceProcess[] = [];
  const tempDir = async (name: string) => {
    const dir = await mkdtemp(path.join(os.tmpdir(), `invoicing-${name}-`));
    // The embedded server runs as the user postgres when the tests run as root: it must reach its folder.
    await chmod(dir, 0o755);
    dirs.push(dir);
    return dir;
  };

  before(async () => {
    pki = await makeTestPki({ instances: 2 });
    // The source's mail server holds one address back (451): its delivery waits for retries.
    sourceMail = await startSmtpServer((recipient) => recipient.startsWith('hold@'));
    targetMail = await startSmtpServer();
  });
  after(async () => {
    for (const p of running) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    await Promise.all(running.map((p) => p.exited));
    await sourceMail?.stop();
    await targetMail?.stop();
    await pki?.dispose();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('the restored instance answers the same for all the backup holds, and the waiting delivery is made', async () => {
    const common = {
      AS4_KEY_FILE: pki.instance(1).keyFile,
      AS4_CERTIFICATE_FILE: pki.instance(1).certificateFile,
      PEPPOL_AP_CA_FILES: pki.apCaCertificateFile,
      RATE_LIMIT_STANDARD_PER_MINUTE: '0',
      RATE_LIMIT_ADMIN_PER_MINUTE: '0',
      RATE_LIMIT_ADMIN_PER_HOUR: '0',
      DELIVERY_RETRY_UNIT_MS: '300',
      JOB_LOCK_LIFETIME_MS: '5000',
      WORK_PROCESSES: '1',
    };
    // Blobs as files in the source, in PostgreSQL in the restored instance: restore puts them
    // into whichever store is configured.
    const sourceEnv = {
      ...common,
      DATA_DIR: await tempDir('backup-source'),
      EMBEDDED_PG_PORT: String(await freePort()),
      BLOB_STORE: 'fs',
      SMTP_URL: sourceMail.url,
    };
    const targetEnv = {
      ...common,
      DATA_DIR: path.join(await tempDir('backup-target'), 'data'),
      EMBEDDED_PG_PORT: String(await freePort()),
      SMTP_URL: targetMail.url,
    };
    const source = await startServiceProcess(sourceEnv, await freePort());
    running.push(source);
    // No OPERATOR_KEY: the key is generated, shown once, and only its hash kept in the data folder.
    const operatorKey = /Operator key generated[^\n]*\n\s+(op_\S+)/.exec(source.output())![1]!;
    const s = source.baseUrl;

    const org = await api(s, 'POST', '/api/operator/organizations', operatorKey, { name: 'Backup reseller' });
    const adminKey: string = org.body.admin_key.key;
    const tenant = async (body: Record<string, unknown>) => {
      const created = await api(s, 'POST', '/api/admin/tenants', adminKey, body);
      const key = await api(s, 'POST', `/api/admin/tenants/${created.body.id}/api-keys`, adminKey, { name: 'app' });
      return { id: created.body.id as string, key: key.body.key as string };
    };
    const seller = await tenant({ name: 'backup-seller', peppol_ids: [SELLER_ID] });
    const buyer = await tenant({ name: 'backup-buyer', peppol_ids: [BUYER_ID] });
    expect(
      (
        await api(s, 'PUT', `/api/operator/tenants/${seller.id}/test-mode`, operatorKey, {
          test_mode: true,
          email: 'qa@backup.test',
        })
      ).status,
    ).to.equal(200);
    const registered = await api(s, 'POST', `/api/admin/tenants/${buyer.id}/peppol/register`, adminKey, {
      peppol_id: BUYER_ID,
      company_name: 'Brouwerij De Zwaan NV',
    });
    expect(registered.status, JSON.stringify(registered.body)).to.equal(200);
    const post = async (route: string, body?: unknown, headers: Record<string, string> = {}) => {
      const res = await fetch(`${s}${route}`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${seller.key}`,
          ...(body === undefined
            ? {}
            : { 'Content-Type': typeof body === 'string' ? 'application/xml' : 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> & { id: string } };
    };

    // What the backup must hold: documents sent, one with its PDF made at creation, one created
    // from UBL, one waiting for a retry, one received over AS4, a key's first result.
    const sent = (await post('/api/documents/', invoice('BK-SENT'))).body;
    const withPdf = (await post('/api/documents/?construct_pdf=true', invoice('BK-PDF'))).body;
    const ublText = await (
      await fetch(`${s}/api/documents/${sent.id}/ubl?format=xml`, {
        headers: { Authorization: `Bearer ${seller.key}` },
      })
    ).text();
    const fromUbl = (await post('/api/documents/ubl', ublText.replaceAll('BK-SENT', 'BK-UBL'))).body;
    expect(fromUbl.id).to.be.a('string');
    const waiting = (await post('/api/documents/', invoice('BK-WAIT'))).body;
    const idempotent = await post('/api/documents/', invoice('BK-IDEM'), { 'Idempotency-Key': 'backup-key' });
    expect(idempotent.status).to.equal(200);
    for (const doc of [sent, withPdf]) expect((await post(`/api/documents/${doc.id}/send`)).status).to.equal(200);
    expect((await post(`/api/documents/${waiting.id}/send?email=hold@backup.test`)).status).to.equal(200);
    const built = await buildAs4({
      sbdh: invoiceSbdh(SELLER_ID, BUYER_ID),
      businessDocument: ublText.replaceAll('BK-SENT', 'BK-AS4'),
      from: { ...signingKeyOf(pki.instance(2)), seatId: pki.instance(2).seatId },
      toSeatId: pki.instance(1).seatId,
      receiverCertificate: new X509Certificate(readFileSync(pki.instance(1).certificateFile)),
    });
    const as4 = await fetch(`${s}/as4`, {
      method: 'POST',
      headers: { 'Content-Type': built.contentType },
      body: new Uint8Array(built.body),
    });
    expect(as4.status).to.equal(200);
    const received = await until(async () => {
      const inbox = await api(s, 'GET', '/api/inbox/?search=BK-AS4', buyer.key);
      return inbox.body.total === 1 && (inbox.body.items[0].id as string);
    }, 'the AS4 message in the inbox');
    for (const doc of [sent, withPdf])
      await until(
        async () => (await api(s, 'GET', `/api/documents/${doc.id}`, seller.key)).body.state === 'SENT',
        `${doc.id} SENT`,
      );
    await until(
      async () =>
        (await api(s, 'GET', `/api/documents/${waiting.id}/transmission-report`, seller.key)).body.deliveries[0]
          .attempts.length > 0,
      'a refused attempt',
    );

    // Documents keep being created while the backup runs.
    let loading = true;
    const created: string[] = [];
    const load = Promise.all(
      [0, 1].map(async (lane) => {
        for (let n = 0; loading; n++) {
          const res = await post('/api/documents/', invoice(`BK-LOAD-${lane}-${n}`));
          expect(res.status).to.equal(200);
          created.push(res.body.id);
        }
      }),
    );
    await until(async () => created.length >= 5, 'load under way');
    const createdBefore = created.length;
    const folder = path.join(await tempDir('backup'), 'backup');
    const backup = await script('backup', [folder], sourceEnv);
    expect(backup.code, backup.output).to.equal(0);
    const createdAfter = created.length;
    loading = false;
    await load;
    const manifest = JSON.parse(await readFile(path.join(folder, 'manifest.json'), 'utf8')) as BackupManifest;
    expect(manifest.blobs.count).to.be.greaterThan(0);
    expect(manifest.files.map((f) => f.path)).to.include('operator-key.sha256');

    const restore = await script('restore', [folder], targetEnv);
    expect(restore.code, restore.output).to.equal(0);
    const target = await startServiceProcess(targetEnv, await freePort());
    running.push(target);
    const t = target.baseUrl;

    const bytes = async (base: string, route: string, key: string) =>
      Buffer.from(
        await (await fetch(`${base}${route}`, { headers: { Authorization: `Bearer ${key}` } })).arrayBuffer(),
      );
    const same = async (route: string, key: string) =>
      expect((await api(t, 'GET', route, key)).body, route).to.deep.equal((await api(s, 'GET', route, key)).body);

    for (const id of [sent.id, withPdf.id, fromUbl.id]) {
      for (const part of ['', '/history', '/timeline', '/transmission-report'])
        await same(`/api/documents/${id}${part}`, seller.key);
      expect(
        (await bytes(t, `/api/documents/${id}/ubl`, seller.key)).equals(
          await bytes(s, `/api/documents/${id}/ubl`, seller.key),
        ),
        `UBL of ${id}`,
      ).to.equal(true);
    }
    // The PDF made at creation is stored: the same bytes; one rendered on request differs only in when.
    expect(
      (await bytes(t, `/api/documents/${withPdf.id}/pdf`, seller.key)).equals(
        await bytes(s, `/api/documents/${withPdf.id}/pdf`, seller.key),
      ),
    ).to.equal(true);
    expect(withoutRenderTime(await bytes(t, `/api/documents/${sent.id}/pdf`, seller.key))).to.equal(
      withoutRenderTime(await bytes(s, `/api/documents/${sent.id}/pdf`, seller.key)),
    );
    for (const part of ['', '/history', '/transmission-report'])
      await same(`/api/documents/${received}${part}`, buyer.key);
    for (const part of ['receipt', 'message'])
      expect(
        (await bytes(t, `/api/documents/${received}/evidence?part=${part}`, buyer.key)).equals(
          await bytes(s, `/api/documents/${received}/evidence?part=${part}`, buyer.key),
        ),
        `AS4 ${part}`,
      ).to.equal(true);
    const month = manifest.snapshot_at.slice(0, 7);
    const report = `/api/operator/reports/peppol?month=${month}&as_of=${encodeURIComponent(manifest.snapshot_at)}`;
    const reports = (await api(t, 'GET', report, operatorKey)).body;
    expect(reports.incoming, 'the AS4 exchange counts').to.be.greaterThan(0);
    expect(reports).to.deep.equal((await api(s, 'GET', report, operatorKey)).body);

    // The documents created while the backup ran: those of the snapshot, each as the source has it.
    const listed = (await api(t, 'GET', '/api/documents?limit=1000', seller.key)).body;
    const loaded = (listed.documents as Array<{ id: string; invoice_id: string }>).filter((d) =>
      d.invoice_id.startsWith('BK-LOAD-'),
    );
    expect(loaded.length).to.be.at.least(createdBefore).and.at.most(createdAfter);
    for (const doc of loaded) expect(created).to.include(doc.id);
    for (const doc of loaded.slice(0, 10)) await same(`/api/documents/${doc.id}`, seller.key);

    // A key's first result is still its result.
    const replay = await fetch(`${t}/api/documents/`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${seller.key}`,
        'Content-Type': 'application/json',
        'Idempotency-Key': 'backup-key',
      },
      body: JSON.stringify(invoice('BK-IDEM')),
    });
    expect(replay.headers.get('idempotent-replayed')).to.equal('true');
    expect(await replay.json()).to.deep.equal(idempotent.body);

    // The delivery that waited for a retry resumes, here, and is made (this mail server takes it).
    const resumed = await until(async () => {
      const r = (await api(t, 'GET', `/api/documents/${waiting.id}/transmission-report`, seller.key)).body;
      return r.state === 'SENT' && r;
    }, 'the waiting delivery made by the restored instance');
    const before = (await api(s, 'GET', `/api/documents/${waiting.id}/transmission-report`, seller.key)).body
      .deliveries[0].attempts;
    const attempts = resumed.deliveries[0].attempts as Array<{ outcome: string }>;
    expect(attempts.slice(0, -1)).to.deep.equal(before.slice(0, attempts.length - 1));
    expect(attempts[attempts.length - 1]!.outcome).to.equal('delivered');
    expect(targetMail.messages.map((m) => m.messageId)).to.include(`<${resumed.deliveries[0].message_id}>`);

    for (const p of [source, target]) {
      p.child.kill('SIGTERM');
      expect(await p.exited, p.output()).to.equal(0);
    }
  });
});
