import { constants, publicEncrypt, randomBytes, randomUUID } from 'node:crypto';
import zlib from 'node:zlib';
import { expect } from 'chai';
import { PARTICIPANT_SCHEME } from '../../../src/domain/peppol/participantId.js';
import {
  BIS_BILLING_INVOICE,
  BIS_BILLING_PROCESS,
  DOCUMENT_ID_SCHEME,
  PROCESS_ID_SCHEME,
} from '../../../src/domain/peppol/smpDocuments.js';
import { peppolUserMessage } from '../../../src/domain/peppol/as4/peppolProfile.js';
import type { Sbdh } from '../../../src/domain/peppol/as4/sbdh.js';
import type { UserMessage } from '../../../src/domain/peppol/as4/userMessage.js';
import { openMessage, type OpenOptions, type OpenResult } from '../../../src/infrastructure/as4/as4Inbound.js';
import { SOAP12_CONTENT_TYPE } from '../../../src/infrastructure/as4/as4Outbound.js';
import { buildReceipt } from '../../../src/infrastructure/as4/as4Signals.js';
import { envelopeXml, receiptSignalXml, userMessageXml } from '../../../src/infrastructure/as4/ebmsWriter.js';
import { ALGORITHM, NS, TOKEN } from '../../../src/infrastructure/as4/namespaces.js';
import { writeMultipartRelated, type OutgoingPart } from '../../../src/infrastructure/as4/mimeMultipart.js';
import { writeSbdh } from '../../../src/infrastructure/as4/sbdhXml.js';
import { encryptAttachments } from '../../../src/infrastructure/as4/wsSecurityEncryption.js';
import { signEnvelope, type AttachmentContent } from '../../../src/infrastructure/as4/wsSecuritySignature.js';
import { checkCertificate } from '../../../src/infrastructure/peppol/certificates.js';
import { asProblem, makeTestAs4Pki, type TestAs4Pki } from '../../support/as4TestKeys.js';

const SENDER = 'POP000041';
const RECEIVER = 'POP000042';
const OTHER = 'POP000043';

