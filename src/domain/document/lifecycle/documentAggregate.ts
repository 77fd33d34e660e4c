import type { ResponseCode } from '../invoice/codeLists.js';
import { assertNever, type Decider, type Event } from '../../decider.js';
import { MAX_ATTEMPTS } from './deliverySchedule.js';
import { conflict, invalidState, notFound } from '../../errors.js';
import type { Direction, DocumentState } from '../invoice/documentModel.js';
import { requireTransmittable } from '../rules/documentAttachments.js';
import type { ContentRef, DocumentHeader, UblRef } from './documentContent.js';

/**
 * The Document aggregate: one stream per document, owned by one tenant. Its events are the
 * audit trail of the document ("what happened to this invoice"). They carry facts (ids, names,
 * amounts, sizes, hashes): the content, the UBL, the attachments' bytes and Invoice Responses are
 * in the blob store, named by their SHA-256 (documentContent.ts).
 *
 * The aggregate owns the lifecycle: a created document is an outbound DRAFT and a received one an
 * inbound RECEIVED document because the decider says so; no command carries a state or direction.
 */
export type DocumentSource = 'json' | 'ubl' | 'pdf' | 'peppol';
/** Where a draft's content came from; received documents come from Peppol (ReceiveDocument). */
export type DraftSource = Exclude<DocumentSource, 'peppol'>;

export interface StoredAttachment {
  /** The attachment's id, or for one given without an id, its file name. */
  id: string;
  file_name: string;
  file_type: string;
  /** As given (uploads: the bytes received). */
  file_size: number;
  /** The blob of its bytes; null for an attachment without content (a link). */
  content: ContentRef | null;
}

export type DocumentCreated = Event<
  'DocumentCreated',
  {
    document_id: string;
    tenant_id: string;
    source: DocumentSource;
    file_name: string;
    header: DocumentHeader;
    /** The document's content, as JSON (attachments' bytes by reference). */
    document_ref: ContentRef;
    /** The UBL that is validated, served and sent. */
    ubl_ref: UblRef;
    attachments: StoredAttachment[];
    created_at: string;
    /**
     * Only on documents created before the service owned the lifecycle, as the upcaster reads
     * them: the state and direction their content said. Nothing decided now records one.
     */
    recorded_lifecycle?: { state: DocumentState; direction: Direction };
  }
>;
export type DocumentValidated = Event<
  'DocumentValidated',
  {
    document_id: string;
    validation_id: string;
    is_valid: boolean;
    fatal: number;
    warnings: number;
    validated_at: string;
    /** The rule set it was validated by; absent from validations recorded before rule sets were named. */
    rule_set?: string;
  }
>;
/**
 * `ubl_ref`: the document's UBL with its attachments as they are now, i.e. what will be sent.
 * Absent from events recorded before added attachments went into the UBL (those left the UBL as
 * it was).
 */
export type AttachmentAdded = Event<
  'AttachmentAdded',
  { document_id: string; attachment: StoredAttachment; ubl_ref?: UblRef; added_at: string }
>;
export type AttachmentRemoved = Event<
  'AttachmentRemoved',
  { document_id: string; attachment_id: string; ubl_ref?: UblRef; removed_at: string }
>;
export type DocumentDeleted = Event<'DocumentDeleted', { document_id: string; deleted_at: string }>;

/** How a document travels: by e-mail in test mode, otherwise over Peppol. */
export type TransportKind = 'email' | 'peppol';
/** A retryable failure is tried again on the schedule; a permanent one fails the delivery at once. */
export type AttemptOutcome = 'delivered' | 'retryable' | 'permanent';
export type { ResponseCode };

export type SendRequested = Event<
  'SendRequested',
  {
    document_id: string;
    /** One delivery: its attempts share this id and the message id, so a receiver can deduplicate. */
    delivery_id: string;
    message_id: string;
    transport: TransportKind;
    sender_peppol_id: string | null;
    receiver_peppol_id: string | null;
    /** The test-mode mail recipient. */
    email: string | null;
    requested_at: string;
  }
>;
/** The receiving access point, as its certificate names it (the evidence of whom we sent to). */
export interface RemoteAccessPoint {
  /** The certificate's subject CN, the receiving AP's Peppol seat id (the AS4 To party). */
  seat_id: string | null;
  subject: string;
  serial: string;
  issuer: string;
  valid_from: string;
  valid_to: string;
}

