import { createPrivateKey, randomUUID, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import zlib from 'node:zlib';
import { PARTICIPANT_SCHEME } from '../../src/domain/peppol/participantId.js';
import {
  BIS_BILLING_INVOICE,
  BIS_BILLING_PROCESS,
  DOCUMENT_ID_SCHEME,
  PROCESS_ID_SCHEME,
} from '../../src/domain/peppol/smpDocuments.js';
import { GZIP_MIME_TYPE, peppolUserMessage } from '../../src/domain/peppol/as4/peppolProfile.js';
import type { Sbdh } from '../../src/domain/peppol/as4/sbdh.js';
import type { UserMessage } from '../../src/domain/peppol/as4/userMessage.js';
import { buildUserMessage, SOAP12_CONTENT_TYPE, type BuiltMessage } from '../../src/infrastructure/as4/as4Outbound.js';
import { envelopeXml, userMessageXml } from '../../src/infrastructure/as4/ebmsWriter.js';
import { readMultipartRelated, writeMultipartRelated } from '../../src/infrastructure/as4/mimeMultipart.js';
import { writeSbdh } from '../../src/infrastructure/as4/sbdhXml.js';
import { encryptAttachments } from '../../src/infrastructure/as4/wsSecurityEncryption.js';
import { signEnvelope, type SigningKey } from '../../src/infrastructure/as4/wsSecuritySignature.js';
import type { TestAccessPoint } from './testPki.js';
import type { TestService } from './service.js';

/**
 * A Peppol AS4 sender for tests of our receiving endpoint, on our own message core: the messages
 * the endpoint must accept, and the broken ones (tampered, wrongly signed, corrupted gzip) it must
 * refuse. phase4 is the independent sender (test/interop).
 */

export const signingKeyOf = (ap: TestAccessPoint): SigningKey => ({
  privateKey: createPrivateKey(readFileSync(ap.keyFile, 'utf8')),
  certificate: new X509Certificate(readFileSync(ap.certificateFile)),
});

export function invoiceSbdh(sender: string, receiver: string, overrides: Partial<Sbdh> = {}): Sbdh {
  return {
    sender: { scheme: PARTICIPANT_SCHEME, value: sender },
    receiver: { scheme: PARTICIPANT_SCHEME, value: receiver },
    document: {
      standard: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
      typeVersion: '2.1',
      instanceIdentifier: randomUUID(),
      type: 'Invoice',
      creationDateAndTime: new Date().toISOString(),
    },
    documentType: { scheme: DOCUMENT_ID_SCHEME, value: BIS_BILLING_INVOICE },
    process: { scheme: PROCESS_ID_SCHEME, value: BIS_BILLING_PROCESS },
    countryC1: 'BE',
    mlsTo: null,
    mlsType: null,
    extraScopes: [],
    ...overrides,
  };
}

export interface As4Send {
  sbdh: Sbdh;
  businessDocument: string;
  from: SigningKey & { seatId: string };
  toSeatId: string;
  receiverCertificate: X509Certificate;
  messageId?: string;
}

function userMessageOf(send: As4Send): UserMessage {
  return peppolUserMessage(send.sbdh, {
    messageId: send.messageId ?? `${randomUUID()}@test.sender`,
    timestamp: new Date().toISOString(),
    conversationId: randomUUID(),
    fromParty: send.from.seatId,
    toParty: send.toSeatId,
    payloadContentId: `payload-${randomUUID()}@test.sender`,
  });
}

export function buildAs4(send: As4Send): Promise<BuiltMessage> {
  return buildUserMessage({
    message: userMessageOf(send),
    payload: Buffer.from(writeSbdh(send.sbdh, send.businessDocument), 'utf8'),
    sender: send.from,
    receiver: send.receiverCertificate,
  });
}

/** A message whose (encrypted, signed) attachment is not gzip: what no sender of ours makes. */
export function buildAs4WithCompressed(send: As4Send, compressed: Buffer): { contentType: string; body: Buffer } {
  const message = userMessageOf(send);
  const contentId = message.payloadInfo[0]!.href.slice(4);
  const plain = { contentId, mimeType: GZIP_MIME_TYPE, bytes: compressed };
  const ids = { messaging: `msg-${randomUUID()}`, body: `id-${randomUUID()}` };
  const encrypted = encryptAttachments([plain], send.receiverCertificate, randomUUID);
  const signed = signEnvelope({
    envelope: envelopeXml(userMessageXml(message), ids),
    ids: [ids.messaging, ids.body],
    attachments: [plain],
    headerPrefix: encrypted.headerXml,
    key: send.from,
    newId: randomUUID,
  });
  return writeMultipartRelated({ contentType: SOAP12_CONTENT_TYPE, body: Buffer.from(signed.xml, 'utf8') }, [
    { contentId, contentType: 'application/octet-stream', body: encrypted.ciphertexts.get(contentId)! },
  ]);
}

/** The message with its SOAP part rewritten after signing (a tampered header), repackaged as MIME. */
export function tamperSoap(
  built: BuiltMessage,
  change: (xml: string) => string,
): { contentType: string; body: Buffer } {
  const related = readMultipartRelated(built.contentType, built.body);
  return writeMultipartRelated(
    { contentType: SOAP12_CONTENT_TYPE, body: Buffer.from(change(related.root.body.toString('utf8')), 'utf8') },
    related.attachments.map((a) => ({
      contentId: a.contentId!,
      contentType: a.headers['content-type']!,
      body: a.body,
    })),
  );
}

export const gzip = (bytes: Buffer): Buffer => zlib.gzipSync(bytes);

/** POSTs a message to the service's `/as4`: the HTTP status, Content-Type and body of the answer. */
export async function postAs4(
  service: TestService,
  message: { contentType: string; body: Buffer },
): Promise<{ status: number; contentType: string; body: Buffer }> {
  const res = await service.http
    .post('/as4')
    .set('Content-Type', message.contentType)
    .send(message.body)
    .buffer(true)
    .parse((response, done) => {
      const chunks: Buffer[] = [];
      response.on('data', (c: Buffer) => chunks.push(c));
      response.on('end', () => done(null, Buffer.concat(chunks)));
    });
  return { status: res.status, contentType: String(res.headers['content-type']), body: res.body as Buffer };
}
