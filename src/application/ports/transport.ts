import type {
  As4AttemptEvidence,
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

/** `as4`: the evidence of an attempt over Peppol AS4, recorded with the attempt. */
export type TransportOutcome =
  | { outcome: 'delivered'; receiver: string; as4?: As4AttemptEvidence }
  | { outcome: 'retryable'; receiver: string; error: string; as4?: As4AttemptEvidence }
  | { outcome: 'permanent'; receiver: string; error: string; as4?: As4AttemptEvidence };

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
