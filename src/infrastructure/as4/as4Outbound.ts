import { randomUUID, type X509Certificate } from 'node:crypto';
import { GZIP_MIME_TYPE } from '../../domain/peppol/as4/peppolProfile.js';
import type { PartDigest } from '../../domain/peppol/as4/signalMessage.js';
import { contentIdOfHref, type UserMessage } from '../../domain/peppol/as4/userMessage.js';
import { compressPayload } from './compression.js';
import { envelopeXml, userMessageXml } from './ebmsWriter.js';
import { writeMultipartRelated } from './mimeMultipart.js';
import { encryptAttachments } from './wsSecurityEncryption.js';
import { signEnvelope, type SigningKey } from './wsSecuritySignature.js';

export const SOAP12_CONTENT_TYPE = 'application/soap+xml;charset=UTF-8';

export interface OutboundUserMessage {
  /** Its one PartInfo names the payload's Content-ID (peppolUserMessage builds it so). */
  message: UserMessage;
  /** The SBDH-wrapped business document, uncompressed. */
  payload: Buffer;
  sender: SigningKey;
  /** The receiving AP's certificate, from its SMP entry. */
  receiver: X509Certificate;
  newId?: () => string;
}

export interface BuiltMessage {
  messageId: string;
  /** The HTTP Content-Type (multipart/related with its boundary). */
  contentType: string;
  body: Buffer;
  /** What we signed, as the receiver's non-repudiation receipt must return it. */
  references: PartDigest[];
}

/**
 * A Peppol AS4 UserMessage ready to POST: the payload gzip-compressed, signed (eb:Messaging, Body
 * and the compressed payload), then the payload encrypted for the receiver; SOAP 1.2 root part and
 * the encrypted payload as a second MIME part.
 */
export async function buildUserMessage(input: OutboundUserMessage): Promise<BuiltMessage> {
  const newId = input.newId ?? randomUUID;
  if (input.message.payloadInfo.length !== 1) throw new Error('a Peppol UserMessage carries exactly one payload');
  const contentId = contentIdOfHref(input.message.payloadInfo[0]!.href);
  if (contentId === null)
    throw new Error(`the payload reference ${input.message.payloadInfo[0]!.href} is not a cid: URL`);
  const ids = { messaging: `msg-${newId()}`, body: `id-${newId()}` };
  const attachment = { contentId, mimeType: GZIP_MIME_TYPE, bytes: await compressPayload(input.payload) };
  const encrypted = encryptAttachments([attachment], input.receiver, newId);
  const signed = signEnvelope({
    envelope: envelopeXml(userMessageXml(input.message), ids),
    ids: [ids.messaging, ids.body],
    attachments: [attachment],
    headerPrefix: encrypted.headerXml,
    key: input.sender,
    newId,
  });
  const mime = writeMultipartRelated({ contentType: SOAP12_CONTENT_TYPE, body: Buffer.from(signed.xml, 'utf8') }, [
    {
      contentId,
      contentType: 'application/octet-stream',
      body: encrypted.ciphertexts.get(contentId)!,
      extraHeaders: { 'Content-Description': 'Attachment' },
    },
  ]);
  return {
    messageId: input.message.messageInfo.messageId,
    contentType: mime.contentType,
    body: mime.body,
    references: signed.references,
  };
}
