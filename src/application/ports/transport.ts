import type {
  As4AttemptEvidence,
  EmailAttemptEvidence,
  DocumentRecord,
  TransportKind,
} from '../../domain/document/lifecycle/documentAggregate.js';

/** One attempt to hand a document to its receiver. */
export interface DeliveryRequest {
  document: DocumentRecord;
  /** The document's UBL, as it travels. */
  ubl: string;
  /** The same for every attempt of one delivery, so receivers can drop duplicates. */
  messageId: string;
  senderPeppolId: string | null;
  receiverPeppolId: string | null;
  /** The test-mode recipient. */
  email: string | null;
}

/** The evidence recorded with an attempt: `as4` over Peppol AS4, `email` by e-mail. */
interface AttemptEvidence {
  as4?: As4AttemptEvidence;
  email?: EmailAttemptEvidence;
}

export type TransportOutcome =
  | ({ outcome: 'delivered'; receiver: string } & AttemptEvidence)
  | ({ outcome: 'retryable'; receiver: string; error: string } & AttemptEvidence)
  | ({ outcome: 'permanent'; receiver: string; error: string } & AttemptEvidence);

/**
 * A way documents travel: e-mail in test mode, Peppol otherwise. Implementations must be
 * idempotent per message id (a crash can repeat an attempt) and must not throw for delivery
 * failures: they classify them as retryable or permanent.
 */
export interface Transport {
  readonly kind: TransportKind;
  deliver(request: DeliveryRequest): Promise<TransportOutcome>;
}

/** The transports by the kind of delivery they make (`Record<TransportKind, Transport>`). */
export const TRANSPORTS = Symbol('Transports');
