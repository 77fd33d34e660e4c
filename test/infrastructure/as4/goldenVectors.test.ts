import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { ExclusiveCanonicalization } from 'xml-crypto';
import { readCertificateFile } from '../../../src/infrastructure/peppol/certificates.js';
import { checkCertificate } from '../../../src/infrastructure/peppol/certificates.js';
import { readMessaging } from '../../../src/infrastructure/as4/ebmsReader.js';
import { readMultipartRelated, splitMimeEntity } from '../../../src/infrastructure/as4/mimeMultipart.js';
import { verifySignature, type SignatureVerification } from '../../../src/infrastructure/as4/wsSecuritySignature.js';
import { elementById } from '../../../src/infrastructure/as4/wsSecurityTokens.js';
import { decodeUtf8Xml, parseUntrustedXmlDom } from '../../../src/infrastructure/as4/xmlDom.js';
import {
  EBMS_ROLE_INITIATOR,
  EBMS_ROLE_RESPONDER,
  PEPPOL_AGREEMENT_REF,
  PEPPOL_PARTY_ID_TYPE,
} from '../../../src/domain/peppol/as4/peppolProfile.js';
import { propertyValue } from '../../../src/domain/peppol/as4/userMessage.js';
import {
  captureSoap,
  capturesDir,
  phase4Dir,
  requireVectors,
  signatureExpectations,
  vectorsDir,
} from '../../support/peppolVectors.js';

const domOf = (file: string): Document => parseUntrustedXmlDom(decodeUtf8Xml(captureSoap(file)));
const verifyCapture = (file: string, canonicalizer?: typeof ExclusiveCanonicalization): SignatureVerification =>
  verifySignature(domOf(file), new Map(), canonicalizer);
const statuses = (v: SignatureVerification) =>
  v.references.map((r) => [r.reference.uri.startsWith('cid:') ? 'cid' : 'xml', r.status]);
const elementOf = (file: string, uri: string) => elementById(domOf(file), uri.slice(1));
const cn = (subject: string) => /CN=([^,\n]+)/.exec(subject)?.[1];

