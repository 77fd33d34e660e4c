import type { Logger } from 'pino';
import {
  EVENT_STORE,
  WrongExpectedRevisionError,
  type EventMetadata,
  type EventStore,
  type RecordedEvent,
} from '../ports/eventStore.js';
import { LOCAL_PARTICIPANTS, type LocalParticipants } from '../ports/localParticipants.js';
import { LOGGER } from '../ports/logger.js';
import { OPERATIONAL_METRICS, type OperationalMetrics } from '../ports/operationalMetrics.js';
import { BLOB_STORE, type BlobStore } from '../ports/blobStore.js';
import { READ_MODEL_STORE, type ReadModelStore } from '../ports/readModelStore.js';
import {
  AS4_MESSAGE_CODEC,
  AS4_RECEPTION_OPTIONS,
  type As4Answer,
  type As4MessageCodec,
  type As4ReceptionOptions,
  type InboundAs4Message,
} from '../ports/as4Reception.js';
import { inject, injectable } from '../injection.js';
import { handleCommand, loadState } from '../commandHandler.js';
import { derivedId } from '../derivedId.js';
import { DOCUMENT_WORK } from '../documents/documentTokens.js';
import type { DocumentWork } from '../documents/documentWork.js';
import { RULE_SET_CLOCK, chooseRuleSet, type RuleSetClock } from '../documents/ruleSetChoice.js';
import { SERVICE_PROVIDER, type ServiceProvider } from '../ports/serviceProvider.js';
import { isMlsForUs, ReceivedMlsRecorder } from './receivedMls.js';
import { DocumentContent } from '../documents/documentContent.js';
import { fileNameOf } from '../documents/documentCommands.js';
import { DOCUMENTS, type DocumentView } from '../readModels/documentView.js';
import { as4MessageStream, type As4MessageReceived } from '../documents/as4MessageRecord.js';
import { payloadDigests, repeatOf } from './as4Repeat.js';
import { documentDecider, documentStream } from '../../domain/document/lifecycle/documentAggregate.js';
import type { ContentRef } from '../../domain/document/lifecycle/documentContent.js';
import type { ReceivedInvoiceResponse } from '../../domain/document/ubl/invoiceResponse.js';
import { checkServiced } from '../../domain/peppol/as4/peppolProfile.js';
import { describeEbmsError, ebmsError, type EbmsError } from '../../domain/peppol/as4/ebmsError.js';
import { participantKey } from '../../domain/peppol/participantId.js';
import { RECEIVED_DOCUMENT_TYPES } from '../../domain/peppol/smpDocuments.js';
import { DomainError } from '../../domain/errors.js';
import { accessPointActor } from '../actor.js';

export interface As4Request {
  contentType: string;
  body: Buffer;
  /** For the log line of a refusal. */
  remoteAddress: string | null;
}

/** What `POST /as4` answers: a receipt for a stored message, or an ebMS error (nothing stored). */
export interface As4Outcome {
  kind: 'receipt' | 'error';
  answer: As4Answer;
}

/** A message this access point refuses, with the ebMS errors that say why. */
class Refusal extends Error {
  constructor(readonly errors: EbmsError[]) {
    super(errors.map(describeEbmsError).join('; '));
  }
}

/**
 * Corner 3: receives Peppol AS4 messages from other access points. A message is opened and checked
 * by the codec (signature of a trusted AP, decryption, header, SBDH), its receiver must be a live
 * participant of this instance for a document type we publish, and it is stored before the signed
 * receipt is answered: the document enters the receiving tenant's inbox (DocumentReceived, as an
 * internal delivery does), an Invoice Response is recorded on the invoice it answers, and one
 * As4MessageReceived per MessageId keeps the message and the receipt. The same message again (a
 * sender's retry, perhaps after we crashed before answering: see as4Repeat) gets that receipt
 * again and nothing more is stored; the same MessageId with other content is refused. Every
 * refusal is a signed ebMS error and one log line.
 */
@injectable()
export class As4Inbox {
  private readonly logger: Logger;

