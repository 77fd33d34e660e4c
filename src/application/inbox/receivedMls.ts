import type { Logger } from 'pino';
import { EVENT_STORE, type EventStore } from '../ports/eventStore.js';
import { LOGGER } from '../ports/logger.js';
import { READ_MODEL_STORE, type Filter, type ReadModelStore } from '../ports/readModelStore.js';
import { SERVICE_PROVIDER, type ServiceProvider } from '../ports/serviceProvider.js';
import type { InboundAs4Message } from '../ports/as4Reception.js';
import { inject, injectable } from '../injection.js';
import { handleCommand, loadStream, toDomainEvent } from '../commandHandler.js';
import { DocumentContent } from '../documents/documentContent.js';
import { DOCUMENTS, type DocumentView } from '../readModels/documentView.js';
import {
  documentDecider,
  documentStream,
  type DocumentEvent,
} from '../../domain/document/lifecycle/documentAggregate.js';
import { MLS_DOCUMENT_TYPE } from '../../domain/peppol/mls/messageLevelStatus.js';
import { participantKey } from '../../domain/peppol/participantId.js';
import { DomainError } from '../../domain/errors.js';
import { accessPointActor } from '../actor.js';

/** An MLS names at most this many issues on the document it is recorded on (the document itself is kept whole). */
const MAX_RECORDED_ISSUES = 50;

/** Whether a received message is an MLS addressed to this provider's SPID (what `POST /as4` takes besides tenants' documents). */
export function isMlsForUs(message: Pick<InboundAs4Message, 'sbdh'>, provider: Pick<ServiceProvider, 'participant'>) {
  const { receiver, documentType } = message.sbdh;
  return (
    documentType.value === MLS_DOCUMENT_TYPE &&
    provider.participant !== null &&
    participantKey(receiver.value) === participantKey(provider.participant)
  );
}

/**
 * Corner 2: a Message Level Status another provider sent about a document we delivered to it. It is
 * matched to the outbound document by the message it refers to (our SBDH InstanceIdentifier, which
 * is the delivery's AS4 MessageId) and recorded there (MlsReceived: an RE fails a SENT document).
 * It counts only when it keeps the MLS rules, is addressed to our SPID and comes from the access
 * point the delivery reached; otherwise it is recorded as invalid evidence and changes nothing.
 * One that refers to no document of ours is acknowledged and logged, like an Invoice Response.
 */
@injectable()
export class ReceivedMlsRecorder {
  private readonly logger: Logger;

  constructor(
    @inject(EVENT_STORE) private readonly store: EventStore,
    @inject(READ_MODEL_STORE) private readonly readModels: ReadModelStore,
    @inject(DocumentContent) private readonly content: Pick<DocumentContent, 'put'>,
    @inject(SERVICE_PROVIDER) private readonly provider: Pick<ServiceProvider, 'participant'>,
    @inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'mls-inbox' });
  }

  /** The document the MLS was recorded on, and its tenant; null when it is about none of ours. */
  async record(message: InboundAs4Message, now: string): Promise<{ tenantId: string; documentId: string } | null> {
    const { says, problems: broken } = message.mls!;
    const context = {
      message_id: message.messageId,
      sender_ap: message.senderAp,
      about: says.referenceId,
      code: says.code,
    };
    const target = says.referenceId ? await this.documentSentAs(says.referenceId) : null;
    if (!target) {
      this.logger.warn(context, 'MLS about no document of ours: acknowledged, not recorded');
      return null;
    }
    const loaded = await loadStream(this.store, documentDecider, documentStream(target));
    const state = loaded.state;
    if (state.status !== 'present' || !state.delivery) return null;
    const problems = [...broken];
    if (says.receiver && participantKey(says.receiver) !== participantKey(this.provider.participant ?? ''))
      problems.push(`its ReceiverParty ${says.receiver} is not this provider (${this.provider.participant})`);
    const reached = this.accessPointReached(
      loaded.events.map(toDomainEvent<DocumentEvent>),
      state.delivery.delivery_id,
    );
    if (reached && reached !== message.senderAp)
      problems.push(
        `it comes from ${message.senderAp}, not from ${reached}, the access point the document was delivered to`,
      );
    const mlsRef = await this.content.put(Buffer.from(message.businessDocument, 'utf8'), 'application/xml');
    try {
      await handleCommand(
        this.store,
        documentDecider,
        documentStream(target),
        {
          type: 'RecordMls',
          data: {
            mls_id: says.id,
            message_id: says.referenceId!,
            code: says.code,
            description: says.description,
            issues: says.issues.slice(0, MAX_RECORDED_ISSUES),
            valid: problems.length === 0,
            problems,
            sender_ap: message.senderAp,
            mls_ref: mlsRef,
            now,
          },
        },
        { actor: accessPointActor(message.senderAp), tenantId: state.tenant_id, correlationId: message.messageId },
        loaded,
      );
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      this.logger.warn({ ...context, err: error }, 'MLS not recorded on the outbound document');
      return null;
    }
    if (problems.length > 0) this.logger.warn({ ...context, problems }, 'invalid MLS recorded as evidence only');
    return { tenantId: state.tenant_id, documentId: target };
  }

  /** The outbound document whose current delivery went out with this AS4 MessageId (our SBDH InstanceIdentifier). */
  private async documentSentAs(messageId: string): Promise<string | null> {
    const { items } = await this.readModels
      .collection<DocumentView>(DOCUMENTS)
      .find({ filter: sentAsFilter(messageId), limit: 1 });
    return items[0]?.id ?? null;
  }

  /** The seat id of the access point a delivery's receipt came from; null before one is recorded. */
  private accessPointReached(events: DocumentEvent[], deliveryId: string): string | null {
    let seat: string | null = null;
    for (const event of events)
      if (
        event.type === 'DeliveryAttempted' &&
        event.data.delivery_id === deliveryId &&
        event.data.as4?.remote_ap?.seat_id
      )
        seat = event.data.as4.remote_ap.seat_id;
    return seat;
  }
}

/** The documents list's rows of outbound documents whose current delivery went out with `messageId` (an index serves it). */
export const sentAsFilter = (messageId: string): Filter => ({
  op: 'and',
  filters: [
    { op: 'eq', field: 'direction', value: 'OUTBOUND' },
    { op: 'eq', field: 'summary.delivery.message_id', value: messageId },
  ],
});