/** The evidence of one attempt over Peppol AS4 (blobs by reference, content-addressed). */
export interface As4AttemptEvidence {
  /** The AS4 eb:MessageId (the delivery's message id). */
  message_id: string;
  endpoint_url: string;
  /** The receiving access point, from the certificate its SMP entry publishes. */
  remote_ap: RemoteAccessPoint | null;
  /** The signed Receipt that answered, when one did. */
  receipt: {
    received_at: string;
    message_id: string;
    verified: boolean;
    /** Why it does not verify; null when it does. */
    verification: string | null;
    ref: ContentRef;
  } | null;
  /** The AS4 message as posted; null when nothing was posted. */
  message_ref: ContentRef | null;
  /** Its HTTP Content-Type (multipart/related with the boundary), to read it again. */
  message_content_type: string | null;
  /**
   * What the envelope (SBDH) said: the document type, process and COUNTRY_C1 sent, for the
   * Peppol Reporting. Absent on events recorded before it was kept.
   */
  envelope?: As4EnvelopeFacts;
  /** The ebMS error codes of an Error signal, and the signal itself. */
  error_codes?: string[];
  signal_ref?: ContentRef;
}

/**
 * The evidence of an attempt that delivered by e-mail (test mode): the message exactly as it was
 * handed to SMTP and accepted (RFC 5322, message/rfc822), sealed with the tenant's personal-data key
 * since it names the recipient.
 */
export interface EmailAttemptEvidence {
  message_ref: ContentRef;
}

/** The envelope of one AS4 exchange as the Peppol Reporting counts it. */
export interface As4EnvelopeFacts {
  document_type: { scheme: string; value: string };
  process: { scheme: string; value: string };
  country_c1: string;
}

/** One attempt to hand something to a receiver, as a delivery and a response delivery record it. */
export interface AttemptFacts {
  /** 1 for the first attempt, 2 for the first retry, … */
  attempt: number;
  receiver: string;
  outcome: AttemptOutcome;
  error: string | null;
  /** The same for every attempt of one delivery, so that receivers can drop repeats. */
  message_id: string;
  started_at: string;
  duration_ms: number;
  /** When the next attempt is due; null when this one settled it. */
  next_attempt_at: string | null;
  /** Over Peppol AS4: what was sent, to whom, and the answer (absent for other transports). */
  as4?: As4AttemptEvidence;
}

export type DeliveryAttempted = Event<
  'DeliveryAttempted',
  {
    document_id: string;
    delivery_id: string;
    transport: TransportKind;
    /** By e-mail, on the attempt that delivered: the message as sent. Absent on attempts recorded before it was kept. */
    email?: EmailAttemptEvidence;
  } & AttemptFacts
>;
export type DocumentSent = Event<
  'DocumentSent',
  { document_id: string; delivery_id: string; message_id: string; sent_at: string }
>;
export type DocumentFailed = Event<
  'DocumentFailed',
  { document_id: string; delivery_id: string; reason: string; failed_at: string }
>;
/** An inbound document: the first event of its stream (in place of DocumentCreated). */
export type DocumentReceived = Event<
  'DocumentReceived',
  {
    document_id: string;
    tenant_id: string;
    file_name: string;
    header: DocumentHeader;
    document_ref: ContentRef;
    /** The UBL as it travelled. */
    ubl_ref: UblRef;
    attachments: StoredAttachment[];
    message_id: string;
    receiver_peppol_id: string;
    sender: InboundSender;
    received_at: string;
  }
>;
export type DocumentAccepted = Event<
  'DocumentAccepted',
  { document_id: string; note: string | null; accepted_at: string }
>;
export type DocumentRejected = Event<'DocumentRejected', { document_id: string; reason: string; rejected_at: string }>;
/** The receiver's Invoice Response reached the sender's outbound document. */
export type ResponseReceived = Event<
  'ResponseReceived',
  {
    document_id: string;
    code: ResponseCode;
    reason: string | null;
    responder_peppol_id: string | null;
    invoice_response_ref: ContentRef;
    received_at: string;
  }
>;

