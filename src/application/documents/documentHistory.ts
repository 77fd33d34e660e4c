import { EVENT_STORE, type EventStore } from '../ports/eventStore.js';
import { inject, injectable } from '../injection.js';
import { assertNever } from '../../domain/decider.js';
import {
  documentDecider,
  documentStream,
  type As4AttemptEvidence,
  type DeliveryAttempted,
  type DocumentRecord,
  type DocumentEvent,
  type SendRequested,
} from '../../domain/document/lifecycle/documentAggregate.js';
import { notFound } from '../../domain/errors.js';
import { DocumentContent } from './documentContent.js';
import { as4MessageStream, type As4MessageReceived } from './as4MessageRecord.js';
import { toDomainEvent } from '../commandHandler.js';
import { fold } from '../../domain/decider.js';
import { documentResponse, type DocumentResource } from '../readModels/documentView.js';
import { actorView, describeActor } from '../actor.js';
import { actorsOf } from '../actorHistory.js';

export interface AttemptReport {
  attempt: number;
  /** 0 for the first attempt, then 1–10 for the retries of the schedule. */
  retry: number;
  transport: string;
  receiver: string;
  started_at: string;
  finished_at: string;
  duration_ms: number;
  outcome: string;
  error: string | null;
  message_id: string;
  next_attempt_at: string | null;
  /** Over Peppol AS4 (absent for other transports, so earlier reports read as they did). */
  as4_message_id?: string;
  endpoint_url?: string;
  receipt_received_at?: string | null;
  /** Whether the receipt is signed by the receiving AP and acknowledges exactly what was sent; null without a receipt. */
  receipt_verified?: boolean | null;
  receipt_verification?: string | null;
  remote_ap?: As4AttemptEvidence['remote_ap'];
  ebms_error_codes?: string[] | null;
}

export interface DeliveryReport {
  delivery_id: string;
  message_id: string;
  transport: string;
  sender_peppol_id: string | null;
  receiver_peppol_id: string | null;
  email: string | null;
  requested_at: string;
  /** Who asked for it, in words (actor.ts). */
  requested_by: string;
  status: 'in_progress' | 'sent' | 'failed';
  completed_at: string | null;
  failure_reason: string | null;
  next_attempt_at: string | null;
  attempts: AttemptReport[];
  /** The receiving provider's Message Level Status about this delivery; null until one came. */
  mls: MlsReport | null;
}

/** An MLS as the transmission report shows it (AP/AB: delivered; RE: rejected, not delivered). */
export interface MlsReport {
  code: string | null;
  description: string | null;
  issues: Array<{ location: string | null; description: string | null; reason: string | null }>;
  valid: boolean;
  problems: string[];
  mls_id: string | null;
  sender_ap: string;
  received_at: string;
}

/**
 * What the history shows of an event: what happened, not the payloads (the content, the UBL, the
 * attachments' bytes) nor the references to them, nor the facts the lists keep. Events recorded
 * before the payloads left them read as the same entries (the upcaster gives them today's shape).
 */
function summary(event: DocumentEvent): Record<string, unknown> {
  switch (event.type) {
    case 'DocumentCreated': {
      const {
        header,
        document_ref: _content,
        ubl_ref: _ubl,
        attachments: _attachments,
        recorded_lifecycle,
        ...rest
      } = event.data;
      return {
        ...rest,
        invoice_id: header.invoice_id,
        document_type: header.document_type,
        state: recorded_lifecycle?.state ?? 'DRAFT',
      };
    }
    case 'DocumentReceived': {
      // The sender's tenant and document ids are this instance's business, not the receiver's.
      const { header, document_ref: _content, ubl_ref: _ubl, attachments: _attachments, sender, ...rest } = event.data;
      return {
        ...rest,
        sender: { peppol_id: sender.peppol_id },
        invoice_id: header.invoice_id,
        document_type: header.document_type,
      };
    }
    case 'AttachmentAdded': {
      const { content: _content, ...attachment } = event.data.attachment;
      const { ubl_ref: _ubl, ...rest } = event.data;
      return { ...rest, attachment };
    }
    case 'AttachmentRemoved': {
      const { ubl_ref: _ubl, ...rest } = event.data;
      return rest;
    }
    case 'ResponseReceived': {
      const { invoice_response_ref: _xml, ...rest } = event.data;
      return rest;
    }
    case 'MlsReceived': {
      const { mls_ref: _xml, ...rest } = event.data;
      return rest;
    }
    case 'DeliveryAttempted': {
      // The e-mail as sent is a reference to a stored message: the evidence bundle serves it.
      const { as4, email: _email, ...rest } = event.data;
      return as4 ? { ...rest, as4: as4Facts(as4) } : rest;
    }
    case 'ResponseDeliveryAttempted': {
      const { as4, ...rest } = event.data;
      return as4 ? { ...rest, as4: as4Facts(as4) } : rest;
    }
    case 'DocumentValidated':
    case 'DocumentDeleted':
    case 'SendRequested':
    case 'DocumentSent':
    case 'DocumentFailed':
    case 'DocumentAccepted':
    case 'DocumentRejected':
      return { ...event.data };
    default:
      return assertNever(event);
  }
}

