import { X509Certificate } from 'node:crypto';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import type { Response } from 'supertest';
import { bearer, startTestService, waitForState, type TestService } from '../support/service.js';
import { startSmtpServer, type TestSmtp } from '../support/smtp.js';
import { createPeppolTenant, registerPeppol } from '../support/peppol.js';
import { accessPointSettings, makeTestPki, type TestPki } from '../support/testPki.js';
import { buildAs4, invoiceSbdh, signingKeyOf } from '../support/as4Sender.js';
import { fileURLToPath } from 'node:url';
import { realisticDocuments } from '../domain/document/fixtures/realisticDocuments.js';
import { readZip, writeZip } from '../../src/application/evidence/zipArchive.js';
import { openSealedFiles, verifyBundle, type BundleVerification } from '../../src/application/evidence/verifyBundle.js';
import { PATHS, sha256Hex, sha256Sums, type Manifest } from '../../src/application/evidence/bundleContents.js';
import { checkAs4Evidence } from '../../src/infrastructure/as4/receiptEvidence.js';
import { transportEvidenceChecks as checks } from '../../src/infrastructure/evidenceChecks.js';
import { blobDigestsOf } from '../../src/application/history/canonicalEvent.js';
import { readEmailAttachments } from '../../src/infrastructure/mail/emailEvidence.js';
import { TRANSPORTS, type Transport } from '../../src/application/ports/transport.js';
import type { TransportKind } from '../../src/domain/document/lifecycle/documentAggregate.js';

const script = fileURLToPath(new URL('../../scripts/verify-evidence.js', import.meta.url));
const SELLER_ID = '0208:0403013026';
const BUYER_ID = '0208:0451234595';

const binary = (res: Response, callback: (error: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => callback(null, Buffer.concat(chunks)));
};

/** The bundle with one file changed; `consistent`: the manifest and SHA256SUMS rewritten to match, as a forger would. */
function tampered(zip: Buffer, file: string, change: (bytes: Buffer) => Buffer, consistent: boolean): Buffer {
  const files = new Map(readZip(zip));
  const changed = change(Buffer.from(files.get(file)!));
  expect(changed.equals(files.get(file)!), `${file} changed`).to.equal(false);
  files.set(file, changed);
  if (consistent) {
    const manifest = JSON.parse(files.get(PATHS.manifest)!.toString('utf8')) as Manifest;
    for (const f of manifest.files)
      if (f.path === file) Object.assign(f, { sha256: sha256Hex(changed), size: changed.length });
    files.set(PATHS.manifest, Buffer.from(JSON.stringify(manifest)));
    files.delete(PATHS.sums);
    files.set(PATHS.sums, Buffer.from(sha256Sums(files)));
  }
  return writeZip([...files.entries()].map(([name, bytes]) => ({ name, bytes })));
}

// The edits reach into the several JSON files of a bundle, each of its own shape.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const editJson = (edit: (value: any) => void) => (bytes: Buffer) => {
  const value = JSON.parse(bytes.toString('utf8'));
  edit(value);
  return Buffer.from(JSON.stringify(value, null, 2));
};
const replaceText = (from: RegExp, to: string) => (bytes: Buffer) =>
  Buffer.from(bytes.toString('latin1').replace(from, to), 'latin1');
const parts = (result: BundleVerification) => result.problems.map((p) => p.part);

/**
 * The evidence bundle of a document (GET /api/documents/{id}/evidence): a document sent to a tenant
 * of this instance and answered, one received over AS4 from another access point, one e-mailed in
 * test mode (and one e-mailed before the e-mail was kept); each bundle verifies offline, and
 * tampering with any part of it is named.
 */
