import { randomUUID } from 'node:crypto';
import zlib from 'node:zlib';
import { expect } from 'chai';
import { PARTICIPANT_SCHEME } from '../../../src/domain/peppol/participantId.js';
import {
  BIS_BILLING_INVOICE,
  BIS_BILLING_PROCESS,
  DOCUMENT_ID_SCHEME,
  PROCESS_ID_SCHEME,
} from '../../../src/domain/peppol/smpDocuments.js';
import { ebmsError, notServiced } from '../../../src/domain/peppol/as4/ebmsError.js';
import {
  checkPeppolHeader,
  checkSbdhAgainstHeader,
  checkSenderIsSigner,
  GZIP_MIME_TYPE,
  peppolUserMessage,
} from '../../../src/domain/peppol/as4/peppolProfile.js';
import type { Sbdh } from '../../../src/domain/peppol/as4/sbdh.js';
import { openMessage, type OpenResult } from '../../../src/infrastructure/as4/as4Inbound.js';
import {
  buildUserMessage,
  SOAP12_CONTENT_TYPE,
  type BuiltMessage,
} from '../../../src/infrastructure/as4/as4Outbound.js';
import { buildErrorSignal, buildReceipt, readSignalResponse } from '../../../src/infrastructure/as4/as4Signals.js';
import { envelopeXml, userMessageXml } from '../../../src/infrastructure/as4/ebmsWriter.js';
import { readMultipartRelated, writeMultipartRelated } from '../../../src/infrastructure/as4/mimeMultipart.js';
import { readSbdh, writeSbdh } from '../../../src/infrastructure/as4/sbdhXml.js';
import { encryptAttachments } from '../../../src/infrastructure/as4/wsSecurityEncryption.js';
import { signEnvelope, type AttachmentContent } from '../../../src/infrastructure/as4/wsSecuritySignature.js';
import { commonNameOf } from '../../../src/infrastructure/peppol/certificates.js';
import { checkCertificate } from '../../../src/infrastructure/peppol/certificates.js';
import { makeTestAs4Pki, type TestAs4Pki } from '../../support/as4TestKeys.js';

const INVOICE = `<?xml version="1.0" encoding="UTF-8"?>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
  <cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0</cbc:CustomizationID>
  <cbc:ID>INV-1 &amp; ünïcødé €</cbc:ID>
</Invoice>`;

const sbdh: Sbdh = {
  sender: { scheme: PARTICIPANT_SCHEME, value: '0208:0123456749' },
  receiver: { scheme: PARTICIPANT_SCHEME, value: '0208:0987654321' },
  document: {
    standard: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
    typeVersion: '2.1',
    instanceIdentifier: 'b6c8c4e0-1111-4e2a-9f00-000000000001',
    type: 'Invoice',
    creationDateAndTime: '2026-03-01T10:00:00Z',
  },
  documentType: { scheme: DOCUMENT_ID_SCHEME, value: BIS_BILLING_INVOICE },
  process: { scheme: PROCESS_ID_SCHEME, value: BIS_BILLING_PROCESS },
  countryC1: 'BE',
  mlsTo: null,
  mlsType: null,
  extraScopes: [],
};

const SENDER = 'POP000001';
const RECEIVER = 'POP000002';
const STRANGER = 'POP000003';