/** AS4 evidence without the references to the stored messages (the evidence route serves those). */
function as4Facts(as4: As4AttemptEvidence) {
  const { message_ref: _message, signal_ref: _signal, receipt, ...facts } = as4;
  if (!receipt) return { ...facts, receipt: null };
  const { ref: _receipt, ...receiptFacts } = receipt;
  return { ...facts, receipt: receiptFacts };
}

/** One step of a document's life, as the timeline shows it. */
export interface TimelineEntry {
  /** What happened: created, validated, attachment_added, attachment_removed, send_requested, delivery_attempted, sent, failed, received, accepted, rejected, response_received, response_delivery_attempted, mls_received, deleted. */
  type: string;
  /** When it happened (for an attempt: when it started). */
  at: string;
  /** Who did it, in words: "API key 'erp' (…)", "the operator", "access point POP000123", "delivery job", or "unknown". */
  actor: string;
  /** The same as recorded: {kind: api_key|organization_admin|operator|access_point|system|unknown, and its ids}. */
  actor_detail: Record<string, string | null>;
  /**
   * What happened, who did it and as whom, in words: "created by API key 'app' (…)", "sent by API
   * key 'app' (…) as 0208:0123456749 to …" (the participant the document went as), "accepted by
   * … as …"; null for the other steps.
   */
  summary: string | null;
  /** The facts of the step (as in the history, without the document id). */
  details: Record<string, unknown>;
}

const TIMELINE_TYPES: Record<DocumentEvent['type'], string> = {
  DocumentCreated: 'created',
  DocumentValidated: 'validated',
  AttachmentAdded: 'attachment_added',
  AttachmentRemoved: 'attachment_removed',
  DocumentDeleted: 'deleted',
  SendRequested: 'send_requested',
  DeliveryAttempted: 'delivery_attempted',
  DocumentSent: 'sent',
  DocumentFailed: 'failed',
  DocumentReceived: 'received',
  DocumentAccepted: 'accepted',
  DocumentRejected: 'rejected',
  ResponseReceived: 'response_received',
  ResponseDeliveryAttempted: 'response_delivery_attempted',
  MlsReceived: 'mls_received',
};

/** The steps a person takes, in words: who created, sent or answered, and as which participant. */
function stepSummary(event: DocumentEvent, who: string, addressee: string | null): string | null {
  switch (event.type) {
    case 'DocumentCreated':
      return `created by ${who}`;
    case 'SendRequested': {
      const as = event.data.sender_peppol_id ?? '(no participant id)';
      return event.data.transport === 'email'
        ? `sent by ${who} as ${as}, in test mode by e-mail to ${event.data.email}`
        : `sent by ${who} as ${as} to ${event.data.receiver_peppol_id}`;
    }
    case 'DocumentAccepted':
      return `accepted by ${who} as ${addressee ?? '(no participant id)'}`;
    case 'DocumentRejected':
      return `rejected by ${who} as ${addressee ?? '(no participant id)'}`;
    default:
      return null;
  }
}

/** When an event says it happened: its own time fact, else when it was recorded. */
function happenedAt(event: DocumentEvent, recordedAt: string): string {
  const data = event.data as Record<string, unknown>;
  for (const field of [
    'created_at',
    'validated_at',
    'added_at',
    'removed_at',
    'deleted_at',
    'requested_at',
    'started_at',
    'sent_at',
    'failed_at',
    'received_at',
    'accepted_at',
    'rejected_at',
  ]) {
    if (typeof data[field] === 'string') return data[field];
  }
  return recordedAt;
}

/** Audit views of one document, read straight from its event stream. */
@injectable()
export class DocumentHistory {
  constructor(
    @inject(EVENT_STORE) private readonly store: EventStore,
    @inject(DocumentContent) private readonly content: Pick<DocumentContent, 'blob' | 'withContent'>,
  ) {}

