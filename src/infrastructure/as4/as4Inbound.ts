import type { X509Certificate } from 'node:crypto';
import contentType from 'content-type';
import { ebmsError, type EbmsError } from '../../domain/peppol/as4/ebmsError.js';
import {
  GZIP_MIME_TYPE,
  PART_PROPERTY_COMPRESSION_TYPE,
  PART_PROPERTY_MIME_TYPE,
} from '../../domain/peppol/as4/peppolProfile.js';
import type { PartDigest, SignalMessage } from '../../domain/peppol/as4/signalMessage.js';
import { contentIdOfHref, propertyValue, type UserMessage } from '../../domain/peppol/as4/userMessage.js';
import { As4Failure } from './as4Failure.js';
import { decompressPayload } from './compression.js';
import { readMessaging, type ReadMessaging } from './ebmsReader.js';
import {
  DEFAULT_MIME_LIMITS,
  MimeError,
  readMultipartRelated,
  type MimeLimits,
  type MimePart,
} from './mimeMultipart.js';
import { decryptAttachments } from './wsSecurityEncryption.js';
import { signedIds, verifySignature, type AttachmentContent, type SigningKey } from './wsSecuritySignature.js';
import { assertUniqueIds, SecurityHeaderError } from './wsSecurityTokens.js';
import { decodeUtf8Xml, parseUntrustedXmlDom, UntrustedXmlError } from './xmlDom.js';

export interface InboundLimits {
  mime: MimeLimits;
  /** Largest payload after decompression (a gzip bomb stops here). */
  maxPayloadBytes: number;
}

export const DEFAULT_INBOUND_LIMITS: Readonly<InboundLimits> = Object.freeze({
  mime: DEFAULT_MIME_LIMITS,
  maxPayloadBytes: 100 * 1024 * 1024,
});

export interface Payload {
  contentId: string;
  /** The PartInfo's MimeType property (application/xml for an SBDH), or the attachment's type. */
  mimeType: string;
  /** Decrypted and decompressed. */
  bytes: Buffer;
}

interface Verified {
  /** The certificate that signed the message (trusted or not is the caller's question: see `checkSigner`). */
  signer: X509Certificate;
  /** The signed references, which a non-repudiation receipt returns. */
  references: PartDigest[];
  /** The SOAP envelope as received (evidence). */
  soap: string;
}

export type OpenedMessage = (
  { kind: 'user'; message: UserMessage; payloads: Payload[] } | { kind: 'signal'; signal: SignalMessage }
) &
  Verified;

export type OpenResult =
  { ok: true; opened: OpenedMessage } | { ok: false; error: EbmsError; messageId: string | null };

export interface OpenOptions {
  /** This AP's key and certificate: to decrypt. */
  own: SigningKey;
  /**
   * Judges the signer's certificate (Peppol AP CA, validity, revocation): a problem refuses the
   * message as EBMS:0101, or as EBMS:0004 (which a sender retries) when it is temporary.
   */
  checkSigner?: (certificate: X509Certificate) => Promise<SignerProblem | null>;
  limits?: InboundLimits;
}

/** Why a signer is not accepted; temporary when its revocation status cannot be established now. */
export interface SignerProblem {
  reason: string;
  temporary: boolean;
}

const fail = (name: ConstructorParameters<typeof As4Failure>[0], message: string) => new As4Failure(name, message);

/** The SOAP part and the attachments of a request, whichever way it is packaged. */
function unpack(
  contentTypeHeader: string,
  body: Buffer,
  limits: MimeLimits,
): { root: Buffer; attachments: MimePart[] } {
  let type: string;
  try {
    type = contentType.parse(contentTypeHeader).type.toLowerCase();
  } catch {
    throw fail('mimeInconsistency', `unreadable Content-Type: ${contentTypeHeader.slice(0, 120)}`);
  }
  if (type === 'application/soap+xml') return { root: body, attachments: [] };
  if (type !== 'multipart/related')
    throw fail('mimeInconsistency', `an AS4 message is multipart/related or application/soap+xml, not ${type}`);
  try {
    const related = readMultipartRelated(contentTypeHeader, body, limits);
    if (related.root.mediaType !== 'application/soap+xml')
      throw fail(
        'mimeInconsistency',
        `the root part is ${related.root.mediaType}, not SOAP 1.2 (application/soap+xml)`,
      );
    return { root: related.root.body, attachments: related.attachments };
  } catch (error) {
    if (error instanceof MimeError) throw fail('mimeInconsistency', error.message);
    throw error;
  }
}

function parseSoap(root: Buffer): { doc: Document; soap: string; messaging: ReadMessaging } {
  let soap: string;
  let doc: Document;
  try {
    soap = decodeUtf8Xml(root);
    doc = parseUntrustedXmlDom(soap);
  } catch (error) {
    if (error instanceof UntrustedXmlError) throw fail('invalidHeader', error.message);
    throw error;
  }
  const messaging = readMessaging(doc);
  if (messaging.soapVersion !== '1.2') throw fail('invalidHeader', 'the Peppol AS4 profile requires SOAP 1.2');
  return { doc, soap, messaging };
}