/**
 * The receiving access point's Message Level Status about a delivery of this (outbound) document:
 * AP or AB (it reached the receiver), RE (it was rejected and not delivered). `valid`: whether the
 * MLS keeps the specification's rules (SCH-MLS-*) and came from the access point the delivery
 * reached; an invalid one is recorded as evidence and changes nothing.
 */
export type MlsReceived = Event<
  'MlsReceived',
  {
    document_id: string;
    delivery_id: string;
    /** The MLS's own id (cbc:ID), and the message of ours it is about (its DocumentReference). */
    mls_id: string | null;
    message_id: string;
    /** As received: AP, AB or RE (anything else makes it invalid). */
    code: string | null;
    description: string | null;
    issues: Array<{ location: string | null; description: string | null; reason: string | null }>;
    valid: boolean;
    /** Why it is not valid: the rules it breaks, or who sent it. */
    problems: string[];
    /** The sending access point's seat id (the AS4 signer). */
    sender_ap: string;
    /** The MLS document as received (the blob store). */
    mls_ref: ContentRef;
    received_at: string;
  }
>;

/**
 * One attempt to take this tenant's accept or reject back to a sender on another access point, as
 * a Peppol Invoice Response over AS4 (a sender on this instance has it recorded directly). Retried
 * on the delivery schedule like a document.
 */
export type ResponseDeliveryAttempted = Event<
  'ResponseDeliveryAttempted',
  /** `receiver`: the sender of the received document; `message_id`: the Invoice Response's. */
  { document_id: string; code: ResponseCode } & AttemptFacts
>;

/** Every event type of the stream, for subscribers that follow whole documents. */
// Excluded from mutation: the names are the stored events' persisted type names, each checked by
// the compiler against the DocumentEvent union (a misspelt name does not compile; Stryker compiles
// its mutants unchecked). What the list is for, the documents projection and the webhook
// subscription following every document event, is tested by the HTTP suites (PostgreSQL), which
// the mutation run does not include: its domain suites have no subscriber to miss a name.
// Stryker disable StringLiteral,ArrayDeclaration: persisted event type names, checked by the compiler against the DocumentEvent union; the projection and subscription that follow them are tested by suites the mutation run does not run
export const DOCUMENT_EVENT_TYPES: readonly DocumentEvent['type'][] = [
  'DocumentCreated',
  'DocumentValidated',
  'AttachmentAdded',
  'AttachmentRemoved',
  'DocumentDeleted',
  'SendRequested',
  'DeliveryAttempted',
  'DocumentSent',
  'DocumentFailed',
  'DocumentReceived',
  'DocumentAccepted',
  'DocumentRejected',
  'ResponseReceived',
  'ResponseDeliveryAttempted',
  'MlsReceived',
];
// Stryker restore StringLiteral,ArrayDeclaration

export interface InboundSender {
  peppol_id: string | null;
  /** Set when the sender is a tenant of this instance (internal delivery): where responses go. */
  tenant_id: string | null;
  document_id: string | null;
  /**
   * Set when the document came over AS4 from another access point: its message id and that access
   * point's seat id (the signer's CN), where an Invoice Response goes back. Absent on older events.
   */
  as4?: { message_id: string; sender_ap: string } | null;
}

export type DocumentEvent =
  | DocumentCreated
  | DocumentValidated
  | AttachmentAdded
  | AttachmentRemoved
  | DocumentDeleted
  | SendRequested
  | DeliveryAttempted
  | DocumentSent
  | DocumentFailed
  | DocumentReceived
  | DocumentAccepted
  | DocumentRejected
  | ResponseReceived
  | ResponseDeliveryAttempted
  | MlsReceived;

/**
 * What is asked of a document: create a draft, attach, send (and record each attempt), receive,
 * answer, record the receiver's answer. Each names an intent, never the state it leads to.
 */