  /**
   * The tenant's document events and state; a deleted document's history stays readable for audit.
   * With `asOf`, only the events up to that global position: one that did not exist then is not found.
   */
  private async load(tenantId: string, documentId: string, asOf?: bigint) {
    const all = await this.store.readStream(documentStream(documentId));
    const events = asOf === undefined ? all : all.filter((e) => e.globalPosition <= asOf);
    const state = fold(documentDecider, events.map(toDomainEvent<DocumentEvent>));
    if (state.status === 'absent' || state.tenant_id !== tenantId) throw notFound('Document not found');
    return { events, state };
  }

  /**
   * The document as GET /api/documents/{id} showed it at the global position `asOf`: its events up
   * to there, folded (the documents read model is the same fold, kept). Not found when it did not
   * exist then, was deleted by then, or is another tenant's.
   */
  async documentAsOf(
    tenantId: string,
    documentId: string,
    asOf: bigint,
    direction?: 'OUTBOUND' | 'INBOUND',
  ): Promise<DocumentResource> {
    const { state } = await this.load(tenantId, documentId, asOf);
    if (state.status !== 'present' || (direction !== undefined && state.direction !== direction))
      throw notFound('Document not found');
    const { status: _status, ...record } = state;
    return documentResponse(await this.content.withContent(record));
  }

  async history(tenantId: string, documentId: string, asOf?: bigint) {
    const { events } = await this.load(tenantId, documentId, asOf);
    const actors = await actorsOf(this.store, events);
    return {
      document_id: documentId,
      events: events.map((e, i) => ({
        id: e.id,
        type: e.type,
        revision: e.revision,
        position: String(e.globalPosition),
        recorded_at: e.recordedAt,
        actor: describeActor(actors[i]!),
        actor_detail: actorView(actors[i]!),
        request_id: e.metadata.requestId ?? null,
        data: summary(toDomainEvent<DocumentEvent>(e)),
      })),
    };
  }

  /** The document's life, oldest first: each step with its time, who did it and its facts. */
  async timeline(
    tenantId: string,
    documentId: string,
    asOf?: bigint,
  ): Promise<{ document_id: string; state: string | null; items: TimelineEntry[] }> {
    const { events, state } = await this.load(tenantId, documentId, asOf);
    const actors = await actorsOf(this.store, events);
    // Who answered a received document answered as the participant it was addressed to.
    const addressee = state.status === 'present' ? (state.inbound?.receiver_peppol_id ?? null) : null;
    return {
      document_id: documentId,
      state: state.status === 'present' ? state.state : null,
      items: events.map((recorded, i) => {
        const event = toDomainEvent<DocumentEvent>(recorded);
        const { document_id: _id, ...details } = summary(event);
        return {
          type: TIMELINE_TYPES[event.type],
          at: happenedAt(event, recorded.recordedAt),
          actor: describeActor(actors[i]!),
          actor_detail: actorView(actors[i]!),
          summary: stepSummary(event, describeActor(actors[i]!), addressee),
          details,
        };
      }),
    };
  }

  /**
   * The AS4 evidence of a document: for one sent over AS4, the signed receipt of the delivery that
   * sent it (or the message as posted); for one received over AS4, the signed receipt this access
   * point answered (or the message as received).
   */
  async evidence(
    tenantId: string,
    documentId: string,
    part: 'receipt' | 'message',
  ): Promise<{ bytes: Buffer; mediaType: string }> {
    const { events, state } = await this.load(tenantId, documentId);
    if (state.status === 'present' && state.direction === 'INBOUND') return this.receivedEvidence(state, part);
    let evidence: As4AttemptEvidence | null = null;
    for (const recorded of events) {
      const event = toDomainEvent<DocumentEvent>(recorded);
      if (event.type === 'SendRequested') evidence = null;
      if (event.type === 'DeliveryAttempted' && event.data.outcome === 'delivered') evidence = event.data.as4 ?? null;
    }
    const ref = part === 'receipt' ? evidence?.receipt?.ref : evidence?.message_ref;
    if (!ref) throw notFound('The document has no AS4 receipt: it was not sent over Peppol AS4');
    const mediaType = (part === 'message' ? evidence?.message_content_type : null) ?? ref.media_type;
    return { bytes: await this.content.blob(ref), mediaType };
  }

  private async receivedEvidence(
    state: Pick<DocumentRecord, 'inbound'>,
    part: 'receipt' | 'message',
  ): Promise<{ bytes: Buffer; mediaType: string }> {
    const messageId = state.inbound?.as4 ? state.inbound.message_id : null;
    const record = messageId
      ? (await this.store.readStream(as4MessageStream(messageId))).find((e) => e.type === 'As4MessageReceived')
      : undefined;
    if (!record) throw notFound('The document has no AS4 receipt: it was not received over Peppol AS4');
    const data = record.data as As4MessageReceived['data'];
    return part === 'receipt'
      ? { bytes: await this.content.blob(data.receipt_ref), mediaType: data.receipt_content_type }
      : { bytes: await this.content.blob(data.message_ref), mediaType: data.message_content_type };
  }

