import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
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
import { registerPeppol } from '../support/peppol.js';
import { startDnsServer, type TestDnsServer } from '../support/dnsServer.js';
import {
  describeWithPhase4,
  PHASE4_HARNESS_JAR,
  startPhase4Receiver,
  startPhase4SendService,
  stopPhase4Receiver,
  type Phase4Receiver,
  type Phase4SendService,
} from '../support/phase4.js';
import { makeTestPki, repoRoot, type TestPki } from '../support/testPki.js';
import { senderPeppolConfig, urlOf } from '../support/as4Peers.js';
import { startStaticSmp } from '../support/staticSmp.js';
import { realisticDocuments } from '../domain/document/fixtures/realisticDocuments.js';
import { as4MessageStream, type As4MessageReceived } from '../../src/application/documents/as4MessageRecord.js';
import { readSbdh } from '../../src/infrastructure/as4/sbdhXml.js';
import { parseUntrustedXml } from '../../src/infrastructure/xml/xmlParser.js';
import { validateMls } from '../../src/domain/validation/rules/mls/mlsRules.js';
import { PEPPOL_INVOICE, PEPPOL_MLS } from '../../src/domain/peppol/peppolDocumentTypes.js';
import { BIS_BILLING_INVOICE, BIS_BILLING_PROCESS } from '../../src/domain/peppol/smpDocuments.js';

const SHARED = process.env.SHARED_DIR ?? path.resolve(repoRoot, '..', 'shared');
const INVOICE = path.join(SHARED, 'conformance', 'examples', 'peppol-bis-3.0.19', 'examples', 'base-example.xml');
/** Ours: a tenant receiving from phase4, our SPID; phase4's: a buyer it serves, its SPID. */
const OUR_RECEIVER = '0208:0451234595';
const PHASE4_BUYER = '0208:0202239951';
const OUR_SPID = '0242:000001';
const PHASE4_SPID = '0242:000002';
const SELLER_ID = '0208:0403013026';

/** phase4's own reading of an MLS (ph-ubl21, the UBL 2.1 XSD): what it says. */
function phase4Reads(file: string): Promise<Record<string, unknown> & { ok: boolean; xsdErrors: string[] }> {
  return new Promise((resolve, reject) =>
    execFile('java', ['-jar', PHASE4_HARNESS_JAR, 'mls-read', '--file', file], (error, stdout, stderr) => {
      const line = stdout.split('\n').find((l) => l.startsWith('{'));
      if (!line) reject(new Error(`mls-read said nothing: ${error?.message ?? ''}\n${stderr}`));
      else resolve(JSON.parse(line));
    }),
  );
}

/**
 * MLS both ways with phase4 (POP000002, SPID 0242:000002): phase4 sends invoices asking for MLS and
 * receives ours at its SPID (found, like any receiver, through SML DNS and a signed SMP), reading it
 * with its UBL reader; and phase4 builds an MLS (on ph-ubl21, as peppol-mls does) about an invoice
 * we sent it, which we record on our document.
 */