const sbdh: Sbdh = {
  sender: { scheme: PARTICIPANT_SCHEME, value: '0208:0123456749' },
  receiver: { scheme: PARTICIPANT_SCHEME, value: '0208:0987654321' },
  document: {
    standard: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
    typeVersion: '2.1',
    instanceIdentifier: 'b6c8c4e0-1111-4e2a-9f00-000000000041',
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
const PAYLOAD = Buffer.from(
  writeSbdh(sbdh, '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>'),
  'utf8',
);

interface Compose {
  /** The UserMessage (its one PartInfo names cid:payload@test). */
  message?: UserMessage;
  /** The attachments as the signature covers them (after decryption): the payload by default. */
  attachments?: AttachmentContent[];
  encrypt?: boolean;
  /** Which of the attachments the signature covers (all by default). */
  signed?: (a: AttachmentContent) => boolean;
  signIds?: ('messaging' | 'body')[];
  /** Changes the SOAP envelope after signing (the encryption blocks are not signed). */
  soap?: (xml: string) => string;
  /** Changes the MIME attachments as they go on the wire. */
  wire?: (parts: OutgoingPart[]) => OutgoingPart[];
}

/**
 * What openMessage (the core of `POST /as4`) refuses, each with its ebMS error and reason, on
 * messages signed and encrypted with real keys and then changed in the one place a test is about:
 * the MIME packaging, the SOAP envelope, the encryption blocks (which the signature does not cover,
 * so a change there reaches the decryption checks), the signature's coverage, the payloads.
 */
describe('Opening an AS4 message: every refusal, with its ebMS error', function () {
  let pki: TestAs4Pki;
  before(async function () {
    this.timeout(60_000);
    pki = await makeTestAs4Pki([SENDER, RECEIVER, OTHER]);
  });
  after(async () => pki?.dispose());

  const ap = (seat: string) => pki.accessPoints[seat]!;
  const userMessage = (properties: { name: string; value: string }[] | null = null): UserMessage => {
    const message = peppolUserMessage(sbdh, {
      messageId: `${randomUUID()}@test`,
      timestamp: new Date().toISOString(),
      conversationId: randomUUID(),
      fromParty: SENDER,
      toParty: RECEIVER,
      payloadContentId: 'payload@test',
    });
    if (properties)
      message.payloadInfo[0]!.properties = properties.map((p) => ({ name: p.name, type: null, value: p.value }));
    return message;
  };
  const payload = (bytes: Buffer = zlib.gzipSync(PAYLOAD), mimeType = 'application/gzip'): AttachmentContent => ({
    contentId: 'payload@test',
    mimeType,
    bytes,
  });

  function compose(o: Compose = {}): { contentType: string; body: Buffer } {
    const message = o.message ?? userMessage();
    const attachments = o.attachments ?? [payload()];
    const encrypted =
      o.encrypt === false ? null : encryptAttachments(attachments, ap(RECEIVER).certificate, randomUUID);
    const ids = { messaging: `msg-${randomUUID()}`, body: `id-${randomUUID()}` };
    const signed = signEnvelope({
      envelope: envelopeXml(userMessageXml(message), ids),
      ids: (o.signIds ?? ['messaging', 'body']).map((k) => ids[k]),
      attachments: attachments.filter(o.signed ?? (() => true)),
      headerPrefix: encrypted?.headerXml ?? '',
      key: ap(SENDER),
      newId: randomUUID,
    });
    const parts: OutgoingPart[] = attachments.map((a) => ({
      contentId: a.contentId,
      contentType: 'application/octet-stream',
      body: encrypted ? encrypted.ciphertexts.get(a.contentId)! : a.bytes,
    }));
    return writeMultipartRelated(
      { contentType: SOAP12_CONTENT_TYPE, body: Buffer.from((o.soap ?? ((x) => x))(signed.xml), 'utf8') },
      (o.wire ?? ((p) => p))(parts),
    );
  }

  const open = (m: { contentType: string; body: Buffer }, options: Partial<OpenOptions> = {}) =>
    openMessage(m.contentType, m.body, {
      own: ap(RECEIVER),
      checkSigner: async (c) => asProblem(checkCertificate(c, 'ap', [pki.ca], new Date()).error),
      ...options,
    });
  /** The error of a refusal: [code, description], and the message id it names. */
  const refusal = (result: OpenResult) => {
    if (result.ok) throw new Error('expected the message to be refused');
    expect(result.error.refToMessageInError).to.equal(result.messageId);
    return [result.error.errorCode, result.error.description];
  };
  const opened = (result: OpenResult) => {
    if (!result.ok) throw new Error(`refused: ${result.error.errorCode} ${result.error.description}`);
    return result.opened;
  };

  it('opens the message as composed here (the refusals below change one thing each)', async () => {
    const result = opened(await open(compose()));
    if (result.kind !== 'user') throw new Error('expected a UserMessage');
    expect(result.payloads.map((p) => [p.contentId, p.mimeType, p.bytes.toString()])).to.deep.equal([
      ['payload@test', 'application/xml', PAYLOAD.toString()],
    ]);
    expect(result.signer.raw.equals(ap(SENDER).certificate.raw)).to.equal(true);
  });

  describe('the packaging', () => {
    it('another media type (EBMS:0007)', async () => {
      expect(refusal(await openMessage('Text/Plain', Buffer.from('x'), { own: ap(RECEIVER) }))).to.deep.equal([
        'EBMS:0007',
        'an AS4 message is multipart/related or application/soap+xml, not text/plain',
      ]);
      // content-type reads any text: what is not a media type is refused as another one.
      expect(refusal(await openMessage('multipart related', Buffer.from('x'), { own: ap(RECEIVER) }))).to.deep.equal([
        'EBMS:0007',
        'an AS4 message is multipart/related or application/soap+xml, not multipart related',
      ]);
    });

    it('a root part that is not SOAP 1.2, and MIME that does not parse (EBMS:0007)', async () => {
      const m = compose();
      const notSoap = m.body.toString('latin1').replace('Content-Type: application/soap+xml', 'Content-Type: text/xml');
      expect(refusal(await open({ ...m, body: Buffer.from(notSoap, 'latin1') }))).to.deep.equal([
        'EBMS:0007',
        'the root part is text/xml, not SOAP 1.2 (application/soap+xml)',
      ]);
      const twice = compose({ wire: (parts) => [...parts, parts[0]!] });
      expect(refusal(await open(twice))).to.deep.equal(['EBMS:0007', 'two parts have Content-ID <payload@test>']);
    });

    it('SOAP that is not XML, or SOAP 1.1 (EBMS:0009)', async () => {
      expect(
        refusal(await open({ contentType: SOAP12_CONTENT_TYPE, body: Buffer.from('<S12:Envelope') })),
      ).to.deep.equal([
        'EBMS:0009',
        "malformed XML: Couldn't find end of Start Tag Envelope line 1 (Line: 1, Column: 14)",
      ]);
      const soap11 = compose({ soap: (xml) => xml.replace(`xmlns:S12="${NS.soap12}"`, `xmlns:S12="${NS.soap11}"`) });
      expect(refusal(await open(soap11))).to.deep.equal(['EBMS:0009', 'the Peppol AS4 profile requires SOAP 1.2']);
    });

    it('a signal as a bare SOAP body is opened as a signal', async () => {
      const receipt = buildReceipt('m@x', [], { own: ap(SENDER) });
      const result = opened(await open(receipt));
      expect(result.kind).to.equal('signal');
      expect(result.kind === 'signal' && result.signal.messageInfo.refToMessageId).to.equal('m@x');
    });

    it('a signal may carry a signed attachment, not encrypted', async () => {
      const attachment = payload(Buffer.from('evi\ndence'), 'text/plain');
      const ids = { messaging: `msg-${randomUUID()}`, body: `id-${randomUUID()}` };
      const info = { timestamp: new Date().toISOString(), messageId: 'r@x', refToMessageId: 'm@x' };
      const signed = signEnvelope({
        envelope: envelopeXml(receiptSignalXml(info, { nonRepudiation: [] }), ids),
        ids: [ids.messaging, ids.body],
        attachments: [attachment],
        key: ap(SENDER),
        newId: randomUUID,
      });
      const m = writeMultipartRelated({ contentType: SOAP12_CONTENT_TYPE, body: Buffer.from(signed.xml) }, [
        { contentId: attachment.contentId, contentType: 'text/plain', body: attachment.bytes },
      ]);
      expect(opened(await open(m)).kind).to.equal('signal');
      const unsigned = writeMultipartRelated({ contentType: SOAP12_CONTENT_TYPE, body: Buffer.from(signed.xml) }, [
        { contentId: attachment.contentId, contentType: 'application/pdf', body: attachment.bytes },
      ]);
      // Its media type is what the signature covers: as a PDF it is digested as bytes, not as CRLF text.
      expect(refusal(await open(unsigned))[0]).to.equal('EBMS:0101');
    });
  });

  describe('the encryption blocks (EBMS:0102 when it does not decrypt, EBMS:0103 when it breaks the policy)', () => {
    const key = (xml: string) => /<xenc:EncryptedKey [\s\S]*<\/xenc:EncryptedKey>/.exec(xml)![0];
    const data = (xml: string) => /<xenc:EncryptedData [\s\S]*?<\/xenc:EncryptedData>/.exec(xml)![0];
    const inKey = (edit: (encryptedKey: string) => string) => (xml: string) => xml.replace(key(xml), edit(key(xml)));
    const inData = (edit: (encryptedData: string) => string) => (xml: string) =>
      xml.replace(data(xml), edit(data(xml)));
    const refusedFor = async (soap: (xml: string) => string) => refusal(await open(compose({ soap })));

    it('a second EncryptedKey', async () => {
      expect(await refusedFor((xml) => xml.replace(key(xml), key(xml) + key(xml)))).to.deep.equal([
        'EBMS:0103',
        'the message has more than one EncryptedKey',
      ]);
    });

    it('another key transport, or none', async () => {
      const rsa15 = 'http://www.w3.org/2001/04/xmlenc#rsa-1_5';
      expect(await refusedFor(inKey((k) => k.replace(ALGORITHM.rsaOaep, rsa15)))).to.deep.equal([
        'EBMS:0103',
        `key transport ${rsa15} (Peppol requires ${ALGORITHM.rsaOaep})`,
      ]);
      expect(
        await refusedFor(inKey((k) => k.replace(/<xenc:EncryptionMethod [\s\S]*?<\/xenc:EncryptionMethod>/, ''))),
      ).to.deep.equal(['EBMS:0103', `key transport missing (Peppol requires ${ALGORITHM.rsaOaep})`]);
    });

    it('RSA-OAEP with another digest or mask generation function', async () => {
      const reason = ['EBMS:0103', 'key transport must use RSA-OAEP with SHA-256 and MGF1-SHA-256'];
      const sha1 = 'http://www.w3.org/2000/09/xmldsig#sha1';
      expect(
        await refusedFor(inKey((k) => k.replace(`Algorithm="${ALGORITHM.sha256}"`, `Algorithm="${sha1}"`))),
      ).to.deep.equal(reason);
      expect(await refusedFor(inKey((k) => k.replace(ALGORITHM.mgf1Sha256, `${NS.xenc11}mgf1sha1`)))).to.deep.equal(
        reason,
      );
      expect(await refusedFor(inKey((k) => k.replace(/<xenc11:MGF [^>]*\/>/, '')))).to.deep.equal(reason);
    });

    it('a key that names no certificate, or another one', async () => {
      const [code, reason] = await refusedFor(inKey((k) => k.replace(/<ds:KeyInfo [\s\S]*?<\/ds:KeyInfo>/, '')));
      expect([code, reason]).to.deep.equal([
        'EBMS:0102',
        'the EncryptedKey does not name its certificate: the key is not named by a direct reference to a BinarySecurityToken',
      ]);
      const other = compose();
      const forOther = encryptAttachments([payload()], ap(OTHER).certificate, randomUUID);
      const otherKey = /<xenc:EncryptedKey [\s\S]*<\/xenc:EncryptedKey>/.exec(forOther.headerXml)![0];
      const otherToken = /<wsse:BinarySecurityToken [\s\S]*?<\/wsse:BinarySecurityToken>/.exec(forOther.headerXml)![0];
      const swapped = other.body
        .toString('latin1')
        .replace(
          /<xenc:EncryptedKey [\s\S]*<\/xenc:EncryptedKey>/,
          otherKey.replace(/URI="#ED-[^"]+"/, (u) => u),
        )
        .replace('<xenc:EncryptedKey ', `${otherToken}<xenc:EncryptedKey `);
      const result = refusal(await open({ ...other, body: Buffer.from(swapped, 'latin1') }));
      expect(result).to.deep.equal([
        'EBMS:0102',
        `the key is encrypted for C=BE, O=Invoicing service tests, OU=PEPPOL TEST AP, CN=${OTHER}, not for this access point`,
      ]);
    });

    it('a wrapped key that does not decrypt, or is not 128 bits', async () => {
      const cipherValue = /<xenc:CipherValue>[^<]*<\/xenc:CipherValue>/;
      expect(
        await refusedFor(inKey((k) => k.replace(cipherValue, '<xenc:CipherValue>AAAA</xenc:CipherValue>'))),
      ).to.deep.equal(['EBMS:0102', 'the wrapped key does not decrypt with this access point key']);
      const aes256 = publicEncrypt(
        { key: ap(RECEIVER).certificate.publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
        randomBytes(32),
      );
      // Wrapped over lines, as base64 often is: the line breaks are no part of it.
      const wrapped = aes256.toString('base64').replace(/(.{76})/g, '$1\n');
      expect(
        await refusedFor(inKey((k) => k.replace(cipherValue, `<xenc:CipherValue>${wrapped}</xenc:CipherValue>`))),
      ).to.deep.equal(['EBMS:0103', 'the content key has 256 bits; AES-128-GCM takes 128']);
    });

    it('a key that lists no data, or data not in this message', async () => {
      const noList = ['EBMS:0103', 'the EncryptedKey has no ReferenceList'];
      expect(
        await refusedFor(inKey((k) => k.replace(/<xenc:ReferenceList>[\s\S]*<\/xenc:ReferenceList>/, ''))),
      ).to.deep.equal(noList);
      expect(
        await refusedFor(
          inKey((k) => k.replace(/<xenc:ReferenceList>[\s\S]*<\/xenc:ReferenceList>/, '<xenc:ReferenceList/>')),
        ),
      ).to.deep.equal(noList);
      expect(await refusedFor(inKey((k) => k.replace(/URI="#(ED-[^"]+)"/, 'URI="$1"')))).to.match(
        /^EBMS:0103,DataReference ED-[^ ]+ is not a same-document reference$/,
      );
      expect(await refusedFor(inKey((k) => k.replace(/ URI="#ED-[^"]+"/, '')))).to.deep.equal([
        'EBMS:0103',
        'DataReference  is not a same-document reference',
      ]);
      expect(await refusedFor(inKey((k) => k.replace(/URI="#ED-[^"]+"/, 'URI="#nowhere"')))).to.deep.equal([
        'EBMS:0102',
        'no element has the id nowhere',
      ]);
    });

    it('a reference to something that is not AES-128-GCM EncryptedData of an attachment', async () => {
      const toBody = refusal(
        await open(
          compose({
            soap: (xml) =>
              inKey((k) => k.replace(/URI="#ED-[^"]+"/, `URI="#${/S12:Body [^>]*wsu:Id="([^"]+)"/.exec(xml)![1]}"`))(
                xml,
              ),
          }),
        ),
      );
      expect(toBody[0]).to.equal('EBMS:0103');
      expect(toBody[1]).to.match(/^#id-[^ ]+ is not an EncryptedData$/);
      // An element in the XML Encryption namespace, not EncryptedData; an EncryptedData in another namespace.
      for (const edit of [
        (d: string) =>
          d
            .replace(/^<xenc:EncryptedData /, '<xenc:EncryptionProperties ')
            .replace(/<\/xenc:EncryptedData>$/, '</xenc:EncryptionProperties>'),
        (d: string) =>
          d
            .replace(
              /^<xenc:EncryptedData xmlns:xenc="[^"]+"/,
              '<x:EncryptedData xmlns:x="urn:x" xmlns:xenc="http://www.w3.org/2001/04/xmlenc#"',
            )
            .replace(/<\/xenc:EncryptedData>$/, '</x:EncryptedData>'),
      ]) {
        const [code, reason] = await refusedFor(inData(edit));
        expect(code).to.equal('EBMS:0103');
        expect(reason).to.match(/^#ED-[^ ]+ is not an EncryptedData$/);
      }
      const cases: [(d: string) => string, RegExp][] = [
        [
          (d) => d.replace(ALGORITHM.attachmentContentOnly, 'http://www.w3.org/2001/04/xmlenc#Content'),
          /is not Attachment-Content-Only$/,
        ],
        [(d) => d.replace(ALGORITHM.aes128Gcm, 'http://www.w3.org/2001/04/xmlenc#aes128-cbc'), /is not AES-128-GCM$/],
        [(d) => d.replace(/<xenc:EncryptionMethod [^>]*\/>/, ''), /is not AES-128-GCM$/],
        [
          (d) => d.replace('URI="cid:payload@test"', 'URI="http://example.com/payload"'),
          /does not reference an attachment$/,
        ],
        [(d) => d.replace(/<xenc:CipherData>[\s\S]*<\/xenc:CipherData>/, ''), /does not reference an attachment$/],
      ];
      for (const [edit, reason] of cases) {
        const [code, description] = await refusedFor(inData(edit));
        expect(code).to.equal('EBMS:0103');
        expect(description)
          .to.match(/^EncryptedData #ED-[^ ]+ /)
          .and.match(reason);
      }
    });

    it('data whose attachment is not in the message, or is encrypted twice', async () => {
      expect(refusal(await open(compose({ wire: () => [] })))).to.deep.equal([
        'EBMS:0102',
        'the encrypted attachment cid:payload@test is not in the message',
      ]);
      const twice = await refusedFor(inKey((k) => k.replace(/(<xenc:DataReference [^>]*\/>)/, '$1$1')));
      expect(twice).to.deep.equal(['EBMS:0103', 'attachment cid:payload@test is encrypted twice']);
    });

    it('ciphertext shorter than an IV and a tag, or that does not authenticate', async () => {
      const cut = (length: number) =>
        compose({ wire: (parts) => parts.map((p) => ({ ...p, body: p.body.subarray(0, length) })) });
      expect(refusal(await open(cut(27)))).to.deep.equal([
        'EBMS:0102',
        'attachment cid:payload@test is too short for AES-GCM',
      ]);
      for (const length of [28, 40])
        expect(refusal(await open(cut(length)))).to.deep.equal([
          'EBMS:0102',
          'attachment cid:payload@test does not decrypt (altered, or another key)',
        ]);
    });

    it("takes an attachment's media type from its EncryptedData: the signature covers an XML one in canonical form", async () => {
      const xml = Buffer.from('<a  b="1"/>');
      const message = userMessage([]);
      const result = opened(await open(compose({ message, attachments: [payload(xml, 'application/xml')] })));
      expect(result.kind === 'user' && result.payloads.map((p) => [p.mimeType, p.bytes.toString()])).to.deep.equal([
        ['application/xml', '<a  b="1"/>'],
      ]);
      // Without a MimeType it is application/octet-stream: digested as bytes, which the signer did not.
      const noType = compose({
        message,
        attachments: [payload(xml, 'application/xml')],
        soap: inData((d) => d.replace(/ MimeType="[^"]*"/, '')),
      });
      expect(refusal(await open(noType))).to.deep.equal([
        'EBMS:0101',
        'the signature does not verify: the digest of cid:payload@test does not match',
      ]);
      const bytes = compose({
        message,
        attachments: [payload(xml, 'application/octet-stream')],
        soap: inData((d) => d.replace(/ MimeType="[^"]*"/, '')),
      });
      expect((opened(await open(bytes)) as { payloads: { mimeType: string }[] }).payloads[0]!.mimeType).to.equal(
        'application/octet-stream',
      );
    });

    it('a message without a Security header (EBMS:0101)', async () => {
      const result = await refusedFor((xml) => xml.replace(/<wsse:Security [\s\S]*<\/wsse:Security>/, ''));
      expect(result).to.deep.equal(['EBMS:0101', 'the message has no wsse:Security header']);
    });
  });

  describe('what the signature covers (EBMS:0103)', () => {
    it('not eb:Messaging, not the Body, not an attachment', async () => {
      expect(refusal(await open(compose({ signIds: ['body'] })))).to.deep.equal([
        'EBMS:0103',
        'the signature does not cover eb:Messaging',
      ]);
      expect(refusal(await open(compose({ signIds: ['messaging'] })))).to.deep.equal([
        'EBMS:0103',
        'the signature does not cover the SOAP Body',
      ]);
      expect(refusal(await open(compose({ signed: () => false })))).to.deep.equal([
        'EBMS:0103',
        'the signature does not cover attachment cid:payload@test',
      ]);
    });

    it('eb:Messaging or the Body without an id', async () => {
      const noId = (element: string) => (xml: string) =>
        xml.replace(new RegExp(`(<${element} [^>]*?) wsu:Id="[^"]+"`), '$1');
      expect(refusal(await open(compose({ signIds: ['body'], soap: noId('eb:Messaging') })))).to.deep.equal([
        'EBMS:0103',
        'the signature does not cover eb:Messaging',
      ]);
      expect(refusal(await open(compose({ signIds: ['messaging'], soap: noId('S12:Body') })))).to.deep.equal([
        'EBMS:0103',
        'the signature does not cover the SOAP Body',
      ]);
    });

    it('an unencrypted attachment of a UserMessage', async () => {
      expect(refusal(await open(compose({ encrypt: false })))).to.deep.equal([
        'EBMS:0103',
        'attachment cid:payload@test is not encrypted',
      ]);
    });
  });

  describe('the signer', () => {
    it('is judged by checkSigner when given, and not otherwise', async () => {
      const m = compose();
      expect(refusal(await open(m, { checkSigner: async () => asProblem('revoked') }))).to.deep.equal([
        'EBMS:0101',
        'the signing certificate is not accepted: revoked',
      ]);
      expect(opened(await openMessage(m.contentType, m.body, { own: ap(RECEIVER) })).kind).to.equal('user');
    });

    it('an error that is no refusal of ours is still an ebMS error (EBMS:0004), never an exception', async () => {
      const result = await open(compose(), {
        checkSigner: () => {
          throw new Error('the trust store is gone');
        },
      });
      expect(refusal(result)).to.deep.equal([
        'EBMS:0004',
        'the message could not be processed: the trust store is gone',
      ]);
    });
  });

  describe('the payloads', () => {
    const withPart = (href: string) => {
      const message = userMessage();
      message.payloadInfo[0]!.href = href;
      return message;
    };

    it('a PartInfo that names no attachment of the message (EBMS:0011)', async () => {
      for (const href of ['http://example.com/payload', 'cid:elsewhere@test'])
        expect(refusal(await open(compose({ message: withPart(href) })))).to.deep.equal([
          'EBMS:0011',
          `the payload ${href} is not in the message`,
        ]);
    });

    it('an attachment that no PartInfo names (EBMS:0007)', async () => {
      const stray = { contentId: 'stray@test', mimeType: 'application/gzip', bytes: Buffer.from('x') };
      expect(refusal(await open(compose({ attachments: [payload(), stray] })))).to.deep.equal([
        'EBMS:0007',
        'attachment cid:stray@test is not named in PayloadInfo',
      ]);
    });

    it('another compression (EBMS:0008), none (taken as it is), within the size limit or not (EBMS:0303)', async () => {
      const bzip = userMessage([
        { name: 'MimeType', value: 'application/xml' },
        { name: 'CompressionType', value: 'application/x-bzip2' },
      ]);
      expect(refusal(await open(compose({ message: bzip })))).to.deep.equal([
        'EBMS:0008',
        'compression application/x-bzip2 is not supported',
      ]);
      const plain = compose({
        message: userMessage([{ name: 'MimeType', value: 'application/xml' }]),
        attachments: [payload(PAYLOAD, 'application/xml')],
      });
      const limits = (maxPayloadBytes: number) => ({
        limits: { mime: { maxParts: 4, maxPartBytes: 1 << 20, maxTotalBytes: 1 << 21 }, maxPayloadBytes },
      });
      const result = opened(await open(plain, limits(PAYLOAD.length)));
      expect(result.kind === 'user' && result.payloads[0]!.bytes.equals(PAYLOAD)).to.equal(true);
      expect(refusal(await open(plain, limits(PAYLOAD.length - 1)))).to.deep.equal([
        'EBMS:0303',
        `the payload is larger than ${PAYLOAD.length - 1} bytes`,
      ]);
      expect(refusal(await open(compose(), limits(PAYLOAD.length - 1)))).to.deep.equal([
        'EBMS:0303',
        `the payload decompresses to more than ${PAYLOAD.length - 1} bytes`,
      ]);
    });
  });

  it('encrypts as phase4 does: the receiver token, one EncryptedKey (RSA-OAEP, SHA-256, MGF1-SHA-256), EncryptedData per attachment', () => {
    const ids = ['1', '2', '3', '4', '5'];
    const encrypted = encryptAttachments(
      [payload(), { contentId: 'second@test', mimeType: 'application/xml', bytes: Buffer.from('<a/>') }],
      ap(RECEIVER).certificate,
      () => ids.shift()!,
    );
    const token = `<wsse:BinarySecurityToken EncodingType="${TOKEN.base64Binary}" ValueType="${TOKEN.x509v3}" wsu:Id="X509-1">${ap(RECEIVER).certificate.raw.toString('base64')}</wsse:BinarySecurityToken>`;
    const dataXml = (id: string, mimeType: string, contentId: string) =>
      `<xenc:EncryptedData xmlns:xenc="${NS.xenc}" Id="${id}" MimeType="${mimeType}" Type="${ALGORITHM.attachmentContentOnly}">` +
      `<xenc:EncryptionMethod Algorithm="${ALGORITHM.aes128Gcm}"/>` +
      `<ds:KeyInfo xmlns:ds="${NS.ds}"><wsse:SecurityTokenReference xmlns:wsse11="${NS.wsse11}" wsse11:TokenType="${TOKEN.encryptedKey}"><wsse:Reference URI="#EK-2"/></wsse:SecurityTokenReference></ds:KeyInfo>` +
      `<xenc:CipherData><xenc:CipherReference URI="cid:${contentId}"><xenc:Transforms><ds:Transform xmlns:ds="${NS.ds}" Algorithm="${ALGORITHM.attachmentCiphertext}"/></xenc:Transforms></xenc:CipherReference></xenc:CipherData></xenc:EncryptedData>`;
    const header = encrypted.headerXml.replace(/<xenc:CipherValue>[^<]+</, '<xenc:CipherValue>…<');
    expect(header).to.equal(
      token +
        `<xenc:EncryptedKey xmlns:xenc="${NS.xenc}" Id="EK-2"><xenc:EncryptionMethod Algorithm="${ALGORITHM.rsaOaep}"><ds:DigestMethod xmlns:ds="${NS.ds}" Algorithm="${ALGORITHM.sha256}"/>` +
        `<xenc11:MGF xmlns:xenc11="${NS.xenc11}" Algorithm="${ALGORITHM.mgf1Sha256}"/></xenc:EncryptionMethod>` +
        `<ds:KeyInfo xmlns:ds="${NS.ds}"><wsse:SecurityTokenReference><wsse:Reference URI="#X509-1" ValueType="${TOKEN.x509v3}"/></wsse:SecurityTokenReference></ds:KeyInfo>` +
        '<xenc:CipherData><xenc:CipherValue>…</xenc:CipherValue></xenc:CipherData>' +
        '<xenc:ReferenceList><xenc:DataReference URI="#ED-3"/><xenc:DataReference URI="#ED-4"/></xenc:ReferenceList></xenc:EncryptedKey>' +
        dataXml('ED-3', 'application/gzip', 'payload@test') +
        dataXml('ED-4', 'application/xml', 'second@test'),
    );
    // IV ‖ ciphertext ‖ tag: 12 + the plaintext's length + 16 bytes.
    expect(encrypted.ciphertexts.get('second@test')!.length).to.equal(12 + 4 + 16);
  });
});