  /** Every delivery of the document and every attempt of each, derived from its history. */
  async transmissionReport(tenantId: string, documentId: string, asOf?: bigint) {
    const { events, state } = await this.load(tenantId, documentId, asOf);
    const actors = await actorsOf(this.store, events);
    const deliveries: DeliveryReport[] = [];
    // Received documents: each attempt to take the tenant's answer back to the sender's access point.
    const responseDeliveries: Array<Record<string, unknown>> = [];
    const current = () => deliveries[deliveries.length - 1];
    for (const [i, recorded] of events.entries()) {
      const event = toDomainEvent<DocumentEvent>(recorded);
      switch (event.type) {
        case 'SendRequested':
          deliveries.push(deliveryOf(event.data, describeActor(actors[i]!)));
          break;
        case 'DeliveryAttempted': {
          const d = current();
          if (d?.delivery_id === event.data.delivery_id) {
            d.attempts.push(attemptOf(event.data));
            d.next_attempt_at = event.data.next_attempt_at;
          }
          break;
        }
        case 'MlsReceived': {
          const d = deliveries.find((x) => x.delivery_id === event.data.delivery_id);
          if (d) {
            const { code, description, issues, valid, problems, mls_id, sender_ap, received_at } = event.data;
            d.mls = { code, description, issues, valid, problems, mls_id, sender_ap, received_at };
          }
          break;
        }
        case 'ResponseDeliveryAttempted': {
          const { as4, document_id: _id, ...attempt } = event.data;
          responseDeliveries.push({ ...attempt, ...(as4 ? as4Report(as4) : {}) });
          break;
        }
        case 'DocumentSent':
        case 'DocumentFailed': {
          const d = current();
          if (d?.delivery_id !== event.data.delivery_id) break;
          d.status = event.type === 'DocumentSent' ? 'sent' : 'failed';
          d.completed_at = event.type === 'DocumentSent' ? event.data.sent_at : event.data.failed_at;
          d.failure_reason = event.type === 'DocumentFailed' ? event.data.reason : null;
          d.next_attempt_at = null;
          break;
        }
        default:
          break;
      }
    }
    const present = state.status === 'present' ? state : null;
    return {
      document_id: documentId,
      state: present?.state ?? 'DELETED',
      direction: present?.direction ?? null,
      attempts_total: deliveries.reduce((n, d) => n + d.attempts.length, 0),
      deliveries,
      received: present?.inbound
        ? {
            message_id: present.inbound.message_id,
            sender_peppol_id: present.inbound.peppol_id,
            received_at: present.inbound.received_at,
            ...(present.inbound.as4 ? { sender_ap: present.inbound.as4.sender_ap } : {}),
          }
        : null,
      ...(responseDeliveries.length > 0 ? { response_deliveries: responseDeliveries } : {}),
      response: present?.response ?? null,
    };
  }
}

const deliveryOf = (d: SendRequested['data'], actor: string): DeliveryReport => ({
  delivery_id: d.delivery_id,
  message_id: d.message_id,
  transport: d.transport,
  sender_peppol_id: d.sender_peppol_id,
  receiver_peppol_id: d.receiver_peppol_id,
  email: d.email,
  requested_at: d.requested_at,
  requested_by: actor,
  status: 'in_progress',
  completed_at: null,
  failure_reason: null,
  next_attempt_at: null,
  attempts: [],
  mls: null,
});

const attemptOf = (a: DeliveryAttempted['data']): AttemptReport => ({
  attempt: a.attempt,
  retry: a.attempt - 1,
  transport: a.transport,
  receiver: a.receiver,
  started_at: a.started_at,
  finished_at: new Date(new Date(a.started_at).getTime() + a.duration_ms).toISOString(),
  duration_ms: a.duration_ms,
  outcome: a.outcome,
  error: a.error,
  message_id: a.message_id,
  next_attempt_at: a.next_attempt_at,
  ...(a.as4 ? as4Report(a.as4) : {}),
});

const as4Report = (as4: As4AttemptEvidence): Partial<AttemptReport> => ({
  as4_message_id: as4.message_id,
  endpoint_url: as4.endpoint_url,
  receipt_received_at: as4.receipt?.received_at ?? null,
  receipt_verified: as4.receipt?.verified ?? null,
  receipt_verification: as4.receipt?.verification ?? null,
  remote_ap: as4.remote_ap,
  ebms_error_codes: as4.error_codes ?? null,
});