describe('Evidence bundles: one ZIP per document, verified offline; each tampered part is named (real PostgreSQL, AS4, SMTP)', function () {
  this.timeout(180_000);
  let pki: TestPki;
  let smtp: TestSmtp;
  let t: TestService;
  let seller: { id: string; key: string };
  let buyer: { id: string; key: string };
  let sent: string;
  let overAs4: string;
  let mailer: { id: string; key: string };
  let emailed: string;
  let emailedBefore: string;
  let signingKeyId: string;
  const bundles = new Map<string, Buffer>();

  const evidence = async (key: string, id: string) => {
    const res = await t.http.get(`/api/documents/${id}/evidence`).set(bearer(key)).buffer(true).parse(binary);
    expect(res.status, String(res.body)).to.equal(200);
    expect(res.headers['content-type']).to.match(/^application\/zip/);
    return res.body as Buffer;
  };

  before(async () => {
    pki = await makeTestPki({ instances: 2 });
    smtp = await startSmtpServer();
    t = await startTestService({
      peppol: accessPointSettings(pki, 1, { smlDnsServer: '127.0.0.1:9', lookupTimeoutMs: 300 }),
      smtpUrl: smtp.url,
    });
    const organization = await t.http
      .post('/api/operator/organizations')
      .set(bearer(t.operatorKey))
      .send({ name: 'Evidence' });
    const adminKey = organization.body.admin_key.key as string;
    seller = await createPeppolTenant(t, adminKey, { name: 'evidence-seller', peppol_ids: [SELLER_ID] });
    buyer = await createPeppolTenant(t, adminKey, { name: 'evidence-buyer', peppol_ids: [BUYER_ID] });
    await registerPeppol(t, adminKey, buyer.id, { peppol_id: BUYER_ID, company_name: 'Brouwerij De Zwaan NV' });

    // Sent to a tenant of this instance, and accepted by it (an Invoice Response back).
    const body = { ...(structuredClone(realisticDocuments()[0]!.body) as object), customer_peppol_id: BUYER_ID };
    const created = await t.http.post('/api/documents').set(bearer(seller.key)).send(body);
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    sent = created.body.id;
    expect((await t.http.post(`/api/documents/${sent}/validate`).set(bearer(seller.key))).status).to.equal(200);
    expect((await t.http.post(`/api/documents/${sent}/send`).set(bearer(seller.key))).status).to.be.oneOf([200, 202]);
    await waitForState(t, seller.key, sent, ['SENT']);
    const inbox = await t.http.get(`/api/inbox/?search=${created.body.invoice_id}`).set(bearer(buyer.key));
    const received = inbox.body.items[0].id as string;
    expect((await t.http.post(`/api/inbox/${received}/accept`).set(bearer(buyer.key)).send({})).status).to.equal(200);
    for (let i = 0; i < 100; i++) {
      const doc = await t.http.get(`/api/documents/${sent}`).set(bearer(seller.key));
      if (doc.body.invoice_response) break;
      await new Promise((r) => setTimeout(r, 50));
    }

    // Received over AS4 from another access point.
    const ubl = (await t.http.get(`/api/documents/${sent}/ubl?format=xml`).set(bearer(seller.key))).text;
    const built = await buildAs4({
      sbdh: invoiceSbdh(SELLER_ID, BUYER_ID),
      businessDocument: ubl.replace(/<cbc:ID>[^<]*</, '<cbc:ID>EVIDENCE-AS4-1<'),
      from: { ...signingKeyOf(pki.instance(2)), seatId: pki.instance(2).seatId },
      toSeatId: pki.instance(1).seatId,
      receiverCertificate: new X509Certificate(readFileSync(pki.instance(1).certificateFile)),
    });
    const posted = await t.http.post('/as4').set('Content-Type', built.contentType).send(built.body);
    expect(posted.status).to.equal(200);
    overAs4 = (await t.http.get('/api/inbox?search=EVIDENCE-AS4-1').set(bearer(buyer.key))).body.items[0].id;

    // E-mailed in test mode over real SMTP: as the service does now (first refused by the recipient's
    // server, then delivered), and as it did before it kept the e-mail (the same transport, its
    // attempt recording no e-mail, as those events are).
    mailer = await createPeppolTenant(t, adminKey, { name: 'evidence-mailer', peppol_ids: [SELLER_ID] });
    const testMode = await t.http
      .put(`/api/operator/tenants/${mailer.id}/test-mode`)
      .set(bearer(t.operatorKey))
      .send({ test_mode: true, email: 'inbox@mailer.test' });
    expect(testMode.status, JSON.stringify(testMode.body)).to.equal(200);
    const mail = async (invoiceId: string, bounceFirst = false) => {
      const draft = await t.http
        .post('/api/documents')
        .set(bearer(mailer.key))
        .send({ ...(structuredClone(realisticDocuments()[0]!.body) as object), invoice_id: invoiceId });
      expect(draft.status, JSON.stringify(draft.body)).to.equal(200);
      if (bounceFirst) {
        const bounced = await t.http
          .post(`/api/documents/${draft.body.id}/send?email=nobody@bounce.test`)
          .set(bearer(mailer.key));
        expect(bounced.status, JSON.stringify(bounced.body)).to.equal(200);
        await waitForState(t, mailer.key, draft.body.id, ['FAILED']);
      }
      expect((await t.http.post(`/api/documents/${draft.body.id}/send`).set(bearer(mailer.key))).status).to.equal(200);
      await waitForState(t, mailer.key, draft.body.id, ['SENT']);
      return draft.body.id as string;
    };
    emailed = await mail('EVIDENCE-MAIL-1', true);
    const transports = t.service.container.resolve<Record<TransportKind, Transport>>(TRANSPORTS);
    const email = transports.email;
    transports.email = {
      kind: 'email',
      deliver: async (request) => {
        const { email: _kept, ...outcome } = await email.deliver(request);
        return outcome;
      },
    };
    try {
      emailedBefore = await mail('EVIDENCE-MAIL-0');
    } finally {
      transports.email = email;
    }

    signingKeyId = (await t.http.get('/api/operator/history/checkpoints').set(bearer(t.operatorKey))).body
      .signing_key_id;
    bundles.set('sent', await evidence(seller.key, sent));
    bundles.set('as4', await evidence(buyer.key, overAs4));
    bundles.set('email', await evidence(mailer.key, emailed));
    bundles.set('email-before', await evidence(mailer.key, emailedBefore));
  });
  after(async () => {
    await t?.stop();
    await smtp?.stop();
    await pki?.dispose();
  });

  it("a sent document's bundle holds its UBL as stored, the delivery record, the Invoice Response, its events linked to a checkpoint signed by the service's key, who did what", async () => {
    const zip = bundles.get('sent')!;
    const result = verifyBundle(zip, checks, new Set([signingKeyId]));
    expect(result.problems).to.deep.equal([]);
    expect(result.ok).to.equal(true);
    const files = readZip(zip);
    const manifest = JSON.parse(files.get(PATHS.manifest)!.toString('utf8')) as Manifest;
    expect(manifest).to.include({ document_id: sent, transport: 'internal', direction: 'OUTBOUND' });
    const ubl = (await t.http.get(`/api/documents/${sent}/ubl?format=xml`).set(bearer(seller.key))).text;
    expect(files.get(PATHS.ubl)!.toString('utf8')).to.equal(ubl);
    expect(manifest.files.map((f) => f.part)).to.include.members(['invoice_response', 'content', 'ubl_part', 'events']);
    // Every event of the history, with its chain position.
    const history = (await t.http.get(`/api/documents/${sent}/history`).set(bearer(seller.key))).body.events as Array<{
      id: string;
      position: string;
    }>;
    const events = files
      .get(PATHS.events)!
      .toString('utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events.map((e: { id: string; position: string }) => [e.id, e.position])).to.deep.equal(
      history.map((e) => [e.id, e.position]),
    );
    const actors = JSON.parse(files.get(PATHS.actors)!.toString('utf8')) as Array<{ type: string; actor: string }>;
    expect(actors.find((a) => a.type === 'DocumentCreated')!.actor).to.match(/^API key 'app' \(/);
    expect(actors.find((a) => a.type === 'DeliveryAttempted')!.actor).to.equal('delivery job');
    const record = JSON.parse(files.get(PATHS.delivery)!.toString('utf8'));
    expect(record.deliveries[0]).to.include({ transport: 'peppol', receiver_peppol_id: BUYER_ID });
    expect(record.deliveries[0].outcome.type).to.equal('DocumentSent');
    const report = JSON.parse(files.get(PATHS.validation)!.toString('utf8'));
    expect(report.rule_set).to.equal(report.recorded[report.recorded.length - 1].rule_set);
    // Each file's digest as sha256sum prints it.
    for (const line of files.get(PATHS.sums)!.toString('utf8').trim().split('\n')) {
      const [hash, name] = line.split('  ');
      expect(sha256Hex(files.get(name!)!), name).to.equal(hash);
    }
    // A key not trusted is named.
    expect([...new Set(parts(verifyBundle(zip, checks, new Set(['0'.repeat(64)]))))]).to.deep.equal(['checkpoint']);
  });

  it('a document received over AS4: the message as received and the signed receipt, whose signature and digests over the message hold; part=receipt and part=message still answer them alone', async () => {
    const zip = bundles.get('as4')!;
    const result = verifyBundle(zip, checks, new Set([signingKeyId]));
    expect(result.problems).to.deep.equal([]);
    const manifest = JSON.parse(readZip(zip).get(PATHS.manifest)!.toString('utf8')) as Manifest;
    expect(manifest).to.include({ transport: 'peppol-as4', direction: 'INBOUND' });
    expect(manifest.as4).to.have.length(1);
    // The received message holds the buyer's personal data: stored sealed, opened with the key the bundle gives for it alone.
    expect(Object.keys(manifest.opening_keys ?? {})).to.include(manifest.as4[0]!.message);
    const opened = openSealedFiles(readZip(zip), manifest);
    expect(opened.problems).to.deep.equal([]);
    const files = opened.files;
    const receipt = await t.http.get(`/api/documents/${overAs4}/evidence?part=receipt`).set(bearer(buyer.key));
    expect(receipt.headers['content-type']).to.match(/^application\/xml/);
    expect(files.get(manifest.as4[0]!.receipt)!.toString('utf8')).to.equal(receipt.text);
    const message = await t.http
      .get(`/api/documents/${overAs4}/evidence?part=message`)
      .set(bearer(buyer.key))
      .buffer(true)
      .parse(binary);
    expect(files.get(manifest.as4[0]!.message)!.equals(message.body as Buffer)).to.equal(true);
  });

  it('a document e-mailed in test mode: transport/email.eml is, byte for byte, the message the SMTP server received, sealed, named by the attempt that delivered and covered by the chain; its attachment is the UBL; the refused attempt kept none', async () => {
    const zip = bundles.get('email')!;
    const result = verifyBundle(zip, checks, new Set([signingKeyId]));
    expect(result.problems).to.deep.equal([]);
    const stored = readZip(zip);
    const manifest = JSON.parse(stored.get(PATHS.manifest)!.toString('utf8')) as Manifest;
    expect(manifest).to.include({ transport: 'email', direction: 'OUTBOUND', state: 'SENT' });
    const listed = manifest.files.find((f) => f.path === PATHS.email)!;
    expect(listed).to.include({ part: 'email_message', sha256: sha256Hex(stored.get(PATHS.email)!) });
    expect(manifest.files.filter((f) => f.part === 'email_message')).to.have.length(1);
    expect(manifest.files.map((f) => f.path)).to.include(PATHS.delivery);
    // It names the recipient: kept sealed, opened with the key the bundle gives for it alone.
    expect(Object.keys(manifest.opening_keys ?? {})).to.include(PATHS.email);
    expect(stored.get(PATHS.email)!.includes('inbox@mailer.test')).to.equal(false);
    const { files, problems } = openSealedFiles(stored, manifest);
    expect(problems).to.deep.equal([]);
    const eml = files.get(PATHS.email)!;
    const received = smtp.received.find((m) => m.mail.headers.get('x-document-id') === emailed)!;
    expect(received, 'the mail the SMTP server received').to.not.equal(undefined);
    expect(eml.equals(received.raw), 'the bundle holds the bytes the SMTP server received').to.equal(true);
    const attachments = readEmailAttachments(eml);
    expect(attachments.map((a) => [a.fileName, a.mediaType])).to.deep.equal([
      ['EVIDENCE-MAIL-1.xml', 'application/xml'],
    ]);
    expect(attachments[0]!.bytes.equals(files.get(PATHS.ubl)!)).to.equal(true);
    // The attempt names it by the digest of the bytes as stored, which the chain covers; the delivery record says so.
    const attempt = stored
      .get(PATHS.events)!
      .toString('utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .find(
        (e: { type: string; data: { outcome?: string } }) =>
          e.type === 'DeliveryAttempted' && e.data.outcome === 'delivered',
      );
    expect(attempt.data.email.message_ref).to.deep.equal({
      sha256: listed.sha256,
      size: eml.length,
      media_type: 'message/rfc822',
    });
    expect(blobDigestsOf(attempt.data), 'the blobs the chain hashes with the event').to.include(listed.sha256);
    const record = JSON.parse(stored.get(PATHS.delivery)!.toString('utf8'));
    expect(record.deliveries).to.have.length(2);
    expect(record.deliveries[0].attempts[0])
      .to.include({
        outcome: 'permanent',
        error: "SMTP: Can't send mail - all recipients were rejected: 550 Mailbox unknown",
      })
      .and.not.have.property('email_sha256');
    expect(record.deliveries[1].attempts[0]).to.include({ outcome: 'delivered', email_sha256: listed.sha256 });
    // The history shows the attempt without the reference (the bundle serves the message).
    const history = (await t.http.get(`/api/documents/${emailed}/history`).set(bearer(mailer.key))).body.events;
    const shown = history.filter((e: { type: string }) => e.type === 'DeliveryAttempted').pop();
    expect(shown.data).to.include({ transport: 'email', outcome: 'delivered' }).and.not.have.property('email');
  });

  it('a document e-mailed before the e-mail was kept (its attempt names none): a bundle with the delivery record only, which verifies', () => {
    const zip = bundles.get('email-before')!;
    const result = verifyBundle(zip, checks, new Set([signingKeyId]));
    expect(result.problems).to.deep.equal([]);
    const stored = readZip(zip);
    const manifest = JSON.parse(stored.get(PATHS.manifest)!.toString('utf8')) as Manifest;
    expect(manifest.transport).to.equal('email');
    expect(manifest.files.filter((f) => f.part === 'email_message')).to.deep.equal([]);
    expect(stored.has(PATHS.email)).to.equal(false);
    const record = JSON.parse(stored.get(PATHS.delivery)!.toString('utf8'));
    expect(record.deliveries[0].attempts[0]).to.include({ outcome: 'delivered' }).and.not.have.property('email_sha256');
    expect(smtp.received.some((m) => m.mail.headers.get('x-document-id') === emailedBefore)).to.equal(true);
  });

  it('an e-mail replaced by one carrying another UBL is named, however the bundle is forged around it', () => {
    const zip = bundles.get('email')!;
    const stored = readZip(zip);
    const manifest = JSON.parse(stored.get(PATHS.manifest)!.toString('utf8')) as Manifest;
    const eml = openSealedFiles(stored, manifest).files.get(PATHS.email)!.toString('latin1');
    const [, base64] =
      /Content-Transfer-Encoding: base64\r\nContent-Disposition: attachment[^\r]*\r\n\r\n([A-Za-z0-9+/=\r\n]+?)\r\n--/.exec(
        eml,
      )!;
    const ubl = Buffer.from(base64!, 'base64').toString('utf8');
    const otherUbl = Buffer.from(ubl.replace(/EVIDENCE-MAIL-1/g, 'EVIDENCE-MAIL-9')).toString('base64');
    const forgedEml = Buffer.from(eml.replace(base64!, otherUbl.replace(/(.{76})/g, '$1\r\n')), 'latin1');
    // Put in unsealed, its opening key dropped, the manifest, SHA256SUMS and the attempt's reference rewritten to match.
    const files = new Map(stored);
    files.set(PATHS.email, forgedEml);
    const forgedDigest = sha256Hex(forgedEml);
    const original = manifest.files.find((f) => f.path === PATHS.email)!.sha256;
    files.set(PATHS.events, Buffer.from(files.get(PATHS.events)!.toString('utf8').replaceAll(original, forgedDigest)));
    for (const f of manifest.files) {
      const bytes = files.get(f.path);
      if (bytes) Object.assign(f, { sha256: sha256Hex(bytes), size: bytes.length });
    }
    delete manifest.opening_keys![PATHS.email];
    files.set(PATHS.manifest, Buffer.from(JSON.stringify(manifest)));
    files.delete(PATHS.sums);
    files.set(PATHS.sums, Buffer.from(sha256Sums(files)));
    const result = verifyBundle(writeZip([...files.entries()].map(([name, bytes]) => ({ name, bytes }))), checks);
    expect(result.ok).to.equal(false);
    const email = result.problems.filter((p) => p.part === 'email_message').map((p) => p.detail);
    expect(email).to.include(
      'it does not carry the UBL the document had when it was sent, as its stored parts make it',
    );
    expect(email).to.include('its attachment EVIDENCE-MAIL-1.xml is not a file the document stores');
    // The attempt's reference rewritten: the chain no longer holds.
    expect(parts(result)).to.include('events');
  });

  it('names the part of every file changed (the manifest not updated), and of every file forged with its manifest and SHA256SUMS rewritten', () => {
    const zip = bundles.get('as4')!;
    const manifest = JSON.parse(readZip(zip).get(PATHS.manifest)!.toString('utf8')) as Manifest;
    const fileOf = (part: string, of = manifest) => of.files.find((f) => f.part === part)!.path;
    // The sent document: validated by a named rule set, answered with an Invoice Response.
    const sentZip = bundles.get('sent')!;
    const sentManifest = JSON.parse(readZip(sentZip).get(PATHS.manifest)!.toString('utf8')) as Manifest;
    const flipLastByte = (bytes: Buffer) => {
      const copy = Buffer.from(bytes);
      copy[copy.length - 2] = copy[copy.length - 2]! ^ 1;
      return copy;
    };
    const emailZip = bundles.get('email')!;
    const cases: Array<[string, string, (b: Buffer) => Buffer, string, Buffer?]> = [
      // Sealed (it names the recipient): any byte changed.
      ['the e-mail as sent', PATHS.email, flipLastByte, 'email_message', emailZip],
      ['the UBL', PATHS.ubl, replaceText(/EVIDENCE-AS4-1/, 'EVIDENCE-AS4-2'), 'ubl'],
      // Stored parts are sealed (personal data): any byte changed.
      [
        'a stored part of the UBL',
        manifest.ubl!.ubl_ref.skeleton.sha256 && fileOf('ubl_part'),
        flipLastByte,
        'ubl_part',
      ],
      ['the document as stored', fileOf('content'), flipLastByte, 'content'],
      ['the AS4 message', manifest.as4[0]!.message, flipLastByte, 'as4_message'],
      [
        'the AS4 receipt',
        manifest.as4[0]!.receipt,
        replaceText(/DigestValue>[A-Za-z0-9+/]/, 'DigestValue>A'),
        'as4_receipt',
      ],
      ['an event', PATHS.events, replaceText(/EVIDENCE-AS4-1/, 'EVIDENCE-AS4-2'), 'events'],
      [
        'a link of the chain segment',
        PATHS.proofs,
        editJson((p) => (p[0].segment.links[0].digest = '0'.repeat(64))),
        'chain_segment',
      ],
      [
        'the checkpoint',
        PATHS.proofs,
        editJson((p) => (p[0].checkpoint.created_at = '2020-01-01T00:00:00.000Z')),
        'checkpoint',
      ],
      ['who did what', PATHS.actors, editJson((a) => (a[0].actor_detail = { kind: 'operator' })), 'actors'],
      [
        'the delivery record',
        PATHS.delivery,
        editJson((r) => (r.received.sender_access_point = 'POP000999')),
        'delivery_record',
      ],
      [
        'the validation report',
        PATHS.validation,
        editJson((r) => (r.rule_set = 'another')),
        'validation_report',
        sentZip,
      ],
      [
        'the Invoice Response',
        fileOf('invoice_response', sentManifest),
        replaceText(/AP|RE/, 'CA'),
        'invoice_response',
        sentZip,
      ],
    ];
    for (const [what, file, change, part, bundle] of cases) {
      const plain = verifyBundle(tampered(bundle ?? zip, file, change, false), checks);
      expect(plain.ok, what).to.equal(false);
      expect(parts(plain), `${what} changed`).to.include(part);
      const forged = verifyBundle(tampered(bundle ?? zip, file, change, true), checks);
      expect(forged.ok, `${what} forged`).to.equal(false);
      expect(parts(forged), `${what} forged with its manifest`).to.include(part);
      expect(forged.problems.find((p) => p.part === part)!.detail, what).to.be.a('string');
    }
    // A file slipped in, a file taken out, a damaged archive.
    const files = [...readZip(zip).entries()];
    const extra = writeZip(
      [...files, ['extra.txt', Buffer.from('x')] as const].map(([name, bytes]) => ({ name, bytes })),
    );
    expect(parts(verifyBundle(extra, checks))).to.deep.equal(['manifest']);
    const fewer = writeZip(files.filter(([name]) => name !== PATHS.actors).map(([name, bytes]) => ({ name, bytes })));
    expect(parts(verifyBundle(fewer, checks))).to.include('actors');
    expect(parts(verifyBundle(zip.subarray(0, zip.length - 30), checks))).to.deep.equal(['archive']);
  });

  it("checks an AS4 receipt's signature and its digests against the message: a receipt for another message, or a message changed after signing, is named", () => {
    const stored = readZip(bundles.get('as4')!);
    const manifest = JSON.parse(stored.get(PATHS.manifest)!.toString('utf8')) as Manifest;
    const { files } = openSealedFiles(stored, manifest);
    const { message, receipt, content_type } = manifest.as4[0]!;
    expect(checkAs4Evidence(files.get(message)!, content_type, files.get(receipt)!)).to.deep.equal([]);
    const receiptText = files.get(receipt)!.toString('utf8');
    // The receipt's signature: its signed content changed.
    const resigned = Buffer.from(receiptText.replace(/(<eb:Timestamp>)[^<]*/, '$12001-01-01T00:00:00Z'));
    expect(checkAs4Evidence(files.get(message)!, content_type, resigned).map((p) => p.part)).to.include('as4_receipt');
    // The message's signed eb:Messaging changed: its digest no longer holds.
    const messageText = files.get(message)!.toString('latin1');
    const changed = Buffer.from(messageText.replace(/<eb:ConversationId>[^<]*/, '<eb:ConversationId>other'), 'latin1');
    expect(checkAs4Evidence(changed, content_type, files.get(receipt)!).map((p) => p.part)).to.include('as4_message');
  });

  it('npm run verify-evidence: exit 0 and OK for a bundle as answered (an e-mailed document), 1 naming the part for a tampered one', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'evidence-'));
    try {
      const good = path.join(dir, 'good.zip');
      const bad = path.join(dir, 'bad.zip');
      const badEmail = path.join(dir, 'bad-email.zip');
      await writeFile(good, bundles.get('email')!);
      await writeFile(
        bad,
        tampered(bundles.get('sent')!, PATHS.events, replaceText(/"DocumentCreated"/, '"DocumentCreatee"'), true),
      );
      await writeFile(
        badEmail,
        tampered(bundles.get('email')!, PATHS.email, (b) => Buffer.concat([b, b]), false),
      );
      const run = promisify(execFile);
      const ok = await run(process.execPath, [script, good, '--trust', signingKeyId]);
      expect(ok.stdout).to.contain('OK:').and.contain('the e-mails sent');
      const failure = (file: string) =>
        run(process.execPath, [script, file]).then(
          () => null,
          (error: { code: number; stdout: string }) => error,
        );
      const failed = await failure(bad);
      expect(failed?.code).to.equal(1);
      expect(failed?.stdout).to.match(/events \(history\/events\.jsonl\): event .* is not what was chained/);
      const failedEmail = await failure(badEmail);
      expect(failedEmail?.code).to.equal(1);
      expect(failedEmail?.stdout).to.contain(
        'email_message (transport/email.eml): its bytes are not those the manifest lists',
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
