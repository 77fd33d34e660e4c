import { createHash, type X509Certificate } from 'node:crypto';
import { certificateOfBase64 } from './certificateCache.js';
import { httpPost } from '../httpPost.js';
import { isIP } from 'node:net';
import type {
  As4Client,
  As4SendRequest,
  As4SendResult,
  RemoteAccessPoint,
  SentAs4Message,
} from '../../application/ports/as4Sending.js';
import { describeEbmsError } from '../../domain/peppol/as4/ebmsError.js';
import { peppolUserMessage } from '../../domain/peppol/as4/peppolProfile.js';
import type { Sbdh } from '../../domain/peppol/as4/sbdh.js';
import { documentTypeParts } from '../../domain/peppol/peppolDocumentTypes.js';
import { PARTICIPANT_SCHEME } from '../../domain/peppol/participantId.js';
import type { AccessPointTrust } from '../peppol/accessPointTrust.js';
import type { AccessPointIdentity } from './accessPointIdentity.js';
import { commonNameOf, oneLineName } from '../peppol/certificates.js';
import { buildUserMessage } from './as4Outbound.js';
import { readSignalResponse } from './as4Signals.js';
import { writeSbdh } from './sbdhXml.js';

export interface As4ClientSettings {
  /** AS4_SEND_TIMEOUT_MS: the whole POST, answer included. */
  timeoutMs: number;
  /** Judges the receiver's certificate: AP CAs, validity, revocation (the same as for signers of what we receive). */
  trust: Pick<AccessPointTrust, 'check'>;
  /** The largest synchronous answer read (a signal is a few kilobytes). */
  maxResponseBytes?: number;
  now?: () => Date;
}

const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;
const LOOPBACK_NAMES = new Set(['localhost']);

const transport = (
  retryable: boolean,
  reason: string,
  sent: SentAs4Message | null = null,
  remoteAp: RemoteAccessPoint | null = null,
  answerXml: string | null = null,
): As4SendResult => ({ outcome: 'transport', retryable, reason, sent, remoteAp, answerXml });

function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  if (LOOPBACK_NAMES.has(bare.toLowerCase())) return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return bare === '::1';
}

export function remoteAccessPoint(certificate: X509Certificate): RemoteAccessPoint {
  return {
    seat_id: commonNameOf(certificate),
    subject: oneLineName(certificate.subject),
    serial: certificate.serialNumber,
    issuer: oneLineName(certificate.issuer),
    valid_from: new Date(certificate.validFrom).toISOString(),
    valid_to: new Date(certificate.validTo).toISOString(),
  };
}

/**
 * Ids derived from the AS4 message id: every attempt of one delivery writes the same eb:Messaging
 * and SBDH, so their digests are the same, and a receiver that answers a repeat with the receipt
 * it stored the first time acknowledges exactly what this attempt sent.
 */
