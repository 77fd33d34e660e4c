import type { PeppolDocumentKind } from '../../domain/peppol/peppolDocumentTypes.js';
import type { SenderDisposition } from '../../domain/peppol/as4/ebmsError.js';
import type { MlsType } from '../../domain/peppol/as4/sbdh.js';

import type { RemoteAccessPoint } from '../../domain/document/lifecycle/documentAggregate.js';

/** Recorded as it is in the attempt's evidence (the domain's type). */
export type { RemoteAccessPoint };

export interface As4SendRequest {
  /** The AS4 eb:MessageId: the same for every attempt of one delivery, so the receiver drops repeats. */
  messageId: string;
  /** The Peppol participant ids (`<icd>:<identifier>`) of the SBDH's sender and receiver. */
  senderParticipant: string;
  receiverParticipant: string;
  kind: PeppolDocumentKind;
  /** SBDH COUNTRY_C1: the sender's country (ISO 3166-1 alpha-2). */
  countryC1: string;
  /** The business document (UBL), as it travels inside the SBDH. */
  document: Buffer;
  /**
   * When the delivery was asked for: the message's timestamp, the same in every attempt (so that
   * a retry signs the same header, and a receiver's stored receipt matches it). Default: now.
   */
  createdAt?: string;
  /** From the receiver's SMP entry. */
  endpoint: { url: string; certificate: string };
  /** The SBDH's MLS_TO and MLS_TYPE: where and when the receiving provider sends its Message Level Status. */
  mls?: { to: string; type: MlsType } | null;
}

/** What was sent: the whole AS4 message as posted (the evidence of what the receipt acknowledges). */
export interface SentAs4Message {
  bytes: Buffer;
  contentType: string;
}

export type As4SendResult =
  /** A signed Receipt that acknowledges exactly the digests we sent. */
  | {
      outcome: 'receipt';
      receiptXml: string;
      receiptMessageId: string;
      /** The receipt's own timestamp. */
      receivedAt: string;
      sent: SentAs4Message;
      remoteAp: RemoteAccessPoint;
    }
  /** An ebMS Error signal. */
  | {
      outcome: 'error';
      errors: Array<{ code: string; severity: string; description: string }>;
      disposition: SenderDisposition;
      signalXml: string;
      sent: SentAs4Message;
      remoteAp: RemoteAccessPoint;
    }
  /** No usable answer: the endpoint or its certificate is not acceptable, the network failed, or the answer is not a valid signal. */
  | {
      outcome: 'transport';
      retryable: boolean;
      reason: string;
      sent: SentAs4Message | null;
      remoteAp: RemoteAccessPoint | null;
      /** An answer that was received but not accepted (a receipt that does not verify), kept as evidence. */
      answerXml: string | null;
    };

/** Sends one business document to another access point over Peppol AS4 and reads its synchronous answer. */
export interface As4Client {
  send(request: As4SendRequest): Promise<As4SendResult>;
}

/** `As4Client | null`: null when this access point has no AS4 key and certificate (AS4 is off). */
export const AS4_CLIENT = Symbol('As4Client');
