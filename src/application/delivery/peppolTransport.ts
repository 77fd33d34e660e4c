import { EVENT_STORE, type EventStore } from '../ports/eventStore.js';
import { LOCAL_PARTICIPANTS, type LocalParticipants } from '../ports/localParticipants.js';
import { inject, injectable } from '../injection.js';
import { DOCUMENT_WORK } from '../documents/documentTokens.js';
import type { DeliveryRequest, Transport, TransportOutcome } from '../ports/transport.js';
import { handleCommand } from '../commandHandler.js';
import { derivedId } from '../derivedId.js';
import { documentDecider, documentStream } from '../../domain/document/lifecycle/documentAggregate.js';
import type { DocumentWork } from '../documents/documentWork.js';
import { DocumentContent } from '../documents/documentContent.js';
import { countryC1Of } from '../../domain/peppol/countryC1.js';
import { peppolKindOf } from '../../domain/peppol/peppolDocumentTypes.js';
import { issuerIdOf } from '../../domain/peppol/senderIdentity.js';
import { sameParticipant } from '../../domain/peppol/participantId.js';
import { isSelfBilling } from '../../domain/document/invoice/documentModel.js';
import { As4Delivery } from './as4Delivery.js';
import { systemActor } from '../actor.js';

/**
 * Peppol delivery. A receiver that is a participant of this instance gets the document in its
 * tenant's inbox directly. Any other receiver is looked up in the Peppol network (SML, SMP) and
 * sent the document over AS4 (As4Delivery); without an AS4 key such an attempt fails retryably
 * with "no Peppol route", so the schedule runs and the transmission report says why.
 */
@injectable()
export class PeppolTransport implements Transport {
  readonly kind = 'peppol' as const;

  constructor(
    @inject(EVENT_STORE) private readonly store: EventStore,
    @inject(LOCAL_PARTICIPANTS) private readonly participants: LocalParticipants,
    /** Reading the UBL that travels (large documents off the event loop). */
    @inject(DOCUMENT_WORK) private readonly work: Pick<DocumentWork, 'readUbl'>,
    /** Where the receiver's copy is stored. */
    @inject(DocumentContent)
    private readonly content: Pick<DocumentContent, 'storeDocument' | 'storeUbl' | 'attachmentKeys'>,
    /** Receivers on other access points. */
    @inject(As4Delivery) private readonly as4: Pick<As4Delivery, 'send'>,
  ) {}

  async deliver(request: DeliveryRequest): Promise<TransportOutcome> {
    const receiver = request.receiverPeppolId;
    if (!receiver)
      return { outcome: 'permanent', receiver: 'unknown', error: 'The document names no receiver Peppol identifier' };
    const tenantId = await this.participants.tenantFor(receiver);
    if (!tenantId) return this.deliverOverAs4(request, receiver);
    return this.deliverInternally(request, receiver, tenantId);
  }

  private async deliverOverAs4(request: DeliveryRequest, receiver: string): Promise<TransportOutcome> {
    const sender = request.senderPeppolId;
    if (!sender) return { outcome: 'permanent', receiver, error: 'The document names no sender Peppol identifier' };
    const type = request.document.header.document_type;
    // The sender's country: the issuer's, the buyer in self-billing.
    const countryC1 = countryC1Of(request.ubl, sender, isSelfBilling(type) ? 'customer' : 'supplier');
    if (!countryC1)
      return {
        outcome: 'permanent',
        receiver,
        error:
          "The seller's country (COUNTRY_C1 of the Peppol envelope) is neither in the document nor in the sender id",
      };
    return this.as4.send({
      messageId: request.messageId,
      sender,
      receiver,
      kind: peppolKindOf(type),
      countryC1,
      document: request.ubl,
      createdAt: request.document.delivery?.requested_at ?? new Date().toISOString(),
      requestMls: true,
    });
  }

  private async deliverInternally(
    request: DeliveryRequest,
    receiver: string,
    tenantId: string,
  ): Promise<TransportOutcome> {
    const sent = request.document;
    let received;
    try {
      // The receiver reads the UBL that travels, as it would from the network, not our JSON.
      received = await this.work.readUbl({ tenantId }, request.ubl);
    } catch (error) {
      return {
        outcome: 'permanent',
        receiver,
        error: `The receiver cannot read the document: ${(error as Error).message}`,
      };
    }
    // As the AS4 receiver does (checkIssuerIsSender): the document is from its sender, or it is refused.
    const issuer = issuerIdOf(received);
    if (!sameParticipant(issuer, request.senderPeppolId)) {
      return {
        outcome: 'permanent',
        receiver,
        error: `The receiver refuses the document: its issuer ${issuer ?? '(none named)'} is not its sender ${request.senderPeppolId ?? '(none)'}`,
      };
    }
    const documentId = derivedId(tenantId, request.messageId);
    // The receiver's copy is its own: its content, and the very UBL that travelled, sealed with the
    // receiver's personal-data key (an erasure of the sender's leaves the receiver's copy readable).
    const content = { ...received, direction: 'INBOUND', state: 'RECEIVED' } as const;
    const [stored, ubl_ref] = await Promise.all([
      this.content.storeDocument(content, tenantId),
      this.content.attachmentKeys(content, tenantId).then((keys) => this.content.storeUbl(request.ubl, keys, tenantId)),
    ]);
    // Usually a new stream, so it is not read first; for a message delivered again the append
    // conflicts, the stream is read, and the decider records nothing.
    await handleCommand(
      this.store,
      documentDecider,
      documentStream(documentId),
      {
        type: 'ReceiveDocument',
        data: {
          document_id: documentId,
          tenant_id: tenantId,
          ...stored,
          ubl_ref,
          file_name: sent.file_name,
          message_id: request.messageId,
          receiver_peppol_id: receiver,
          sender: { peppol_id: request.senderPeppolId, tenant_id: sent.tenant_id, document_id: sent.id },
          now: new Date().toISOString(),
        },
      },
      { actor: systemActor('delivery'), tenantId, correlationId: request.messageId },
      [],
    );
    return { outcome: 'delivered', receiver };
  }
}
