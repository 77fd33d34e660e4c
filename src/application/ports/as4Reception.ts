import type { ReceivedInvoiceResponse } from '../../domain/document/ubl/invoiceResponse.js';
import type { ReceivedMls } from '../../domain/peppol/mls/messageLevelStatus.js';
import type { EbmsError } from '../../domain/peppol/as4/ebmsError.js';
import type { Sbdh } from '../../domain/peppol/as4/sbdh.js';
import type { PartDigest } from '../../domain/peppol/as4/signalMessage.js';
import type { UserMessage } from '../../domain/peppol/as4/userMessage.js';

/** A synchronous AS4 answer as it goes on the wire: a signed Receipt or a signed Error signal. */
export interface As4Answer {
  contentType: string;
  body: Buffer;
}

/** The certificate that signed a received message, as evidence keeps it. */
export interface As4SignerFacts {
  subject: string;
  issuer: string;
  serialNumber: string;
  validFrom: string;
  validTo: string;
}

/**
 * A received Peppol UserMessage, opened and checked as far as AS4 goes: decrypted, signature
 * verified by a trusted access point, header and SBDH consistent. Whether this access point
 * serves its receiver is the application's question.
 */
export interface InboundAs4Message {
  messageId: string;
  message: UserMessage;
  sbdh: Sbdh;
  /** The business document inside the SBDH (UBL Invoice, CreditNote or ApplicationResponse), as XML text. */
  businessDocument: string;
  /** Set when the business document is an ApplicationResponse: what it says. */
  invoiceResponse: ReceivedInvoiceResponse | null;
  /** Set when the document type is the MLS's: what it says, and the MLS rules (SCH-MLS-*) it breaks. */
  mls?: { says: ReceivedMls; problems: string[] } | null;
  /** The sending access point's seat id: the signer's CN, which is also the From PartyId. */
  senderAp: string;
  signer: As4SignerFacts;
  /** The signed references, which the non-repudiation receipt returns. */
  references: PartDigest[];
}

export type OpenedAs4Message =
  | { ok: true; message: InboundAs4Message }
  /** Refused: the errors to answer with, about `messageId` when it could be read. */
  | { ok: false; errors: EbmsError[]; messageId: string | null };

/**
 * The AS4 wire format of this access point: opens received messages (MIME, WS-Security with its
 * key and the trusted AP CAs, ebMS header, SBDH) and signs the answers. Unbound (null) when this
 * instance has no AS4 key.
 */
export interface As4MessageCodec {
  /** This access point's seat id (the To PartyId it accepts). */
  readonly seatId: string;
  open(contentType: string, body: Buffer): Promise<OpenedAs4Message>;
  /** The signed non-repudiation Receipt for `message`. */
  receipt(message: InboundAs4Message): As4Answer;
  /** A signed ebMS Error signal about `refToMessageId` (null when its id could not be read). */
  error(errors: readonly EbmsError[], refToMessageId: string | null): As4Answer;
}

export const AS4_MESSAGE_CODEC = Symbol('As4MessageCodec');

/** Hooks of the reception, for crash tests (failpoints live in infrastructure). */
export interface As4ReceptionOptions {
  /** Called after a message is stored and before its receipt is answered. */
  afterStore?: () => void;
}

export const AS4_RECEPTION_OPTIONS = Symbol('As4ReceptionOptions');