describeWithPhase4(
  'MLS with phase4: it asks and reads ours; it builds one and we record it',
  function () {
    this.timeout(400_000);
    let pki: TestPki;
    let dns: TestDnsServer;
    let receiver: Phase4Receiver;
    let sender: Phase4SendService;
    let smp: Awaited<ReturnType<typeof startStaticSmp>>;
    let outDir: string;
    let us: TestService;
    let endpoint: string;
    let seller: { id: string; key: string };

    before(async () => {
      pki = await makeTestPki({ instances: 2 });
      dns = await startDnsServer();
      outDir = await mkdtemp(path.join(os.tmpdir(), 'phase4-mls-'));
      [receiver, sender] = await Promise.all([
        startPhase4Receiver({ ap: pki.instance(2), outDir, serviced: [PHASE4_SPID, PHASE4_BUYER] }),
        startPhase4SendService(),
      ]);
      smp = await startStaticSmp({
        signer: pki.instance(2),
        dns,
        entries: [
          { participant: PHASE4_SPID, kinds: [PEPPOL_MLS], endpointUrl: receiver.url, ap: pki.instance(2) },
          { participant: PHASE4_BUYER, kinds: [PEPPOL_INVOICE], endpointUrl: receiver.url, ap: pki.instance(2) },
        ],
      });
      us = await startTestService(
        { peppol: senderPeppolConfig(pki, dns, { as4AllowPlainHttpLoopback: true, as4SendTimeoutMs: 120_000 }) },
        undefined,
        { deliveryRetryUnitMs: 5, jobLockLifetimeMs: 120_000 },
      );
      endpoint = `${urlOf(await us.service.listen(0, '127.0.0.1'))}/as4`;
      const { adminKey } = await createOrganization(us);
      const tenant = await createTenant(us, adminKey, 'mls-receiver', { peppol_ids: [OUR_RECEIVER] });
      await registerPeppol(us, adminKey, tenant.id, { peppol_id: OUR_RECEIVER, company_name: 'Brouwerij De Zwaan NV' });
      seller = await createTenant(us, adminKey, undefined, { peppol_ids: [SELLER_ID] });
    });
    after(async () => {
      await sender?.stop();
      await us?.stop();
      await smp?.stop();
      await stopPhase4Receiver(receiver);
      await dns?.close();
      await pki?.dispose();
      if (outDir) await rm(outDir, { recursive: true, force: true });
    });

    /** phase4 sends `payloadFile` to our receiver, asking for MLS; resolves with what we recorded of it. */
    const phase4Sends = async (payloadFile: string, mlsType: 'ALWAYS_SEND' | 'FAILURE_ONLY') => {
      const report = await sender.send({
        ap: pki.instance(2),
        endpoint,
        receiverCertificateFile: pki.instance(1).certificateFile,
        payloadFile,
        from: SELLER_ID,
        to: OUR_RECEIVER,
        doctype: BIS_BILLING_INVOICE,
        process: BIS_BILLING_PROCESS,
        mlsTo: PHASE4_SPID,
        mlsType,
      });
      expect(report, JSON.stringify(report)).to.include({ ok: true, receiptCheck: 'verified' });
      const [record] = await us.service.eventStore.readStream(as4MessageStream(report.messageId));
      return record!.data as As4MessageReceived['data'];
    };
    /** The MLS phase4 received about the SBDH instance `about`: the business document, checked by phase4's reader and the rules. */
    const mlsAt = async (about: string) => {
      const found = await eventually(
        async () => {
          for (const file of (await readdir(outDir)).filter((f) => f.endsWith('.sbd.xml'))) {
            const read = readSbdh(await readFile(path.join(outDir, file)));
            if (
              read.ok &&
              read.sbdh.documentType.value === PEPPOL_MLS.documentType.value &&
              read.businessDocument.includes(about)
            )
              return read;
          }
          return false;
        },
        'the MLS at phase4',
        150_000,
      );
      const file = path.join(outDir, `${about.replace(/[^\w.-]/g, '_')}.mls.xml`);
      await writeFile(file, found.businessDocument);
      expect(validateMls(parseUntrustedXml(found.businessDocument).root), 'the MLS rules').to.deep.equal([]);
      return { sbdh: found.sbdh, read: await phase4Reads(file) };
    };

    it('phase4 asks ALWAYS_SEND: we deliver and send it one AP; asks FAILURE_ONLY for a broken invoice: one RE; phase4 reads both', async () => {
      const delivered = await phase4Sends(INVOICE, 'ALWAYS_SEND');
      expect(delivered.kind).to.equal('document');
      expect(delivered.sbdh).to.deep.include({ mls_type: 'ALWAYS_SEND' });
      const ap = await mlsAt(delivered.sbdh!.instance_id);
      expect(ap.sbdh.sender.value).to.equal(OUR_SPID);
      expect(ap.sbdh.receiver.value).to.equal(PHASE4_SPID);
      expect(ap.sbdh.mlsTo, 'an MLS asks for no MLS').to.equal(null);
      expect(ap.read).to.include({
        ok: true,
        customizationId: 'urn:peppol:edec:mls:1.0',
        responseCode: 'AP',
        referenceId: delivered.sbdh!.instance_id,
        sender: OUR_SPID,
        receiver: PHASE4_SPID,
      });

      const brokenFile = path.join(outDir, 'broken-invoice.xml');
      const invoice = await readFile(INVOICE, 'utf8');
      await writeFile(brokenFile, invoice.replace(/(<cbc:DocumentCurrencyCode>)[A-Z]{3}</, '$1ZZZ<'));
      const refused = await phase4Sends(brokenFile, 'FAILURE_ONLY');
      expect(refused.kind).to.equal('refused');
      const re = await mlsAt(refused.sbdh!.instance_id);
      expect(re.read).to.include({ ok: true, responseCode: 'RE', referenceId: refused.sbdh!.instance_id });
      expect(JSON.stringify(re.read.issues)).to.contain('BV');
    });

    it('phase4 builds an RE about an invoice we sent it and sends it to our SPID: our document FAILED with its reason', async () => {
      const body = {
        ...(structuredClone(realisticDocuments()[0]!.body) as Record<string, unknown>),
        invoice_id: 'MLS-TO-PHASE4',
      };
      const created = await us.http.post('/api/documents/').set(bearer(seller.key)).send(body);
      const sent = await us.http
        .post(`/api/documents/${created.body.id}/send`)
        .query({ receiver_peppol_scheme: '0208', receiver_peppol_id: PHASE4_BUYER.split(':')[1]! })
        .set(bearer(seller.key));
      expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
      await waitForState(us, seller.key, created.body.id, ['SENT']);
      const report = async () =>
        (await us.http.get(`/api/documents/${created.body.id}/transmission-report`).set(bearer(seller.key))).body;
      const messageId = (await report()).deliveries[0].message_id as string;

      const mlsFile = path.join(outDir, 'phase4-re.xml');
      const built = await new Promise<string>((resolve, reject) =>
        execFile(
          'java',
          [
            '-jar',
            PHASE4_HARNESS_JAR,
            'mls-build',
            '--code',
            'RE',
            '--from-spid',
            '000002',
            '--to-spid',
            '000001',
            '--reference',
            messageId,
            '--description',
            'Not accepted by the receiver',
            '--issue-reason',
            'FD',
            '--issue-description',
            'The receiver refused the delivery',
            '--out',
            mlsFile,
          ],
          (error, stdout) => (error ? reject(error) : resolve(stdout)),
        ),
      );
      expect(JSON.parse(built.split('\n').find((l) => l.startsWith('{'))!)).to.include({ ok: true });
      const sentMls = await sender.send({
        ap: pki.instance(2),
        endpoint,
        receiverCertificateFile: pki.instance(1).certificateFile,
        payloadFile: mlsFile,
        from: PHASE4_SPID,
        to: OUR_SPID,
        doctype: PEPPOL_MLS.documentType.value,
        process: PEPPOL_MLS.process.value,
      });
      expect(sentMls, JSON.stringify(sentMls)).to.include({ ok: true, receiptCheck: 'verified' });
      await waitForState(us, seller.key, created.body.id, ['FAILED']);
      const after = await report();
      expect(after.deliveries[0].mls).to.include({ code: 'RE', valid: true, sender_ap: 'POP000002' });
      expect(after.deliveries[0].failure_reason).to.match(/MLS RE.*Not accepted by the receiver.*refused the delivery/);
    });
  },
  [INVOICE],
);