export type DocumentCommand =
  | {
      type: 'CreateDraft';
      data: Omit<DocumentCreated['data'], 'created_at' | 'recorded_lifecycle' | 'source'> & {
        source: DraftSource;
        now: string;
      };
    }
  | {
      type: 'RecordValidation';
      data: Omit<DocumentValidated['data'], 'validated_at' | 'document_id'> & { now: string };
    }
  /**
   * `ubl_ref`: the document's UBL written again with the attachment, checked by the application
   * off the event loop (documentAttachments.ublWithAttachments): the rule engine's cost grows with
   * the document, and deciding stays cheap.
   */
  | { type: 'AddAttachment'; data: { attachment: StoredAttachment; ubl_ref: UblRef; now: string } }
  | { type: 'RemoveAttachment'; data: { attachment_id: string; ubl_ref: UblRef; now: string } }
  | { type: 'DeleteDocument'; data: { now: string } }
  | { type: 'RequestSend'; data: Omit<SendRequested['data'], 'document_id' | 'requested_at'> & { now: string } }
  /** `retry_at`: when a retry would be due (null past the schedule); the decider decides whether there is one. */
  | {
      type: 'RecordAttempt';
      data: Omit<DeliveryAttempted['data'], 'document_id' | 'next_attempt_at'> & {
        retry_at: string | null;
        now: string;
      };
    }
  /**
   * Stops a delivery that waits for its next attempt: the document is FAILED with the reason
   * "cancelled" (the retry job then finds nothing to do). A delivery whose attempt is due or
   * under way cannot be cancelled: its outcome is about to be recorded.
   */
  | { type: 'CancelDelivery'; data: { now: string } }
  | { type: 'ReceiveDocument'; data: Omit<DocumentReceived['data'], 'received_at'> & { now: string } }
  | { type: 'AcceptDocument'; data: { note: string | null; now: string } }
  | { type: 'RejectDocument'; data: { reason: string; now: string } }
  | { type: 'RecordResponse'; data: Omit<ResponseReceived['data'], 'document_id' | 'received_at'> & { now: string } }
  /** The receiving provider's MLS about the delivery whose message id it names (it must be the current one). */
  | {
      type: 'RecordMls';
      data: Omit<MlsReceived['data'], 'document_id' | 'delivery_id' | 'received_at'> & { now: string };
    }
  /** `retry_at`: when a retry would be due (null past the schedule); the decider decides whether there is one. */
  | {
      type: 'RecordResponseDelivery';
      data: Omit<ResponseDeliveryAttempted['data'], 'document_id' | 'next_attempt_at'> & { retry_at: string | null };
    };

export interface DocumentRecord {
  id: string;
  tenant_id: string;
  source: DocumentSource;
  state: DocumentState;
  direction: Direction;
  header: DocumentHeader;
  document_ref: ContentRef;
  ubl_ref: UblRef;
  file_name: string;
  attachments: StoredAttachment[];
  created_at: string;
  updated_at: string;
  validated_at: string | null;
  /** The current (or last) delivery of an outbound document. */
  delivery: DeliveryState | null;
  /** Where an inbound document came from. */
  inbound: (InboundSender & { message_id: string; received_at: string; receiver_peppol_id: string }) | null;
  /** Accept or reject: given by this tenant (inbound) or by the receiver (outbound). */
  response: { code: ResponseCode; reason: string | null; responded_at: string } | null;
  /**
   * How taking this tenant's answer back to a sender on another access point goes (inbound, AS4);
   * absent until the first attempt (so that read models of other documents keep their shape).
   */
  response_delivery?: ResponseDeliveryState;
  /** The receiving provider's Message Level Status about the current delivery; absent until one came. */
  mls?: MlsState;
}

export interface MlsState {
  delivery_id: string;
  code: string | null;
  valid: boolean;
  description: string | null;
  received_at: string;
  /** For a valid RE: the failure reason it gives the document. */
  rejection: string | null;
}

/** The failure reason of a document the receiving access point rejected by a valid MLS RE. */
export const mlsRejection = (mls: Pick<MlsReceived['data'], 'description' | 'issues'>): string => {
  const issues = mls.issues
    .slice(0, 3)
    .map((i) => i.description)
    .filter((d): d is string => !!d);
  const more = mls.issues.length > 3 ? `; and ${mls.issues.length - 3} more` : '';
  return `rejected by the receiving access point (MLS RE): ${mls.description ?? 'no reason given'}${issues.length ? ` — ${issues.join('; ')}${more}` : ''}`;
};

/** Whether an MLS of the current delivery rejected the document (a valid RE). */
const rejectedByMls = (state: Present): MlsState | null =>
  state.mls?.rejection && state.mls.delivery_id === state.delivery?.delivery_id ? state.mls : null;

export interface ResponseDeliveryState {
  attempts: number;
  last_outcome: AttemptOutcome;
  next_attempt_at: string | null;
  /** When the response reached the sender's access point (its receipt). */
  delivered_at: string | null;
}