describe('AS4 golden vectors (phase4 captures)', function () {
  before(function () {
    requireVectors(this);
  });

  describe('signatures, as signature-expectations.tsv says', () => {
    it('lists the eight captures', () => {
      expect(signatureExpectations().map((e) => e.file)).to.have.members([
        'dump-raw.as4out',
        'verify/helger.as4in',
        'verify/governikus.as4in',
        'verify/dataport1-mustunderstand.as4in',
        'verify/dataport1.as4in',
        'TestReceipt12.xml',
        'TestReceipt11.xml',
        'from-holodeck-1.xml',
      ]);
    });

    for (const file of [
      'verify/helger.as4in',
      'verify/governikus.as4in',
      'verify/dataport1-mustunderstand.as4in',
      'TestReceipt12.xml',
      'TestReceipt11.xml',
    ]) {
      it(`${file} verifies: every reference and the SignedInfo signature`, () => {
        const expectation = signatureExpectations().find((e) => e.file === file)!;
        expect(expectation.conformant).to.equal('VALID');
        const result = verifyCapture(file);
        expect(result.reason, file).to.equal(null);
        expect(result).to.include({ valid: true, signedInfoValid: true });
        expect(result.references.every((r) => r.status === 'ok')).to.equal(true);
        expect(cn(result.certificate!.subject)).to.equal(cn(expectation.signerSubject));
      });
    }

    it('dump-raw.as4out: SignedInfo and both XML references verify; the encrypted attachment reference is reported unresolvable', () => {
      const result = verifyCapture('dump-raw.as4out');
      expect(result.signedInfoValid).to.equal(true);
      expect(statuses(result)).to.deep.equal([
        ['xml', 'ok'],
        ['xml', 'ok'],
        ['cid', 'unresolvable'],
      ]);
      expect(result.valid).to.equal(false);
      expect(result.reason).to.match(/cid:phase4-att-ff0f8ad5-f982-48ba-b8e2-26997600f496@cid is not available/);
    });

    it('from-holodeck-1.xml (Holodeck B2B): SignedInfo and XML references verify, the attachment is not in the file', () => {
      const result = verifyCapture('from-holodeck-1.xml');
      expect(result.signedInfoValid).to.equal(true);
      expect(statuses(result)).to.deep.equal([
        ['xml', 'ok'],
        ['xml', 'ok'],
        ['cid', 'unresolvable'],
      ]);
      expect(result.valid).to.equal(false);
    });

    it('verify/dataport1.as4in is refused for the digest of eb3:Messaging, though its SignedInfo signature is good', () => {
      const result = verifyCapture('verify/dataport1.as4in');
      expect(result.valid).to.equal(false);
      expect(result.signedInfoValid).to.equal(true);
      const failed = result.references.filter((r) => r.status !== 'ok');
      expect(failed).to.have.length(1);
      expect(failed[0]!.status).to.equal('digest-mismatch');
      const element = elementOf('verify/dataport1.as4in', failed[0]!.reference.uri);
      expect([element.namespaceURI, element.localName, element.prefix]).to.deep.equal([
        'http://docs.oasis-open.org/ebxml-msg/ebms/v3.0/ns/core/200704/',
        'Messaging',
        'eb3',
      ]);
      expect(result.reason).to.equal(`the digest of ${failed[0]!.reference.uri} does not match`);
    });

    it('each signer certificate was issued by the CA file the table names, and was valid when phase4 captured it', function () {
      const certs = path.join(vectorsDir(), 'peppol-commons', 'certs');
      if (!fs.existsSync(certs)) return this.skip();
      for (const e of signatureExpectations().filter((x) => x.signerCaFile.startsWith('trustedca/'))) {
        const signer = verifyCapture(e.file).certificate!;
        const [from, to] = e.signerValid.split('..');
        expect(new Date(signer.validFrom).toISOString().slice(0, 10), e.file).to.be.oneOf([from, dayBefore(from!)]);
        const inside = new Date(new Date(signer.validFrom).getTime() + 86_400_000);
        const report = checkCertificate(
          signer,
          'ap-signature',
          [readCertificateFile(path.join(certs, e.signerCaFile))],
          inside,
        );
        expect(report.status, `${e.file}: ${report.error}`).to.equal('success');
        expect(report.details).to.include({ trusted: true });
        expect(new Date(signer.validTo).toISOString().slice(0, 10), e.file).to.be.oneOf([to, dayBefore(to!)]);
      }
    });
  });

  describe("xml-crypto's exclusive C14N as shipped (namespace order by localeCompare)", () => {
    it('fails TestReceipt12.xml and helger.as4in on the eb:Messaging digest, which the code-point order fixes', () => {
      for (const file of ['TestReceipt12.xml', 'verify/helger.as4in']) {
        const shipped = verifyCapture(file, ExclusiveCanonicalization);
        expect(shipped.valid, file).to.equal(false);
        const failed = shipped.references.find((r) => r.status === 'digest-mismatch')!;
        expect(elementOf(file, failed.reference.uri).localName).to.equal('Messaging');
        expect(verifyCapture(file).valid, file).to.equal(true);
      }
    });

    it('fails TestReceipt11.xml on the SignatureValue (S11 rendered after ds in SignedInfo)', () => {
      const shipped = verifyCapture('TestReceipt11.xml', ExclusiveCanonicalization);
      expect(statuses(shipped)).to.deep.equal([['xml', 'ok']]);
      expect(shipped.signedInfoValid).to.equal(false);
    });

    it('agrees with the table for every capture', () => {
      for (const e of signatureExpectations()) {
        const shipped = verifyCapture(e.file, ExclusiveCanonicalization);
        if (e.asShipped === 'VALID') expect(shipped.valid, e.file).to.equal(true);
        else if (e.asShipped.startsWith('FAIL (digest of eb:Messaging)'))
          expect(statuses(shipped)[0], e.file).to.deep.equal(['xml', 'digest-mismatch']);
        else if (e.asShipped.startsWith('FAIL (SignatureValue'))
          expect(shipped.signedInfoValid, e.file).to.equal(false);
        else if (e.asShipped === 'INVALID') expect(shipped.valid, e.file).to.equal(false);
        else {
          expect(e.asShipped, e.file).to.match(/xml refs OK; overall false/);
          expect(
            statuses(shipped)
              .filter(([kind]) => kind === 'xml')
              .every(([, s]) => s === 'ok'),
            e.file,
          ).to.equal(true);
          expect(shipped.valid, e.file).to.equal(false);
        }
      }
    });
  });

  describe('dump-raw.as4out, parsed', () => {
    const raw = () => fs.readFileSync(path.join(capturesDir(), 'dump-raw.as4out'));

    it('splits into the SOAP 1.2 envelope and one encrypted attachment with its Content-ID', () => {
      const { headers, body } = splitMimeEntity(raw());
      expect(headers['content-type']).to.contain('boundary="----=_Part_0_1950117092.1769701143986"');
      const related = readMultipartRelated(headers['content-type']!, body);
      expect(related.rootType).to.equal('application/soap+xml');
      expect(related.root.mediaType).to.equal('application/soap+xml');
      expect(related.root.body.subarray(0, 38).toString()).to.equal('<?xml version="1.0" encoding="UTF-8"?>');
      expect(related.root.body.toString('utf8').endsWith('</S12:Envelope>')).to.equal(true);
      expect(related.attachments).to.have.length(1);
      const attachment = related.attachments[0]!;
      expect(attachment.contentId).to.equal('phase4-att-ff0f8ad5-f982-48ba-b8e2-26997600f496@cid');
      expect(attachment.mediaType).to.equal('application/octet-stream');
      expect(attachment.headers['content-description']).to.equal('Attachment');
      // AES-GCM: a 12-byte IV and a 16-byte tag around the ciphertext, and the binary content kept byte for byte.
      const start = raw().indexOf(
        Buffer.from('Content-ID: <phase4-att-ff0f8ad5-f982-48ba-b8e2-26997600f496@cid>\r\n\r\n'),
      );
      const offset = start + 'Content-ID: <phase4-att-ff0f8ad5-f982-48ba-b8e2-26997600f496@cid>\r\n\r\n'.length;
      expect(attachment.body.equals(raw().subarray(offset, offset + attachment.body.length))).to.equal(true);
      expect(
        raw()
          .subarray(offset + attachment.body.length)
          .toString('latin1'),
      ).to.equal('\r\n------=_Part_0_1950117092.1769701143986--\r\n');
    });

    it('reads the Peppol UserMessage header', () => {
      const messaging = readMessaging(domOf('dump-raw.as4out'));
      expect(messaging.soapVersion).to.equal('1.2');
      expect(messaging.id).to.equal('phase4-msg-7dd929c7-ded5-4413-be57-d21af2c87b69');
      if (messaging.content.kind !== 'user') throw new Error('expected a UserMessage');
      const m = messaging.content.message;
      expect(m.messageInfo).to.deep.equal({
        timestamp: '2026-01-29T15:39:03.805Z',
        messageId: '17a7c374-efe3-41e2-ac0d-8a8f47529e47@phase4',
        refToMessageId: null,
      });
      expect(m.partyInfo).to.deep.equal({
        from: { partyId: { type: PEPPOL_PARTY_ID_TYPE, value: 'POP000306' }, role: EBMS_ROLE_INITIATOR },
        to: { partyId: { type: PEPPOL_PARTY_ID_TYPE, value: 'POP000306' }, role: EBMS_ROLE_RESPONDER },
      });
      expect(m.collaborationInfo).to.deep.equal({
        agreementRef: PEPPOL_AGREEMENT_REF,
        service: { type: 'cenbii-procid-ubl', value: 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0' },
        action:
          'busdox-docid-qns::urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1',
        conversationId: 'phase4@Conv-4045816466640743733',
      });
      expect(m.messageProperties).to.deep.equal([
        { name: 'originalSender', type: 'iso6523-actorid-upis', value: '9915:phase4-test-sender' },
        { name: 'finalRecipient', type: 'iso6523-actorid-upis', value: '9915:helger' },
      ]);
      expect(m.payloadInfo).to.have.length(1);
      expect(m.payloadInfo[0]!.href).to.equal('cid:phase4-att-ff0f8ad5-f982-48ba-b8e2-26997600f496@cid');
      expect(propertyValue(m.payloadInfo[0]!.properties, 'MimeType')).to.equal('application/xml');
      expect(propertyValue(m.payloadInfo[0]!.properties, 'CompressionType')).to.equal('application/gzip');
    });
  });

  describe('receipts, parsed', () => {
    it('ties each receipt to the message it acknowledges and reads its non-repudiation references', () => {
      const cases: Array<[string, string, number]> = [
        ['verify/helger.as4in', '3b3775c9-e88d-47f9-be5a-8e045ca2bc07@phase4', 3],
        ['verify/governikus.as4in', '6b52b4c0-de6a-46b8-8286-27bac7d1a463@phase4', 3],
        ['TestReceipt12.xml', '035e0a83-6dc5-427b-bcee-483475c65153@phase4', 3],
      ];
      for (const [file, ref, count] of cases) {
        const messaging = readMessaging(domOf(file));
        if (messaging.content.kind !== 'signal' || messaging.content.signal.kind !== 'receipt')
          throw new Error(`${file}: expected a receipt`);
        const signal = messaging.content.signal;
        expect(signal.messageInfo.refToMessageId, file).to.equal(ref);
        expect(signal.receipt.nonRepudiation, file).to.have.length(count);
        expect(signal.receipt.nonRepudiation.map((r) => r.digestMethod)).to.deep.equal(
          Array(count).fill('http://www.w3.org/2001/04/xmlenc#sha256'),
        );
        expect(signal.receipt.nonRepudiation[2]!.transforms[0]!.algorithm).to.match(
          /Attachment-Content-Signature-Transform$/,
        );
      }
      const helger = readMessaging(domOf('verify/helger.as4in'));
      if (helger.content.kind !== 'signal' || helger.content.signal.kind !== 'receipt')
        throw new Error('expected a receipt');
      expect(helger.content.signal.receipt.nonRepudiation[0]).to.deep.equal({
        uri: '#phase4-msg-9cb62f4d-7132-4b52-93cf-79aa82d8c12f',
        transforms: [{ algorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#', inclusivePrefixes: null }],
        digestMethod: 'http://www.w3.org/2001/04/xmlenc#sha256',
        digestValue: 'eBoEt57eL9ZtoOKfIC472DZMSSvngRaCoECibk7bKdU=',
      });
    });
  });

  describe('ebMS specification examples (soap11test, soap12test)', () => {
    const spec = (rel: string) => fs.readFileSync(path.join(phase4Dir(), rel));
    const parse = (rel: string) => parseUntrustedXmlDom(decodeUtf8Xml(spec(rel)));

    it('reads the realistic Peppol header of test-2023-03-15.xml as SOAP 1.2', () => {
      const messaging = readMessaging(parse('soap12test/test-2023-03-15.xml'));
      expect(messaging.soapVersion).to.equal('1.2');
      if (messaging.content.kind !== 'user') throw new Error('expected a UserMessage');
      expect(propertyValue(messaging.content.message.messageProperties, 'originalSender')).to.equal('9930:de322532962');
      expect(messaging.content.message.partyInfo.from.partyId.type).to.equal(PEPPOL_PARTY_ID_TYPE);
    });

    it('reads both errors of ErrorMessage.xml', () => {
      const messaging = readMessaging(parse('soap11test/ErrorMessage.xml'));
      if (messaging.content.kind !== 'signal' || messaging.content.signal.kind !== 'error')
        throw new Error('expected an error signal');
      expect(
        messaging.content.signal.errors.map((e) => [e.errorCode, e.origin, e.severity, e.description]),
      ).to.deep.equal([
        ['EBMS:0001', 'ebMS', 'failure', 'Value not recognized'],
        ['0101', 'Security', 'failure', 'Failed Authentication'],
      ]);
    });

    it('refuses what the specification examples say must fail', () => {
      expect(() => parse('soap12test/UserMessageWithCompressedPayload12.xml')).to.throw(/malformed XML/);
      expect(() => parse('soap12test/PullRequest12.xml')).to.throw(/malformed XML/);
      for (const [rel, why] of [
        ['soap11test/MessageInfoMissing.xml', /exactly one eb:MessageInfo/],
        ['soap11test/MessageInfoIDMissing.xml', /exactly one eb:MessageId/],
        ['soap11test/NoMessaging.xml', /not a SOAP Envelope/],
        ['soap11test/EmptyMessaging.xml', /exactly one UserMessage or SignalMessage/],
        ['soap11test/BundledMessage.xml', /exactly one UserMessage or SignalMessage/],
      ] as const) {
        expect(() => readMessaging(parse(rel)), rel).to.throw(why);
      }
    });
  });
});

function dayBefore(date: string): string {
  return new Date(new Date(`${date}T00:00:00Z`).getTime() - 86_400_000).toISOString().slice(0, 10);
}