function stableIds(messageId: string): () => string {
  let n = 0;
  return () => {
    const hex = createHash('sha256').update(`${messageId}\n${n++}`).digest('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
  };
}

/** Reads at most `limit` bytes of a response body; more is an error. */
/**
 * Peppol AS4 sending (corner 2 to corner 3): the business document wrapped in its SBDH, the
 * UserMessage built, signed with this AP's key and encrypted for the receiver's certificate
 * (as4Outbound), POSTed, and the synchronous signal read (as4Signals). The receiver's endpoint
 * must be HTTPS (plain HTTP only on loopback, when allowed) and its certificate issued by a Peppol
 * AP CA and valid now. It does not throw for delivery failures: each is classified.
 */
export class HttpAs4Client implements As4Client {
  constructor(
    private readonly identity: AccessPointIdentity,
    private readonly settings: As4ClientSettings,
  ) {}

  async send(request: As4SendRequest): Promise<As4SendResult> {
    const now = this.settings.now?.() ?? new Date();
    let url: URL;
    try {
      url = new URL(request.endpoint.url);
    } catch {
      return transport(false, `the receiver's AS4 endpoint ${request.endpoint.url} is not a URL`);
    }
    if (url.protocol !== 'https:') {
      const allowed = url.protocol === 'http:' && this.identity.allowPlainHttpLoopback && isLoopback(url.hostname);
      if (!allowed)
        return transport(
          false,
          `the receiver's AS4 endpoint ${request.endpoint.url} is not HTTPS, which Peppol requires` +
            (url.protocol === 'http:' && isLoopback(url.hostname) ? ' (AS4_ALLOW_PLAIN_HTTP_LOOPBACK is off)' : ''),
        );
    }
    let receiver: X509Certificate;
    try {
      receiver = certificateOfBase64(request.endpoint.certificate);
    } catch (error) {
      return transport(false, `the receiver's certificate in its SMP entry is unreadable: ${(error as Error).message}`);
    }
    const remoteAp = remoteAccessPoint(receiver);
    const problem = await this.settings.trust.check(receiver, now);
    if (problem)
      return transport(
        problem.temporary,
        `the receiver's access point certificate (${remoteAp.subject}) is not acceptable${problem.temporary ? ' for now' : ''}: ${problem.reason}`,
        null,
        remoteAp,
      );
    if (!remoteAp.seat_id)
      return transport(false, `the receiver's certificate (${remoteAp.subject}) has no CN`, null, remoteAp);

    const parts = documentTypeParts(request.kind.documentType.value);
    if (!parts) return transport(false, `document type ${request.kind.documentType.value} has no Peppol syntax form`);
    const createdAt = now.toISOString();
    const sbdh: Sbdh = {
      sender: { scheme: PARTICIPANT_SCHEME, value: request.senderParticipant },
      receiver: { scheme: PARTICIPANT_SCHEME, value: request.receiverParticipant },
      document: {
        standard: parts.standard,
        typeVersion: parts.typeVersion,
        instanceIdentifier: request.messageId,
        type: parts.type,
        creationDateAndTime: request.createdAt ?? createdAt,
      },
      documentType: request.kind.documentType,
      process: request.kind.process,
      countryC1: request.countryC1,
      mlsTo: request.mls ? { scheme: PARTICIPANT_SCHEME, value: request.mls.to } : null,
      mlsType: request.mls?.type ?? null,
      extraScopes: [],
    };
    const newId = stableIds(request.messageId);
    const message = peppolUserMessage(sbdh, {
      messageId: request.messageId,
      timestamp: request.createdAt ?? createdAt,
      conversationId: request.messageId,
      fromParty: this.identity.seatId,
      toParty: remoteAp.seat_id,
      payloadContentId: `${newId()}@e-invoicing.peppol`,
    });
    const built = await buildUserMessage({
      message,
      payload: Buffer.from(writeSbdh(sbdh, request.document.toString('utf8')), 'utf8'),
      sender: this.identity.key,
      receiver,
      newId,
    });
    const sent: SentAs4Message = { bytes: built.body, contentType: built.contentType };

    let status: number;
    let answer: Buffer;
    let answerType: string;
    try {
      const response = await httpPost(
        url,
        built.body,
        { 'Content-Type': built.contentType, 'MIME-Version': '1.0' },
        {
          timeoutMs: this.settings.timeoutMs,
          maxBytes: this.settings.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
        },
      );
      status = response.status;
      answerType = response.contentType;
      answer = response.body;
    } catch (error) {
      return transport(true, `POST to ${url.origin} failed: ${(error as Error).message}`, sent, remoteAp);
    }
    const signal =
      answer.length > 0 && /xml/i.test(answerType)
        ? readSignalResponse(answer, { messageId: built.messageId, references: built.references, receiver })
        : null;
    if (signal?.kind === 'receipt')
      return {
        outcome: 'receipt',
        receiptXml: signal.soap,
        receiptMessageId: signal.receiptMessageId,
        receivedAt: signal.timestamp,
        sent,
        remoteAp,
      };
    if (signal?.kind === 'error') {
      return {
        outcome: 'error',
        errors: signal.errors.map((e) => ({
          code: e.errorCode,
          severity: e.severity,
          description: describeEbmsError(e),
        })),
        disposition: signal.disposition,
        signalXml: signal.soap,
        sent,
        remoteAp,
      };
    }
    const why = signal ? `: ${signal.reason}` : '';
    if (status >= 500 || status === 408 || status === 429 || (status >= 200 && status < 300))
      return transport(
        true,
        `the receiver answered HTTP ${status} without a valid AS4 signal${why}`,
        sent,
        remoteAp,
        signal ? answer.toString('utf8') : null,
      );
    return transport(false, `the receiver refused the message with HTTP ${status}${why}`, sent, remoteAp);
  }
}