/** The current delivery: what was requested, and how its attempts went. */
export type DeliveryState = Omit<SendRequested['data'], 'document_id'> & {
  attempts: number;
  last_outcome: AttemptOutcome | null;
  next_attempt_at: string | null;
  failure_reason: string | null;
};

export type DocumentAggregateState =
  | { status: 'absent' }
  | { status: 'deleted'; id: string; tenant_id: string }
  | ({ status: 'present' } & DocumentRecord);

export const documentStream = (id: string) => `document-${id}`;

/**
 * Uploaded UBL is the document its seller issued and is sent exactly as uploaded: adding or
 * removing an attachment here would change the legal document (or leave our list contradicting
 * it), so such a document's attachments are the ones embedded in the UBL the seller uploads.
 */
function requireAttachmentsEditable(state: Present, verb: 'added to' | 'removed from'): void {
  if (state.state !== 'DRAFT')
    throw invalidState(`Attachments can only be ${verb} a DRAFT document; this one is ${state.state}`);
  if (state.source === 'ubl') {
    throw invalidState(
      `Attachments cannot be ${verb} a document created from uploaded UBL: it is sent as uploaded, so embed them in the UBL (cac:AdditionalDocumentReference) before uploading it`,
    );
  }
}

/** States a document may be deleted in: it has not left, or it failed to. */
const DELETABLE: ReadonlySet<DocumentState> = new Set(['DRAFT', 'FAILED']);
/** States a document may be sent from: a manual send from FAILED starts a fresh delivery. */
const SENDABLE: ReadonlySet<DocumentState> = DELETABLE;

type Present = { status: 'present' } & DocumentRecord;

const responseWord = (code: ResponseCode) => (code === 'AP' ? 'accepted' : 'rejected');

function decideAttempt(
  command: Extract<DocumentCommand, { type: 'RecordAttempt' }>['data'],
  state: Present,
): DocumentEvent[] {
  const delivery = state.delivery;
  // A stale or repeated attempt (a job re-run after a crash, or of a delivery a later send
  // replaced) changes nothing: the process manager reads the recorded outcome instead.
  if (
    state.state !== 'TRANSIT' ||
    !delivery ||
    delivery.delivery_id !== command.delivery_id ||
    command.attempt !== delivery.attempts + 1
  )
    return [];
  const { retry_at, now, ...attempt } = command;
  const settles = attempt.outcome !== 'retryable' || retry_at === null || attempt.attempt >= MAX_ATTEMPTS;
  const attempted: DeliveryAttempted = {
    type: 'DeliveryAttempted',
    data: { ...attempt, document_id: state.id, next_attempt_at: settles ? null : retry_at },
  };
  switch (attempt.outcome) {
    case 'delivered': {
      const sent: DocumentSent = {
        type: 'DocumentSent',
        data: {
          document_id: state.id,
          delivery_id: delivery.delivery_id,
          message_id: attempt.message_id,
          sent_at: now,
        },
      };
      // The receiving provider's RE came before our receipt was recorded: delivered, and then refused.
      const rejected = rejectedByMls(state);
      return rejected ? [attempted, sent, failed(state, delivery, rejected.rejection!, now)] : [attempted, sent];
    }
    case 'permanent':
      return [attempted, failed(state, delivery, attempt.error ?? 'permanent delivery failure', now)];
    case 'retryable':
      return settles
        ? [
            attempted,
            failed(
              state,
              delivery,
              `no success after ${attempt.attempt} attempts; last error: ${attempt.error ?? 'unknown'}`,
              now,
            ),
          ]
        : [attempted];
    default:
      return assertNever(attempt.outcome);
  }
}

/** The failure reason of a delivery cancelled by its sender. */
export const CANCELLED = 'cancelled';

const failed = (state: Present, delivery: DeliveryState, reason: string, now: string): DocumentFailed => ({
  type: 'DocumentFailed',
  data: { document_id: state.id, delivery_id: delivery.delivery_id, reason, failed_at: now },
});

function requireRespondable(state: Present): void {
  if (state.direction !== 'INBOUND') throw invalidState('Only received documents can be accepted or rejected');
  if (state.response) throw invalidState(`The document was already ${responseWord(state.response.code)}`);
  if (state.state !== 'RECEIVED') throw invalidState(`A ${state.state} document cannot be accepted or rejected`);
}

