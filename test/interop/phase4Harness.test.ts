import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import libxmljs, { type XMLElement } from 'libxmljs';
import {
  describeWithPhase4,
  runPhase4Sender,
  startPhase4Receiver,
  startPhase4SendService,
  stopPhase4Receiver,
  type Phase4Receiver,
  type Phase4SendOptions,
  type Phase4SendService,
} from '../support/phase4.js';
import { makeTestPki, repoRoot, type TestPki } from '../support/testPki.js';

/**
 * The harness on its own, phase4 to phase4: before our AS4 code is tested against phase4, this
 * shows that the harness's receiver and sender do what those tests will rely on, the Peppol way
 * (signed and encrypted with the test PKI, a signed receipt whose references are checked), and
 * what phase4 answers when it refuses a message.
 */

const SHARED = process.env.SHARED_DIR ?? path.resolve(repoRoot, '..', 'shared');
const INVOICE = path.join(SHARED, 'conformance', 'examples', 'peppol-bis-3.0.19', 'examples', 'base-example.xml');
const SENDER = '0088:5790000435951';
const RECEIVER = '0088:7300010000001';
const DOCTYPE =
  'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1';
const PROCESS = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';

/** An element as comparable data: name, namespace, attributes, own text and children, in order. */
function shape(element: XMLElement): unknown {
  const children = element.childNodes();
  return {
    name: element.name(),
    ns: element.namespace()?.href() ?? null,
    attrs: element
      .attrs()
      .map((a) => `${a.name()}=${a.value()}`)
      .sort(),
    text: children
      .filter((c) => c.type() === 'text')
      .map((c) => c.text().trim())
      .join(''),
    children: children.filter((c) => c.type() === 'element').map(shape),
  };
}

/** A Peppol SBDH (envelope specification 2.0) around `ubl`, as our sender will make them. */
function sbdh(ubl: string, instanceId: string, receiver = RECEIVER): string {
  const body = ubl.replace(/^<\?xml[^>]*>\s*/, '');
  return `<?xml version="1.0" encoding="UTF-8"?>
<StandardBusinessDocument xmlns="http://www.unece.org/cefact/namespaces/StandardBusinessDocumentHeader">
  <StandardBusinessDocumentHeader>
    <HeaderVersion>1.0</HeaderVersion>
    <Sender><Identifier Authority="iso6523-actorid-upis">${SENDER}</Identifier></Sender>
    <Receiver><Identifier Authority="iso6523-actorid-upis">${receiver}</Identifier></Receiver>
    <DocumentIdentification>
      <Standard>urn:oasis:names:specification:ubl:schema:xsd:Invoice-2</Standard>
      <TypeVersion>2.1</TypeVersion>
      <InstanceIdentifier>${instanceId}</InstanceIdentifier>
      <Type>Invoice</Type>
      <CreationDateAndTime>${new Date().toISOString()}</CreationDateAndTime>
    </DocumentIdentification>
    <BusinessScope>
      <Scope><Type>DOCUMENTID</Type><InstanceIdentifier>${DOCTYPE}</InstanceIdentifier><Identifier>busdox-docid-qns</Identifier></Scope>
      <Scope><Type>PROCESSID</Type><InstanceIdentifier>${PROCESS}</InstanceIdentifier><Identifier>cenbii-procid-ubl</Identifier></Scope>
      <Scope><Type>COUNTRY_C1</Type><InstanceIdentifier>BE</InstanceIdentifier></Scope>
    </BusinessScope>
  </StandardBusinessDocumentHeader>
${body}</StandardBusinessDocument>
`;
}

