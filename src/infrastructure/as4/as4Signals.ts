import { randomUUID, type X509Certificate } from 'node:crypto';
import { senderDisposition, type EbmsError, type SenderDisposition } from '../../domain/peppol/as4/ebmsError.js';
import { matchReceipt } from '../../domain/peppol/as4/nonRepudiation.js';
import type { PartDigest, Receipt, SignalMessage } from '../../domain/peppol/as4/signalMessage.js';
import type { MessageInfo } from '../../domain/peppol/as4/userMessage.js';
import { SOAP12_CONTENT_TYPE } from './as4Outbound.js';
import { envelopeXml, errorSignalXml, receiptSignalXml } from './ebmsWriter.js';
import { readMessaging } from './ebmsReader.js';
import { signEnvelope, verifySignature, type SigningKey } from './wsSecuritySignature.js';
import { assertUniqueIds } from './wsSecurityTokens.js';
import { decodeUtf8Xml, parseUntrustedXmlDom } from './xmlDom.js';

export interface SignalOptions {
  own: SigningKey;
  newId?: () => string;
  now?: () => Date;
}

export interface BuiltSignal {
  messageId: string;
  contentType: string;
  body: Buffer;
}

function signedSignal(
  content: (info: MessageInfo) => string,
  refToMessageId: string | null,
  options: SignalOptions,
): BuiltSignal {
  const newId = options.newId ?? randomUUID;
  const messageId = `${newId()}@as4`;
  const info: MessageInfo = { timestamp: (options.now?.() ?? new Date()).toISOString(), messageId, refToMessageId };
  const ids = { messaging: `msg-${newId()}`, body: `id-${newId()}` };
  const signed = signEnvelope({
    envelope: envelopeXml(content(info), ids),
    ids: [ids.messaging, ids.body],
    attachments: [],
    key: options.own,
    newId,
  });
  return { messageId, contentType: SOAP12_CONTENT_TYPE, body: Buffer.from(signed.xml, 'utf8') };
}

/**
 * The signed non-repudiation Receipt for a UserMessage we verified and stored: it returns the
 * references of that message's signature, so its sender can prove what we received.
 */
export function buildReceipt(
  refToMessageId: string,
  receivedReferences: readonly PartDigest[],
  options: SignalOptions,
): BuiltSignal {
  return signedSignal(
    (info) => receiptSignalXml(info, { nonRepudiation: [...receivedReferences] }),
    refToMessageId,
    options,
  );
}

/** A signed ebMS Error signal, about the message `refToMessageId` (null when its id could not be read). */
export function buildErrorSignal(
  errors: readonly EbmsError[],
  refToMessageId: string | null,
  options: SignalOptions,
): BuiltSignal {
  return signedSignal((info) => errorSignalXml(info, errors), refToMessageId, options);
}

/** What the synchronous answer to our UserMessage means. */
export type SignalOutcome =
  | {
      kind: 'receipt';
      receipt: Receipt;
      receiptMessageId: string;
      timestamp: string;
      signer: X509Certificate;
      soap: string;
    }
  | { kind: 'error'; errors: EbmsError[]; disposition: SenderDisposition; signatureValid: boolean; soap: string }
  /** No usable answer: unreadable, unsigned or forged, for another message, or a receipt that does not match what we sent. */
  | { kind: 'invalid'; reason: string };

export interface SentMessage {
  messageId: string;
  references: readonly PartDigest[];
  /** The receiving AP's certificate from its SMP entry: the receipt must be signed with it. */
  receiver: X509Certificate;
}

/**
 * Reads the SOAP answer to a UserMessage we sent. A Receipt counts only when it is signed by the
 * receiver's certificate, refers to our message, and acknowledges exactly the digests we sent. An
 * Error is reported with what it means for a retry whether or not it is signed (an AP that cannot
 * read our message may not be able to sign either); its signature state is passed on.
 */
export function readSignalResponse(body: Buffer, sent: SentMessage): SignalOutcome {
  let doc: Document;
  let soap: string;
  let signal: SignalMessage;
  try {
    soap = decodeUtf8Xml(body);
    doc = parseUntrustedXmlDom(soap);
    const messaging = readMessaging(doc);
    if (messaging.content.kind !== 'signal')
      return { kind: 'invalid', reason: 'the answer is a UserMessage, not a signal' };
    signal = messaging.content.signal;
    assertUniqueIds(doc);
  } catch (error) {
    return { kind: 'invalid', reason: `unreadable answer: ${(error as Error).message}` };
  }
  const verification = verifySignature(doc);
  const signatureValid =
    verification.valid && verification.certificate !== null && verification.certificate.raw.equals(sent.receiver.raw);
  if (signal.kind === 'error') {
    const relevant = signal.errors.filter(
      (e) => e.refToMessageInError === null || e.refToMessageInError === sent.messageId,
    );
    const errors = relevant.length > 0 ? relevant : signal.errors;
    const disposition = errors.some((e) => senderDisposition(e) === 'permanent') ? 'permanent' : 'retryable';
    return { kind: 'error', errors, disposition, signatureValid, soap };
  }
  if (!verification.valid)
    return { kind: 'invalid', reason: `the receipt's signature does not verify: ${verification.reason}` };
  if (!signatureValid)
    return { kind: 'invalid', reason: 'the receipt is not signed with the receiving access point certificate' };
  if (signal.messageInfo.refToMessageId !== sent.messageId) {
    return {
      kind: 'invalid',
      reason: `the receipt refers to ${signal.messageInfo.refToMessageId ?? 'no message'}, not to ${sent.messageId}`,
    };
  }
  const match = matchReceipt(sent.references, signal.receipt.nonRepudiation);
  if (!match.matches) return { kind: 'invalid', reason: match.reason };
  return {
    kind: 'receipt',
    receipt: signal.receipt,
    receiptMessageId: signal.messageInfo.messageId,
    timestamp: signal.messageInfo.timestamp,
    signer: verification.certificate!,
    soap,
  };
}