const withDelivery = (
  state: DocumentAggregateState,
  at: string,
  change: (d: DeliveryState) => Partial<DeliveryState>,
  docState?: DocumentState,
): DocumentAggregateState =>
  state.status === 'present' && state.delivery
    ? {
        ...state,
        state: docState ?? state.state,
        updated_at: at,
        delivery: { ...state.delivery, ...change(state.delivery) },
      }
    : state;

function present(state: DocumentAggregateState): asserts state is Present {
  if (state.status !== 'present') throw notFound('Document not found');
}

export const documentDecider: Decider<DocumentAggregateState, DocumentCommand, DocumentEvent> = {
  initialState: () => ({ status: 'absent' }),

  decide(command, state) {
    switch (command.type) {
      case 'CreateDraft': {
        if (state.status !== 'absent') throw conflict('Document already exists');
        // The lifecycle is the service's: a created document starts as an outbound draft (evolve
        // says so), and inbound documents come only from delivery (ReceiveDocument). The event is
        // made of the named facts only, so nothing else a caller passes is ever recorded.
        const d = command.data;
        return [
          {
            type: 'DocumentCreated',
            data: {
              document_id: d.document_id,
              tenant_id: d.tenant_id,
              source: d.source,
              file_name: d.file_name,
              header: d.header,
              document_ref: d.document_ref,
              ubl_ref: d.ubl_ref,
              attachments: d.attachments,
              created_at: d.now,
            },
          },
        ];
      }
      case 'RecordValidation': {
        present(state);
        const { now, ...data } = command.data;
        return [{ type: 'DocumentValidated', data: { ...data, document_id: state.id, validated_at: now } }];
      }
      case 'AddAttachment': {
        present(state);
        requireAttachmentsEditable(state, 'added to');
        const { attachment, ubl_ref, now } = command.data;
        requireTransmittable(attachment);
        return [{ type: 'AttachmentAdded', data: { document_id: state.id, attachment, ubl_ref, added_at: now } }];
      }
      case 'RemoveAttachment': {
        present(state);
        const { attachment_id, ubl_ref, now } = command.data;
        if (!state.attachments.some((a) => a.id === attachment_id)) throw notFound('Attachment not found');
        requireAttachmentsEditable(state, 'removed from');
        return [
          { type: 'AttachmentRemoved', data: { document_id: state.id, attachment_id, ubl_ref, removed_at: now } },
        ];
      }
      case 'DeleteDocument':
        present(state);
        if (!DELETABLE.has(state.state)) {
          throw invalidState(`A ${state.state} document cannot be deleted; only DRAFT and FAILED documents can`);
        }
        return [{ type: 'DocumentDeleted', data: { document_id: state.id, deleted_at: command.data.now } }];
      case 'RequestSend': {
        present(state);
        if (state.direction === 'INBOUND') throw invalidState('A received document cannot be sent');
        if (!SENDABLE.has(state.state))
          throw invalidState(`A ${state.state} document cannot be sent; only DRAFT and FAILED documents can`);
        const { now, ...data } = command.data;
        return [{ type: 'SendRequested', data: { ...data, document_id: state.id, requested_at: now } }];
      }
      case 'RecordAttempt':
        present(state);
        return decideAttempt(command.data, state);
      case 'CancelDelivery': {
        present(state);
        const { now } = command.data;
        if (state.state !== 'TRANSIT' || !state.delivery)
          throw invalidState(
            `A ${state.state} document has no delivery to cancel; only one in TRANSIT can be cancelled`,
          );
        const next = state.delivery.next_attempt_at;
        if (next === null || Date.parse(next) <= Date.parse(now))
          throw invalidState(
            'The delivery is being attempted now; it can be cancelled while it waits for a retry (try again in a moment)',
          );
        return [failed(state, state.delivery, CANCELLED, now)];
      }
      case 'ReceiveDocument': {
        // The stream id derives from the message id: a second delivery of the same message is a no-op.
        if (state.status === 'present' && state.inbound?.message_id === command.data.message_id) return [];
        if (state.status !== 'absent') throw conflict('Document already exists');
        const d = command.data;
        return [
          {
            type: 'DocumentReceived',
            data: {
              document_id: d.document_id,
              tenant_id: d.tenant_id,
              file_name: d.file_name,
              header: d.header,
              document_ref: d.document_ref,
              ubl_ref: d.ubl_ref,
              attachments: d.attachments,
              message_id: d.message_id,
              receiver_peppol_id: d.receiver_peppol_id,
              sender: d.sender,
              received_at: d.now,
            },
          },
        ];
      }
      case 'AcceptDocument':
        present(state);
        requireRespondable(state);
        return [
          {
            type: 'DocumentAccepted',
            data: { document_id: state.id, note: command.data.note, accepted_at: command.data.now },
          },
        ];
      case 'RejectDocument':
        present(state);
        requireRespondable(state);
        return [
          {
            type: 'DocumentRejected',
            data: { document_id: state.id, reason: command.data.reason, rejected_at: command.data.now },
          },
        ];
      case 'RecordResponse': {
        present(state);
        const { now, ...data } = command.data;
        if (state.direction !== 'OUTBOUND') throw invalidState('Responses are recorded on outbound documents');
        if (state.response) {
          if (state.response.code === data.code && state.response.reason === data.reason) return [];
          throw conflict(`The receiver already ${responseWord(state.response.code)} this document`);
        }
        // The buyer may answer before the sender's delivery is recorded (the inbound copy is
        // written first): a response proves delivery, so TRANSIT takes it too.
        if (state.state !== 'SENT' && state.state !== 'TRANSIT')
          throw invalidState(`A ${state.state} document cannot have a response`);
        return [{ type: 'ResponseReceived', data: { ...data, document_id: state.id, received_at: now } }];
      }
      case 'RecordMls': {
        present(state);
        const { now, ...data } = command.data;
        if (state.direction !== 'OUTBOUND') throw invalidState('An MLS is recorded on a document we sent');
        const delivery = state.delivery;
        if (!delivery || delivery.message_id !== data.message_id)
          throw invalidState(`The MLS is about message ${data.message_id}, not this document's current delivery`);
        // One MLS per delivery: a repeat (or a second one, which the specification forbids) changes nothing.
        if (state.mls?.delivery_id === delivery.delivery_id) return [];
        const received: MlsReceived = {
          type: 'MlsReceived',
          data: { ...data, document_id: state.id, delivery_id: delivery.delivery_id, received_at: now },
        };
        // A valid RE of a document SENT fails it: the user can correct it and send it again.
        // In TRANSIT (the MLS overtook our receipt) the attempt's outcome fails it when it is recorded.
        if (data.valid && data.code === 'RE' && state.state === 'SENT')
          return [received, failed(state, delivery, mlsRejection(data), now)];
        return [received];
      }
      case 'RecordResponseDelivery': {
        present(state);
        const { retry_at, ...attempt } = command.data;
        if (state.direction !== 'INBOUND' || !state.response)
          throw invalidState('Only the answer to a received document is delivered back to its sender');
        // A repeated attempt (a job re-run after a crash) changes nothing; the job reads what was recorded.
        const done = state.response_delivery;
        if (attempt.attempt !== (done?.attempts ?? 0) + 1 || (done && done.next_attempt_at === null)) return [];
        const settles = attempt.outcome !== 'retryable' || retry_at === null || attempt.attempt >= MAX_ATTEMPTS;
        return [
          {
            type: 'ResponseDeliveryAttempted',
            data: { ...attempt, document_id: state.id, next_attempt_at: settles ? null : retry_at },
          },
        ];
      }
      default:
        return assertNever(command);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'DocumentCreated': {
        const d = event.data;
        return {
          status: 'present',
          id: d.document_id,
          tenant_id: d.tenant_id,
          source: d.source,
          state: d.recorded_lifecycle?.state ?? 'DRAFT',
          direction: d.recorded_lifecycle?.direction ?? 'OUTBOUND',
          header: d.header,
          document_ref: d.document_ref,
          ubl_ref: d.ubl_ref,
          file_name: d.file_name,
          attachments: d.attachments,
          created_at: d.created_at,
          updated_at: d.created_at,
          validated_at: null,
          delivery: null,
          inbound: null,
          response: null,
        };
      }
      case 'DocumentReceived': {
        const d = event.data;
        return {
          status: 'present',
          id: d.document_id,
          tenant_id: d.tenant_id,
          source: 'peppol',
          state: 'RECEIVED',
          direction: 'INBOUND',
          header: d.header,
          document_ref: d.document_ref,
          ubl_ref: d.ubl_ref,
          file_name: d.file_name,
          attachments: d.attachments,
          created_at: d.received_at,
          updated_at: d.received_at,
          validated_at: null,
          delivery: null,
          inbound: {
            ...d.sender,
            message_id: d.message_id,
            received_at: d.received_at,
            receiver_peppol_id: d.receiver_peppol_id,
          },
          response: null,
        };
      }
      case 'SendRequested': {
        if (state.status !== 'present') return state;
        const { document_id: _id, ...d } = event.data;
        const delivery: DeliveryState = {
          ...d,
          attempts: 0,
          last_outcome: null,
          next_attempt_at: null,
          failure_reason: null,
        };
        return { ...state, state: 'TRANSIT', updated_at: d.requested_at, delivery };
      }
      case 'DeliveryAttempted': {
        const d = event.data;
        return withDelivery(state, d.started_at, () => ({
          attempts: d.attempt,
          last_outcome: d.outcome,
          next_attempt_at: d.next_attempt_at,
        }));
      }
      case 'DocumentSent':
        return withDelivery(state, event.data.sent_at, () => ({ next_attempt_at: null }), 'SENT');
      case 'DocumentFailed':
        return withDelivery(
          state,
          event.data.failed_at,
          () => ({ next_attempt_at: null, failure_reason: event.data.reason }),
          'FAILED',
        );
      case 'DocumentAccepted':
        return state.status === 'present'
          ? {
              ...state,
              updated_at: event.data.accepted_at,
              response: { code: 'AP', reason: event.data.note, responded_at: event.data.accepted_at },
            }
          : state;
      case 'DocumentRejected':
        return state.status === 'present'
          ? {
              ...state,
              updated_at: event.data.rejected_at,
              response: { code: 'RE', reason: event.data.reason, responded_at: event.data.rejected_at },
            }
          : state;
      case 'ResponseReceived':
        return state.status === 'present'
          ? {
              ...state,
              updated_at: event.data.received_at,
              response: { code: event.data.code, reason: event.data.reason, responded_at: event.data.received_at },
            }
          : state;
      case 'ResponseDeliveryAttempted': {
        if (state.status !== 'present') return state;
        const d = event.data;
        const finished = new Date(Date.parse(d.started_at) + d.duration_ms).toISOString();
        return {
          ...state,
          response_delivery: {
            attempts: d.attempt,
            last_outcome: d.outcome,
            next_attempt_at: d.next_attempt_at,
            delivered_at: d.outcome === 'delivered' ? finished : null,
          },
        };
      }
      case 'MlsReceived': {
        if (state.status !== 'present') return state;
        const d = event.data;
        return {
          ...state,
          updated_at: d.received_at,
          mls: {
            delivery_id: d.delivery_id,
            code: d.code,
            valid: d.valid,
            description: d.description,
            received_at: d.received_at,
            rejection: d.valid && d.code === 'RE' ? mlsRejection(d) : null,
          },
        };
      }
      case 'DocumentValidated':
        return state.status === 'present' ? { ...state, validated_at: event.data.validated_at } : state;
      // The attachments in order (the document's own first, then those added) are what the UBL
      // is written again from, with the content.
      case 'AttachmentAdded': {
        if (state.status !== 'present') return state;
        const { attachment, ubl_ref, added_at } = event.data;
        return {
          ...state,
          attachments: [...state.attachments, attachment],
          ubl_ref: ubl_ref ?? state.ubl_ref,
          updated_at: added_at,
        };
      }
      case 'AttachmentRemoved': {
        if (state.status !== 'present') return state;
        const { attachment_id, ubl_ref, removed_at } = event.data;
        return {
          ...state,
          attachments: state.attachments.filter((a) => a.id !== attachment_id),
          ubl_ref: ubl_ref ?? state.ubl_ref,
          updated_at: removed_at,
        };
      }
      case 'DocumentDeleted':
        return state.status === 'present' ? { status: 'deleted', id: state.id, tenant_id: state.tenant_id } : state;
      default:
        return assertNever(event);
    }
  },
};