function verify(
  doc: Document,
  messaging: ReadMessaging,
  attachments: Map<string, AttachmentContent>,
): { signer: X509Certificate; references: PartDigest[] } {
  try {
    assertUniqueIds(doc);
  } catch (error) {
    throw fail('failedAuthentication', (error as Error).message);
  }
  const verification = verifySignature(doc, attachments);
  if (!verification.valid || !verification.certificate)
    throw fail('failedAuthentication', `the signature does not verify: ${verification.reason}`);
  const signed = signedIds(verification);
  if (!messaging.id || !signed.has(messaging.id))
    throw fail('policyNoncompliance', 'the signature does not cover eb:Messaging');
  if (!messaging.bodyId || !signed.has(messaging.bodyId))
    throw fail('policyNoncompliance', 'the signature does not cover the SOAP Body');
  const signedAttachments = new Set(
    verification.references.filter((r) => r.status === 'ok').map((r) => contentIdOfHref(r.reference.uri)),
  );
  for (const contentId of attachments.keys()) {
    if (!signedAttachments.has(contentId))
      throw fail('policyNoncompliance', `the signature does not cover attachment cid:${contentId}`);
  }
  return { signer: verification.certificate, references: verification.references.map((r) => r.reference) };
}

async function payloadsOf(
  message: UserMessage,
  attachments: Map<string, AttachmentContent>,
  maxBytes: number,
): Promise<Payload[]> {
  const referenced = new Set<string>();
  const payloads: Payload[] = [];
  for (const part of message.payloadInfo) {
    const contentId = contentIdOfHref(part.href);
    const attachment = contentId === null ? undefined : attachments.get(contentId);
    if (contentId === null || !attachment)
      throw fail('externalPayloadError', `the payload ${part.href} is not in the message`);
    referenced.add(contentId);
    const compression = propertyValue(part.properties, PART_PROPERTY_COMPRESSION_TYPE);
    if (compression !== null && compression !== GZIP_MIME_TYPE)
      throw fail('featureNotSupportedInconsistency', `compression ${compression} is not supported`);
    const bytes = compression === null ? attachment.bytes : await decompressPayload(attachment.bytes, maxBytes);
    if (bytes.length > maxBytes) throw fail('decompressionFailure', `the payload is larger than ${maxBytes} bytes`);
    payloads.push({
      contentId,
      mimeType: propertyValue(part.properties, PART_PROPERTY_MIME_TYPE) ?? attachment.mimeType,
      bytes,
    });
  }
  const stray = [...attachments.keys()].find((id) => !referenced.has(id));
  if (stray !== undefined) throw fail('mimeInconsistency', `attachment cid:${stray} is not named in PayloadInfo`);
  return payloads;
}

/**
 * Opens a received AS4 message: MIME → SOAP 1.2 → decryption with this AP's key → signature
 * verification (every part signed, the signer accepted) → ebMS header → payloads decompressed
 * within the limit. Nothing here stores or answers; a failure comes back as the ebMS error to
 * answer with, for the message id when it could be read. A UserMessage must be encrypted, as the
 * Peppol profile requires; a signal (a receipt or an error answering us) has no attachment.
 */
export async function openMessage(contentTypeHeader: string, body: Buffer, options: OpenOptions): Promise<OpenResult> {
  const limits = options.limits ?? DEFAULT_INBOUND_LIMITS;
  let messageId: string | null = null;
  try {
    const { root, attachments: wire } = unpack(contentTypeHeader, body, limits.mime);
    const { doc, soap, messaging } = parseSoap(root);
    const content = messaging.content;
    messageId = content.kind === 'user' ? content.message.messageInfo.messageId : content.signal.messageInfo.messageId;
    const wireById = new Map(wire.map((p) => [p.contentId!, p.body]));
    let attachments: Map<string, AttachmentContent>;
    try {
      attachments = decryptAttachments(doc, wireById, options.own);
    } catch (error) {
      if (error instanceof SecurityHeaderError) throw fail('failedAuthentication', error.message);
      throw error;
    }
    for (const part of wire) {
      if (attachments.has(part.contentId!)) continue;
      if (content.kind === 'user')
        throw fail('policyNoncompliance', `attachment cid:${part.contentId} is not encrypted`);
      attachments.set(part.contentId!, { contentId: part.contentId!, mimeType: part.mediaType, bytes: part.body });
    }
    const verified = { ...verify(doc, messaging, attachments), soap };
    const trustProblem = (await options.checkSigner?.(verified.signer)) ?? null;
    if (trustProblem)
      throw trustProblem.temporary
        ? fail('other', `the signing certificate is not accepted for now: ${trustProblem.reason}; send it again later`)
        : fail('failedAuthentication', `the signing certificate is not accepted: ${trustProblem.reason}`);
    if (content.kind === 'signal') return { ok: true, opened: { kind: 'signal', signal: content.signal, ...verified } };
    const payloads = await payloadsOf(content.message, attachments, limits.maxPayloadBytes);
    return { ok: true, opened: { kind: 'user', message: content.message, payloads, ...verified } };
  } catch (error) {
    if (error instanceof As4Failure)
      return { ok: false, error: ebmsError(error.ebms, messageId, error.message), messageId };
    // Whatever else breaks on hostile input is still answered as an ebMS error, never an HTTP 500.
    return {
      ok: false,
      error: ebmsError('other', messageId, `the message could not be processed: ${(error as Error).message}`),
      messageId,
    };
  }
}