describe('AS4 messages: build, sign, encrypt, and open again', function () {
  let pki: TestAs4Pki;
  const payload = Buffer.from(writeSbdh(sbdh, INVOICE), 'utf8');

  before(async function () {
    this.timeout(60_000);
    pki = await makeTestAs4Pki([SENDER, RECEIVER, STRANGER]);
  });
  after(async () => pki?.dispose());

  const ap = (seat: string) => pki.accessPoints[seat]!;
  const userMessage = (messageId = `${randomUUID()}@test`, contentId = `payload-${randomUUID()}@test`) =>
    peppolUserMessage(sbdh, {
      messageId,
      timestamp: new Date().toISOString(),
      conversationId: randomUUID(),
      fromParty: SENDER,
      toParty: RECEIVER,
      payloadContentId: contentId,
    });
  const build = (body: Buffer = payload) =>
    buildUserMessage({ message: userMessage(), payload: body, sender: ap(SENDER), receiver: ap(RECEIVER).certificate });
  const open = (
    m: { contentType: string; body: Buffer },
    own = ap(RECEIVER),
    extra: Partial<Parameters<typeof openMessage>[2]> = {},
  ) =>
    openMessage(m.contentType, m.body, {
      own,
      checkSigner: async (c) => {
        const error = checkCertificate(c, 'ap', [pki.ca], new Date()).error;
        return error ? { reason: error, temporary: false } : null;
      },
      ...extra,
    });
  const refused = (result: OpenResult) => {
    if (result.ok) throw new Error('expected the message to be refused');
    return result.error;
  };

  /** The message with its SOAP part and/or attachment replaced, repackaged as MIME. */
  function rewrite(
    built: BuiltMessage,
    soap: (xml: string) => string,
    attachment: (bytes: Buffer) => Buffer = (b) => b,
  ) {
    const related = readMultipartRelated(built.contentType, built.body);
    return writeMultipartRelated(
      { contentType: SOAP12_CONTENT_TYPE, body: Buffer.from(soap(related.root.body.toString('utf8')), 'utf8') },
      related.attachments.map((a) => ({
        contentId: a.contentId!,
        contentType: a.headers['content-type']!,
        body: attachment(a.body),
      })),
    );
  }

  /** A message put together step by step, to make the ones buildUserMessage never makes. */
  async function compose(options: { compressed?: Buffer; encrypt?: boolean; signAttachment?: boolean }) {
    const message = userMessage();
    const contentId = message.payloadInfo[0]!.href.slice(4);
    const plain: AttachmentContent = {
      contentId,
      mimeType: GZIP_MIME_TYPE,
      bytes: options.compressed ?? zlib.gzipSync(payload),
    };
    const ids = { messaging: `msg-${randomUUID()}`, body: `id-${randomUUID()}` };
    const encrypted =
      options.encrypt === false ? null : encryptAttachments([plain], ap(RECEIVER).certificate, randomUUID);
    const signed = signEnvelope({
      envelope: envelopeXml(userMessageXml(message), ids),
      ids: [ids.messaging, ids.body],
      attachments: options.signAttachment === false ? [] : [plain],
      headerPrefix: encrypted?.headerXml ?? '',
      key: ap(SENDER),
      newId: randomUUID,
    });
    return writeMultipartRelated({ contentType: SOAP12_CONTENT_TYPE, body: Buffer.from(signed.xml, 'utf8') }, [
      {
        contentId,
        contentType: 'application/octet-stream',
        body: encrypted ? encrypted.ciphertexts.get(contentId)! : plain.bytes,
      },
    ]);
  }

  it('opens what it built: same header, same payload, the sender as signer, the signed references', async () => {
    const built = await build();
    const result = await open(built);
    if (!result.ok) throw new Error(result.error.description ?? 'refused');
    const opened = result.opened;
    if (opened.kind !== 'user') throw new Error('expected a UserMessage');
    expect(opened.message.messageInfo.messageId).to.equal(built.messageId);
    expect(opened.payloads).to.have.length(1);
    expect(opened.payloads[0]!.bytes.equals(payload)).to.equal(true);
    expect(opened.payloads[0]!.mimeType).to.equal('application/xml');
    expect(opened.signer.subject).to.contain(`CN=${SENDER}`);
    expect(opened.references).to.deep.equal(built.references);
    expect(built.references.map((r) => r.uri.slice(0, 4))).to.deep.equal(['#msg', '#id-', 'cid:']);
    expect(checkPeppolHeader(opened.message, RECEIVER)).to.deep.equal([]);
    expect(commonNameOf(opened.signer)).to.equal(SENDER);
    expect(checkSenderIsSigner(opened.message, commonNameOf(opened.signer))).to.equal(null);
    const read = readSbdh(opened.payloads[0]!.bytes);
    if (!read.ok) throw new Error(read.message);
    expect(read.sbdh).to.deep.equal(sbdh);
    expect(read.businessDocument).to.contain('<cbc:ID>INV-1 &amp; ünïcødé €</cbc:ID>');
    expect(checkSbdhAgainstHeader(opened.message, read.sbdh)).to.deep.equal([]);
  });

  it('puts neither the payload nor its gzip on the wire: the attachment is AES-GCM ciphertext', async () => {
    const built = await build();
    const related = readMultipartRelated(built.contentType, built.body);
    expect(related.root.mediaType).to.equal('application/soap+xml');
    const wire = related.attachments[0]!.body;
    expect(wire.subarray(0, 2).equals(Buffer.from([0x1f, 0x8b]))).to.equal(false);
    expect(wire.includes(Buffer.from('Invoice'))).to.equal(false);
    const soap = related.root.body.toString('utf8');
    expect(soap)
      .to.contain('http://www.w3.org/2009/xmlenc11#aes128-gcm')
      .and.contain('http://www.w3.org/2009/xmlenc11#mgf1sha256');
    expect(soap).to.contain(`MimeType="${GZIP_MIME_TYPE}"`);
  });

  describe('refuses, with the ebMS error that says why', () => {
    it('a changed ebMS header: EBMS:0101, the eb:Messaging digest', async () => {
      const built = await build();
      const error = refused(
        await open(rewrite(built, (s) => s.replace(/<eb:ConversationId>[^<]+</, '<eb:ConversationId>forged<'))),
      );
      expect(error.errorCode).to.equal('EBMS:0101');
      expect(error.refToMessageInError).to.equal(built.messageId);
      expect(error.description).to.match(/the digest of #msg-[0-9a-f-]+ does not match/);
    });

    it('a changed SOAP Body: EBMS:0101', async () => {
      const error = refused(
        await open(
          rewrite(await build(), (s) => s.replace(/<S12:Body ([^>]+)\/>/, '<S12:Body $1><extra/></S12:Body>')),
        ),
      );
      expect(error.errorCode).to.equal('EBMS:0101');
      expect(error.description).to.match(/the digest of #id-[0-9a-f-]+ does not match/);
    });

    it('a changed SignatureValue: EBMS:0101', async () => {
      const error = refused(
        await open(
          rewrite(await build(), (s) =>
            s.replace(/<ds:SignatureValue>(.)/, (_m, c: string) => `<ds:SignatureValue>${c === 'A' ? 'B' : 'A'}`),
          ),
        ),
      );
      expect(error.errorCode).to.equal('EBMS:0101');
      expect(error.description).to.match(/SignatureValue does not match SignedInfo/);
    });

    it("another certificate in place of the signer's: EBMS:0101", async () => {
      const built = await build();
      const own = ap(SENDER).certificate.raw.toString('base64');
      const error = refused(
        await open(rewrite(built, (s) => s.replace(own, ap(STRANGER).certificate.raw.toString('base64')))),
      );
      expect(error.errorCode).to.equal('EBMS:0101');
    });

    it('a changed attachment: EBMS:0102, the AES-GCM tag does not authenticate', async () => {
      const built = await build();
      const error = refused(
        await open(
          rewrite(
            built,
            (s) => s,
            (b) => Buffer.concat([b.subarray(0, 40), Buffer.from([b[40]! ^ 1]), b.subarray(41)]),
          ),
        ),
      );
      expect(error.errorCode).to.equal('EBMS:0102');
      expect(error.description).to.match(/does not decrypt/);
    });

    it('a message encrypted for another access point: EBMS:0102', async () => {
      const error = refused(await open(await build(), ap(STRANGER)));
      expect(error.errorCode).to.equal('EBMS:0102');
      expect(error.description).to.contain('not for this access point');
    });

    it('a signer the trust check refuses: EBMS:0101 with its reason', async () => {
      const error = refused(
        await open(await build(), ap(RECEIVER), {
          checkSigner: async () => ({ reason: 'not issued by a trusted Peppol CA', temporary: false }),
        }),
      );
      expect(error.errorCode).to.equal('EBMS:0101');
      expect(error.description).to.contain('not issued by a trusted Peppol CA');
    });

    it('a signer whose revocation status cannot be established now: EBMS:0004, which a sender retries', async () => {
      const error = refused(
        await open(await build(), ap(RECEIVER), {
          checkSigner: async () => ({ reason: 'the OCSP responder did not answer', temporary: true }),
        }),
      );
      expect(error.errorCode).to.equal('EBMS:0004');
      expect(error.description).to.equal(
        'the signing certificate is not accepted for now: the OCSP responder did not answer; send it again later',
      );
    });

    it('an unencrypted payload: EBMS:0103', async () => {
      const error = refused(await open(await compose({ encrypt: false })));
      expect(error.errorCode).to.equal('EBMS:0103');
      expect(error.description).to.match(/is not encrypted/);
    });

    it('an attachment the signature does not cover: EBMS:0103', async () => {
      const error = refused(await open(await compose({ signAttachment: false })));
      expect(error.errorCode).to.equal('EBMS:0103');
      expect(error.description).to.match(/does not cover attachment/);
    });

    it('a payload that is not gzip: EBMS:0303', async () => {
      const error = refused(await open(await compose({ compressed: Buffer.from('not gzip at all') })));
      expect(error.errorCode).to.equal('EBMS:0303');
      expect(error.description).to.match(/not valid gzip/);
    });

    it('a decompression bomb: EBMS:0303 before the output outgrows the limit', async () => {
      const bomb = zlib.gzipSync(Buffer.alloc(64 * 1024 * 1024));
      expect(bomb.length).to.be.below(100 * 1024);
      const error = refused(
        await open(await compose({ compressed: bomb }), ap(RECEIVER), {
          limits: { mime: { maxParts: 4, maxPartBytes: 1 << 20, maxTotalBytes: 2 << 20 }, maxPayloadBytes: 1 << 20 },
        }),
      );
      expect(error.errorCode).to.equal('EBMS:0303');
      expect(error.description).to.equal(`the payload decompresses to more than ${1 << 20} bytes`);
    });

    it('a second element with the signed id (signature wrapping): EBMS:0101', async () => {
      const built = await build();
      const wrapped = rewrite(built, (s) => {
        const id = /wsu:Id="(msg-[^"]+)"/.exec(s)![1]!;
        return s.replace(
          '</S12:Header>',
          `<x:Wrapper xmlns:x="urn:x" xmlns:wsu="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd" wsu:Id="${id}"/></S12:Header>`,
        );
      });
      const error = refused(await open(wrapped));
      expect(error.errorCode).to.equal('EBMS:0101');
      expect(error.description).to.match(/more than one element has the id msg-/);
    });

    it('not MIME, not SOAP, not XML: EBMS:0007 and EBMS:0009, never an exception', async () => {
      expect(refused(await open({ contentType: 'text/plain', body: Buffer.from('hello') })).errorCode).to.equal(
        'EBMS:0007',
      );
      expect(
        refused(
          await open({ contentType: 'multipart/related; boundary="x"', body: Buffer.from('--y\r\n\r\nz\r\n--y--') }),
        ).errorCode,
      ).to.equal('EBMS:0007');
      expect(
        refused(await open({ contentType: 'application/soap+xml', body: Buffer.from('<a><b></a>') })).errorCode,
      ).to.equal('EBMS:0009');
      expect(
        refused(
          await open({
            contentType: 'application/soap+xml',
            body: Buffer.from('<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>'),
          }),
        ).errorCode,
      ).to.equal('EBMS:0009');
      const noMessaging = `<S12:Envelope xmlns:S12="http://www.w3.org/2003/05/soap-envelope"><S12:Header/><S12:Body/></S12:Envelope>`;
      const error = refused(await open({ contentType: 'application/soap+xml', body: Buffer.from(noMessaging) }));
      expect([error.errorCode, error.description]).to.deep.equal([
        'EBMS:0009',
        'the message has no eb:Messaging header',
      ]);
    });
  });

  describe('receipts and errors', () => {
    const sent = async () => {
      const built = await build();
      const result = await open(built);
      if (!result.ok) throw new Error('refused');
      return { built, opened: result.opened };
    };

    it('a signed NRR receipt for what was received is accepted by the sender', async () => {
      const { built, opened } = await sent();
      const receipt = buildReceipt(built.messageId, opened.references, { own: ap(RECEIVER) });
      expect(receipt.contentType).to.equal(SOAP12_CONTENT_TYPE);
      const outcome = readSignalResponse(receipt.body, {
        messageId: built.messageId,
        references: built.references,
        receiver: ap(RECEIVER).certificate,
      });
      if (outcome.kind !== 'receipt')
        throw new Error(outcome.kind === 'invalid' ? outcome.reason : 'expected a receipt');
      expect(outcome.receiptMessageId).to.equal(receipt.messageId);
      expect(outcome.receipt.nonRepudiation).to.deep.equal(built.references);
      expect(outcome.signer.subject).to.contain(`CN=${RECEIVER}`);
    });

    it('refuses a receipt signed by another AP, for another message, with other digests, or changed after signing', async () => {
      const { built, opened } = await sent();
      const expected = { messageId: built.messageId, references: built.references, receiver: ap(RECEIVER).certificate };
      const byStranger = buildReceipt(built.messageId, opened.references, { own: ap(STRANGER) });
      expect(readSignalResponse(byStranger.body, expected)).to.deep.equal({
        kind: 'invalid',
        reason: 'the receipt is not signed with the receiving access point certificate',
      });
      const other = buildReceipt('someone-else@test', opened.references, { own: ap(RECEIVER) });
      expect(readSignalResponse(other.body, expected)).to.deep.include({
        kind: 'invalid',
        reason: `the receipt refers to someone-else@test, not to ${built.messageId}`,
      });
      const wrongDigest = opened.references.map((r, i) =>
        i === 2 ? { ...r, digestValue: Buffer.alloc(32).toString('base64') } : r,
      );
      const lying = buildReceipt(built.messageId, wrongDigest, { own: ap(RECEIVER) });
      expect(readSignalResponse(lying.body, expected)).to.deep.equal({
        kind: 'invalid',
        reason: `the receipt's digest of ${built.references[2]!.uri} differs from what we sent`,
      });
      const partial = buildReceipt(built.messageId, opened.references.slice(0, 2), { own: ap(RECEIVER) });
      expect(readSignalResponse(partial.body, expected)).to.deep.equal({
        kind: 'invalid',
        reason: `the receipt does not acknowledge ${built.references[2]!.uri}`,
      });
      const good = buildReceipt(built.messageId, opened.references, { own: ap(RECEIVER) });
      const changed = Buffer.from(
        good.body.toString('utf8').replace(built.references[0]!.digestValue, Buffer.alloc(32, 1).toString('base64')),
      );
      const outcome = readSignalResponse(changed, expected);
      expect(outcome.kind).to.equal('invalid');
      expect(outcome.kind === 'invalid' && outcome.reason).to.match(
        /the receipt's signature does not verify: the digest of #msg-/,
      );
    });

    it('reads a signed error: "not serviced" is permanent, an unspecified failure may be retried', async () => {
      const { built } = await sent();
      const expected = { messageId: built.messageId, references: built.references, receiver: ap(RECEIVER).certificate };
      const notHere = buildErrorSignal(
        [notServiced(built.messageId, 'receiver 0208:0987654321 unknown here')],
        built.messageId,
        { own: ap(RECEIVER) },
      );
      const outcome = readSignalResponse(notHere.body, expected);
      if (outcome.kind !== 'error') throw new Error('expected an error');
      expect(outcome).to.include({ disposition: 'permanent', signatureValid: true });
      expect(outcome.errors[0]).to.include({
        errorCode: 'EBMS:0004',
        errorDetail: 'PEPPOL:NOT_SERVICED',
        refToMessageInError: built.messageId,
      });
      const busy = buildErrorSignal([ebmsError('other', built.messageId, 'storage unavailable')], built.messageId, {
        own: ap(RECEIVER),
      });
      expect(readSignalResponse(busy.body, expected)).to.include({ kind: 'error', disposition: 'retryable' });
      expect(readSignalResponse(Buffer.from('<html>502</html>'), expected).kind).to.equal('invalid');
    });
  });
});