describeWithPhase4(
  'phase4 interop harness: phase4 sender → phase4 receiver on loopback',
  function () {
    this.timeout(300_000);
    let pki: TestPki;
    let receiver: Phase4Receiver;
    let sender: Phase4SendService;
    let outDir: string;
    let workDir: string;

    const stored = async () => (await readdir(outDir)).sort();
    const invoice = (options: Partial<Phase4SendOptions>): Phase4SendOptions => ({
      ap: pki.instance(1),
      endpoint: receiver.url,
      receiverCertificateFile: pki.instance(2).certificateFile,
      payloadFile: INVOICE,
      from: SENDER,
      to: RECEIVER,
      doctype: DOCTYPE,
      process: PROCESS,
      ...options,
    });
    /** One send through the long-running sender (the first test runs the command line itself). */
    const send = (options: Partial<Phase4SendOptions>) => sender.send(invoice(options));

    before(async () => {
      pki = await makeTestPki({ instances: 2 });
      outDir = await mkdtemp(path.join(os.tmpdir(), 'phase4-inbox-'));
      workDir = await mkdtemp(path.join(os.tmpdir(), 'phase4-work-'));
      [receiver, sender] = await Promise.all([
        startPhase4Receiver({ ap: pki.instance(2), outDir, serviced: [RECEIVER] }),
        startPhase4SendService(),
      ]);
    });
    after(async () => {
      await sender?.stop();
      await stopPhase4Receiver(receiver);
      await pki?.dispose();
      if (outDir) await rm(outDir, { recursive: true, force: true });
      if (workDir) await rm(workDir, { recursive: true, force: true });
    });

    it('delivers a Peppol BIS invoice: a signed receipt whose references match what was sent, and the receiver stores the document', async () => {
      const { exitCode, reports } = await runPhase4Sender(invoice({}));
      expect(exitCode).to.equal(0);
      expect(reports).to.have.length(1);
      const report = reports[0]!;
      expect(report).to.include({
        ok: true,
        result: 'success',
        receipt: true,
        receiptCheck: 'verified',
        refToMessageId: report.messageId,
      });
      expect(report.signalMessageId).to.be.a('string').and.not.equal(report.messageId);
      expect(report.errors).to.deep.equal([]);

      // Stored before the receipt was answered, so it is there now.
      expect(await stored()).to.deep.equal([`${report.messageId}.json`, `${report.messageId}.sbd.xml`]);
      const metadata = JSON.parse(await readFile(path.join(outDir, `${report.messageId}.json`), 'utf8')) as Record<
        string,
        string
      >;
      expect(metadata).to.include({
        messageId: report.messageId,
        fromPartyId: 'POP000001',
        toPartyId: 'POP000002',
        action: `busdox-docid-qns::${DOCTYPE}`,
        sender: `iso6523-actorid-upis::${SENDER}`,
        receiver: `iso6523-actorid-upis::${RECEIVER}`,
        documentType: `busdox-docid-qns::${DOCTYPE}`,
        process: `cenbii-procid-ubl::${PROCESS}`,
        countryC1: 'BE',
      });
      expect(metadata.signingCertificate).to.match(/^CN=POP000001,/);
      expect(metadata.instanceIdentifier).to.match(/^[0-9a-f-]{36}$/);

      // phase4 wrapped the invoice in an SBDH of its making; the invoice inside is the one sent.
      const envelope = libxmljs.parseXml(await readFile(path.join(outDir, metadata.payloadFile!), 'utf8'));
      const inner = envelope.get(
        '/*[local-name()="StandardBusinessDocument"]/*[local-name()="Invoice"]',
      ) as XMLElement | null;
      expect(inner, 'the Invoice inside the stored SBDH').to.not.equal(null);
      expect(shape(inner!)).to.deep.equal(shape(libxmljs.parseXml(await readFile(INVOICE, 'utf8')).root()!));
    });

    it('sends an SBDH file as it is: the receiver stores exactly those bytes', async () => {
      const instanceId = randomUUID();
      const file = path.join(workDir, 'invoice.sbd.xml');
      await writeFile(file, sbdh(await readFile(INVOICE, 'utf8'), instanceId));
      const report = await send({
        payloadFile: file,
        from: undefined,
        to: undefined,
        doctype: undefined,
        process: undefined,
      });
      expect(report).to.include({ ok: true, result: 'success', receiptCheck: 'verified' });
      const metadata = JSON.parse(await readFile(path.join(outDir, `${report.messageId}.json`), 'utf8')) as Record<
        string,
        string
      >;
      expect(metadata.instanceIdentifier).to.equal(instanceId);
      expect((await readFile(path.join(outDir, `${report.messageId}.sbd.xml`))).equals(await readFile(file))).to.equal(
        true,
      );
    });

    // phase4 checks the signing certificate's path with WS-Security, while decrypting, so it
    // reports a bad certificate as EBMS:0102 FailedDecryption, naming the reason in the detail.
    for (const [which, reason] of [
      ['expired', /certificate path validation: validity check failed/],
      ['untrusted', /certificate path validation: No trusted certs found/],
    ] as const) {
      it(`answers an ebMS error and stores nothing for a message signed with the ${which} certificate`, async () => {
        const before = await stored();
        const report = await send({ ap: pki[which] });
        expect(report).to.include({
          ok: false,
          result: 'as4-error-msg-received',
          receipt: false,
          refToMessageId: report.messageId,
        });
        expect(report.errors).to.have.length(1);
        expect(report.errors![0]).to.include({
          code: 'EBMS:0102',
          severity: 'failure',
          shortDescription: 'FailedDecryption',
        });
        expect(report.errors![0]!.detail).to.match(reason);
        expect(await stored()).to.deep.equal(before);
      });
    }

    it('answers EBMS:0004 PEPPOL:NOT_SERVICED and stores nothing for a receiver it does not serve', async () => {
      const before = await stored();
      const file = path.join(workDir, 'elsewhere.sbd.xml');
      await writeFile(file, sbdh(await readFile(INVOICE, 'utf8'), randomUUID(), '0088:0000000000000'));
      const report = await send({
        payloadFile: file,
        from: undefined,
        to: undefined,
        doctype: undefined,
        process: undefined,
      });
      expect(report).to.include({ ok: false, result: 'as4-error-msg-received' });
      expect(report.errors).to.have.length(1);
      expect(report.errors![0]).to.include({ code: 'EBMS:0004', severity: 'failure', detail: 'PEPPOL:NOT_SERVICED' });
      expect(await stored()).to.deep.equal(before);
    });

    it('answers EBMS:0004 and stores nothing when the ebMS header and the SBDH name different receivers', async () => {
      const before = await stored();
      const file = path.join(workDir, 'inconsistent.sbd.xml');
      await writeFile(file, sbdh(await readFile(INVOICE, 'utf8'), randomUUID()));
      // finalRecipient from --to, the SBDH's receiver from the file.
      const report = await send({
        payloadFile: file,
        from: undefined,
        to: '0088:1111111111111',
        doctype: undefined,
        process: undefined,
      });
      expect(report).to.include({ ok: false, result: 'as4-error-msg-received' });
      expect(report.errors![0]).to.include({ code: 'EBMS:0004' });
      expect(report.errors![0]!.detail).to.match(/finalRecipient.*differs from the SBDH/);
      expect(await stored()).to.deep.equal(before);
    });

    it('answers a second message with the same MessageId (a retry) with EBMS:0004, not a second receipt, and stores it once', async () => {
      const messageId = `${randomUUID()}@retry.test`;
      const first = await send({ messageId });
      expect(first).to.include({ ok: true, messageId, receiptCheck: 'verified' });
      const before = await stored();
      const second = await send({ messageId });
      expect(second).to.include({ ok: false, messageId, result: 'as4-error-msg-received', receipt: false });
      expect(second.errors![0]).to.include({ code: 'EBMS:0004' });
      expect(second.errors![0]!.detail).to.match(/duplicate/);
      expect(await stored()).to.deep.equal(before);
    });

    it('refuses, before sending, a receiver certificate that is not from the AP CA', async () => {
      const before = await stored();
      const report = await send({ receiverCertificateFile: pki.untrusted.certificateFile });
      expect(report).to.include({ ok: false, result: 'transport-error-no-retry' });
      expect(report.exception).to.match(/certificate/i);
      expect(report.signalMessageId, 'no answer, as nothing was sent').to.equal(undefined);
      expect(await stored()).to.deep.equal(before);
    });
  },
  [INVOICE],
);