  constructor(
    /** Null when this instance has no AS4 key: then there is no AS4 endpoint. */
    @inject(AS4_MESSAGE_CODEC) private readonly codec: As4MessageCodec | null,
    @inject(EVENT_STORE) private readonly store: EventStore,
    @inject(LOCAL_PARTICIPANTS) private readonly participants: LocalParticipants,
    /** Checking and reading the UBL (large documents off the event loop). */
    @inject(DOCUMENT_WORK) private readonly work: Pick<DocumentWork, 'readReceived'>,
    @inject(RULE_SET_CLOCK) private readonly ruleSetClock: RuleSetClock,
    @inject(SERVICE_PROVIDER) private readonly provider: Pick<ServiceProvider, 'participant'>,
    @inject(ReceivedMlsRecorder) private readonly mls: Pick<ReceivedMlsRecorder, 'record'>,
    @inject(DocumentContent) private readonly content: Pick<DocumentContent, 'storeDocument' | 'storeUbl' | 'put'>,
    @inject(BLOB_STORE) private readonly blobs: Pick<BlobStore, 'get'>,
    @inject(READ_MODEL_STORE) private readonly readModels: ReadModelStore,
    @inject(AS4_RECEPTION_OPTIONS) private readonly options: As4ReceptionOptions,
    @inject(OPERATIONAL_METRICS) private readonly metrics: Pick<OperationalMetrics, 'as4Refused'>,
    @inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'as4-inbox' });
  }

  get enabled(): boolean {
    return this.codec !== null;
  }

  async receive(request: As4Request): Promise<As4Outcome> {
    const codec = this.requireCodec();
    let opened;
    try {
      opened = await codec.open(request.contentType, request.body);
    } catch (error) {
      // The codec answers every refusal itself; this is a fault of ours, and still no HTTP 500.
      return this.refuse(
        [ebmsError('other', null, 'the message could not be processed')],
        null,
        request.remoteAddress,
        error,
      );
    }
    if (!opened.ok) return this.refuse(opened.errors, opened.messageId, request.remoteAddress);
    const message = opened.message;
    try {
      return { kind: 'receipt', answer: await this.accept(message, request) };
    } catch (error) {
      if (error instanceof Refusal) return this.refuse(error.errors, message.messageId, request.remoteAddress);
      // Storage failed: nothing was acknowledged, so the sender may (and should) send it again.
      return this.refuse(
        [ebmsError('other', message.messageId, 'the message could not be stored; send it again later')],
        message.messageId,
        request.remoteAddress,
        error,
      );
    }
  }

  /** A request body larger than this access point takes: refused unread. */
  refuseOversized(limitBytes: number, remoteAddress: string | null): As4Outcome {
    return this.refuse(
      [
        ebmsError(
          'processingModeMismatch',
          null,
          `the message is larger than the ${limitBytes} bytes this access point accepts`,
        ),
      ],
      null,
      remoteAddress,
    );
  }

  private requireCodec(): As4MessageCodec {
    if (!this.codec) throw new Error('AS4 is not configured on this access point');
    return this.codec;
  }

  /**
   * One log line per refused message, naming it and why: a warning when the message is at fault,
   * an error with `fault` (ours: a bug, storage down) when it is not.
   */
  private refuse(
    errors: EbmsError[],
    messageId: string | null,
    remoteAddress: string | null,
    fault?: unknown,
  ): As4Outcome {
    const reason = errors.map(describeEbmsError).join('; ');
    const fields = { message_id: messageId, codes: errors.map((e) => e.errorCode), reason, remote: remoteAddress };
    const line = `AS4 message ${messageId ?? '(no readable MessageId)'} from ${remoteAddress ?? 'unknown'} refused: ${reason}`;
    if (fault === undefined) this.logger.warn(fields, line);
    else this.logger.error({ ...fields, err: fault }, line);
    for (const error of errors) this.metrics.as4Refused(error.errorCode);
    return { kind: 'error', answer: this.requireCodec().error(errors, messageId) };
  }

  private async accept(message: InboundAs4Message, request: As4Request): Promise<As4Answer> {
    const stream = as4MessageStream(message.messageId);
    const earlier = await this.recorded(stream);
    if (earlier) return this.answerAgain(earlier, message);

    // Besides our tenants' participants, this access point's SPID receives the MLS other providers send us.
    const mls = isMlsForUs(message, this.provider);
    const tenantId = mls ? null : await this.participants.tenantFor(message.sbdh.receiver.value);
    const notServiced = checkServiced(
      message.message,
      message.sbdh,
      (_participant, documentType) => mls || (tenantId !== null && RECEIVED_DOCUMENT_TYPES.includes(documentType)),
    );
    if (notServiced || (tenantId === null && !mls))
      throw new Refusal([notServiced ?? ebmsError('other', message.messageId, 'no receiver')]);

    const receivedAt = new Date().toISOString();
    const receipt = this.requireCodec().receipt(message);
    const record = (
      kind: As4MessageReceived['data']['kind'],
      documentId: string | null,
      refs: Refs,
      tenant: string | null = tenantId,
      refusal?: As4MessageReceived['data']['refusal'],
    ): RecordEvent => ({
      type: 'As4MessageReceived',
      data: {
        message_id: message.messageId,
        sender_ap: message.senderAp,
        tenant_id: tenant,
        document_id: documentId,
        kind,
        message_ref: refs.message,
        message_content_type: request.contentType,
        receipt_ref: refs.receipt,
        receipt_content_type: receipt.contentType,
        received_at: receivedAt,
        envelope: {
          sender: message.sbdh.sender.value,
          receiver: message.sbdh.receiver.value,
          document_type: { scheme: message.sbdh.documentType.scheme, value: message.sbdh.documentType.value },
          process: { scheme: message.sbdh.process.scheme, value: message.sbdh.process.value },
          country_c1: message.sbdh.countryC1,
        },
        sbdh: {
          instance_id: message.sbdh.document.instanceIdentifier,
          mls_to: message.sbdh.mlsTo,
          mls_type: message.sbdh.mlsType,
        },
        ...(refusal ? { refusal } : {}),
        payload_digests: payloadDigests(message.references),
      } satisfies As4MessageReceived['data'],
      metadata: {
        actor: accessPointActor(message.senderAp),
        tenantId: tenant ?? undefined,
        correlationId: message.messageId,
      },
    });
    // The evidence is stored before the event that names it (and after every check that may refuse).
    // The message as received is sealed with the receiving tenant's personal-data key: its payload,
    // encrypted for this access point's key, holds the UBL and so the people it names. The receipt
    // (digests and signatures) names nobody.
    const storeEvidence = async (): Promise<Refs> => {
      const [messageRef, receiptRef] = await Promise.all([
        this.content.put(request.body, null, tenantId ?? undefined),
        this.content.put(receipt.body, null),
      ]);
      return { message: messageRef, receipt: receiptRef };
    };

    let appended: boolean;
    if (mls) {
      const on = await this.mls.record(message, receivedAt);
      appended = await this.appendRecord(
        stream,
        record('mls', on?.documentId ?? null, await storeEvidence(), on?.tenantId ?? null),
      );
    } else if (message.invoiceResponse) {
      const documentId = await this.recordInvoiceResponse(message, message.invoiceResponse, tenantId!, receivedAt);
      appended = await this.appendRecord(stream, record('invoice-response', documentId, await storeEvidence()));
    } else {
      const documentId = derivedId(tenantId!, message.messageId);
      const received = await this.storeDocument(message, tenantId!, documentId, receivedAt);
      appended =
        received.kind === 'refused'
          ? // Acknowledged (the transfer succeeded) but not delivered: the sender's provider learns why by MLS.
            await this.appendRecord(stream, record('refused', null, await storeEvidence(), tenantId, received.refusal))
          : await this.appendDocument(
              stream,
              received.events,
              record('document', documentId, await storeEvidence()),
              message,
            );
    }
    // Another request for the same message recorded it first: its receipt is the one.
    if (!appended) return this.answerAgain((await this.recorded(stream))!, message);
    this.options.afterStore?.();
    this.logger.info(
      { message_id: message.messageId, sender_ap: message.senderAp, tenant: tenantId },
      'AS4 message received',
    );
    return receipt;
  }

  private async recorded(stream: string): Promise<RecordedEvent<string, As4MessageReceived['data']> | null> {
    const events = await this.store.readStream(stream);
    return (
      (events.find((e) => e.type === 'As4MessageReceived') as RecordedEvent<string, As4MessageReceived['data']>) ?? null
    );
  }

  /** A message received before: the same receipt, byte for byte, and nothing stored again. */
  private async answerAgain(
    earlier: RecordedEvent<string, As4MessageReceived['data']>,
    message: InboundAs4Message,
  ): Promise<As4Answer> {
    const first = earlier.data;
    const repeat = repeatOf(first, message);
    if (repeat.kind === 'other-sender')
      throw new Refusal([
        ebmsError(
          'valueInconsistent',
          message.messageId,
          `MessageId ${message.messageId} was already received from another access point`,
        ),
      ]);
    // EBMS:0004, as phase4 answers a MessageId it has seen; nothing of this message is stored.
    if (repeat.kind === 'other-content')
      throw new Refusal([
        ebmsError(
          'other',
          message.messageId,
          `MessageId ${message.messageId} was already used for a message with other content, received ` +
            `${first.received_at}: this message is not stored; send it with a MessageId of its own`,
        ),
      ]);
    const body = await this.blobs.get(first.receipt_ref.sha256);
    if (!body) throw new Error(`the receipt of ${message.messageId} is missing from the blob store`);
    this.logger.info({ message_id: message.messageId, sender_ap: message.senderAp }, 'AS4 message received again');
    return { contentType: first.receipt_content_type, body };
  }

  /**
   * The business document checked by the business rules in force and read, and its content stored;
   * refused (EBMS:0004) when it cannot be read as UBL. One that fails a fatal rule is not delivered:
   * the refusal says which rules (the sender's provider is told by an MLS RE).
   */
  private async storeDocument(
    message: InboundAs4Message,
    tenantId: string,
    documentId: string,
    now: string,
  ): Promise<
    | { kind: 'refused'; refusal: NonNullable<As4MessageReceived['data']['refusal']> }
    | { kind: 'received'; events: ReturnType<typeof documentDecider.decide> }
  > {
    const ruleSet = chooseRuleSet(this.ruleSetClock);
    let checked;
    try {
      // As internal delivery does: the receiver reads the UBL that travelled, and refuses what it cannot read.
      checked = await this.work.readReceived({ tenantId }, message.businessDocument, ruleSet.id);
    } catch (error) {
      throw new Refusal([
        ebmsError('other', message.messageId, `the business document cannot be read: ${(error as Error).message}`),
      ]);
    }
    const received = checked.document;
    if (!received) {
      const issues = checked.issues
        .filter((i) => i.flag === 'fatal')
        .map((i) => ({ rule_id: i.rule_id, message: i.message, location: i.location }));
      this.logger.warn(
        { message_id: message.messageId, tenant: tenantId, rules: issues.map((i) => i.rule_id) },
        'received document fails its business rules: acknowledged, not delivered',
      );
      return { kind: 'refused', refusal: { rule_set: ruleSet.id, issues } };
    }
    // Sealed with the receiving tenant's personal-data key.
    const [stored, ublRef] = await Promise.all([
      this.content.storeDocument({ ...received, direction: 'INBOUND', state: 'RECEIVED' }, tenantId),
      this.content.storeUbl(message.businessDocument, undefined, tenantId),
    ]);
    const events = documentDecider.decide(
      {
        type: 'ReceiveDocument',
        data: {
          document_id: documentId,
          tenant_id: tenantId,
          ...stored,
          ubl_ref: ublRef,
          file_name: fileNameOf(received),
          message_id: message.messageId,
          receiver_peppol_id: message.sbdh.receiver.value,
          sender: {
            peppol_id: message.sbdh.sender.value,
            tenant_id: null,
            document_id: null,
            as4: { message_id: message.messageId, sender_ap: message.senderAp },
          },
          now,
        },
      },
      documentDecider.initialState(),
    );
    return { kind: 'received', events };
  }

  /**
   * The document and the record in one append (one transaction where the store has them). When a
   * crash came between the two before, the document is there and only the record is appended. False
   * when another request for the same message recorded it first.
   */
  private async appendDocument(
    stream: string,
    events: ReturnType<typeof documentDecider.decide>,
    record: RecordEvent,
    message: InboundAs4Message,
  ): Promise<boolean> {
    const documentId = record.data.document_id!;
    try {
      await this.store.appendInOrder([
        {
          streamName: documentStream(documentId),
          events: events.map((e) => ({ type: e.type, data: e.data, metadata: record.metadata })),
          expectedRevision: 'no_stream',
        },
        { streamName: stream, events: [record], expectedRevision: 'no_stream' },
      ]);
      return true;
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
      if (error.streamName === stream) return false;
      const existing = await loadState(this.store, documentDecider, documentStream(documentId));
      if (existing.status !== 'present' || existing.inbound?.message_id !== message.messageId) throw error;
      return this.appendRecord(stream, record);
    }
  }

  private async appendRecord(stream: string, record: RecordEvent): Promise<boolean> {
    try {
      await this.store.append(stream, [record], 'no_stream');
      return true;
    } catch (error) {
      if (error instanceof WrongExpectedRevisionError) return false;
      throw error;
    }
  }

  /**
   * Records a received Invoice Response on the invoice it answers: an outbound document of the
   * tenant it is addressed to, with that invoice number, delivered to the participant that responds.
   * When there is none (or the response is neither an acceptance nor a rejection, the only answers
   * a document keeps), the message was still delivered: it is acknowledged and logged, not refused.
   */
  private async recordInvoiceResponse(
    message: InboundAs4Message,
    response: ReceivedInvoiceResponse,
    tenantId: string,
    now: string,
  ): Promise<string | null> {
    const responder = message.sbdh.sender.value;
    const target = await this.answeredDocument(tenantId, response.invoiceId, responder);
    const context = { message_id: message.messageId, invoice_id: response.invoiceId, responder, tenant: tenantId };
    if (!target) {
      this.logger.warn(context, 'Invoice Response for no outbound document of ours: acknowledged, not recorded');
      return null;
    }
    if (response.code !== 'AP' && response.code !== 'RE') {
      this.logger.warn({ ...context, code: response.code }, 'Invoice Response code not kept on documents');
      return null;
    }
    const invoiceResponseRef: ContentRef = await this.content.put(
      Buffer.from(message.businessDocument, 'utf8'),
      'application/xml',
    );
    try {
      await handleCommand(
        this.store,
        documentDecider,
        documentStream(target),
        {
          type: 'RecordResponse',
          data: {
            code: response.code,
            reason: response.reason,
            responder_peppol_id: responder,
            invoice_response_ref: invoiceResponseRef,
            now,
          },
        },
        { actor: accessPointActor(message.senderAp), tenantId, correlationId: message.messageId },
      );
      return target;
    } catch (error) {
      // The document has another answer already, or was deleted: the delivery still happened.
      if (!(error instanceof DomainError)) throw error;
      this.logger.warn({ ...context, err: error }, 'Invoice Response not recorded on the outbound document');
      return null;
    }
  }

  /** The outbound document of `tenantId` numbered `invoiceId` whose delivery went to `responder`. */
  private async answeredDocument(tenantId: string, invoiceId: string, responder: string): Promise<string | null> {
    const candidates = await this.readModels.collection<DocumentView>(DOCUMENTS).find({
      filter: {
        op: 'and',
        filters: [
          { op: 'eq', field: 'tenant_id', value: tenantId },
          { op: 'eq', field: 'direction', value: 'OUTBOUND' },
          { op: 'eq', field: 'invoice_id', value: invoiceId },
        ],
      },
      sort: [{ field: 'created_at', direction: 'desc' }],
      limit: 20,
    });
    const responderKey = participantKey(responder);
    for (const row of candidates.items) {
      const state = await loadState(this.store, documentDecider, documentStream(row.id));
      const receiver = state.status === 'present' ? state.delivery?.receiver_peppol_id : null;
      if (receiver && responderKey !== null && participantKey(receiver) === responderKey) return row.id;
    }
    return null;
  }
}

interface RecordEvent {
  type: string;
  data: As4MessageReceived['data'];
  metadata: EventMetadata;
}

interface Refs {
  message: ContentRef;
  receipt: ContentRef;
}
