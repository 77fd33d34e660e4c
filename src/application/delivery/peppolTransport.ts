import { createHash } from 'node:crypto';
import type { EventStore } from '../ports/eventStore.js';
import type { LocalParticipants } from '../ports/localParticipants.js';
import type { DeliveryRequest, Transport, TransportOutcome } from '../ports/transport.js';
import { handleCommand } from '../commandHandler.js';
import { documentDecider, documentStream } from '../../domain/document/documentAggregate.js';
import { toDocumentJson } from '../../domain/document/documentJson.js';
import { readUbl } from '../../domain/document/ublReader.js';

/** A uuid-shaped id derived from its inputs, so the same message always lands in the same stream. */
export function derivedId(...parts: string[]): string {
  const h = createHash('sha256').update(parts.join('\n')).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h.slice(16, 18), 16) & 0x3f) | 0x80).toString(16)}${h.slice(18, 20)}-${h.slice(20, 32)}`;
}

/**
 * Peppol delivery. A receiver that is a participant of this instance gets the document in its
 * tenant's inbox directly. Delivery to other access points (SMP lookup and AS4) is not built
 * yet: such an attempt fails retryably with "no Peppol route", so the schedule runs and the
 * transmission report says why; nothing is pretended delivered.
 */
export class PeppolTransport implements Transport {
  readonly kind = 'peppol' as const;

  constructor(
    private readonly store: EventStore,
    private readonly participants: LocalParticipants,
  ) {}

  async deliver(request: DeliveryRequest): Promise<TransportOutcome> {
    const receiver = request.receiverPeppolId;
    if (!receiver) return { outcome: 'permanent', receiver: 'unknown', error: 'The document names no receiver Peppol identifier' };
    const tenantId = await this.participants.tenantFor(receiver);
    if (!tenantId) return { outcome: 'retryable', receiver, error: `no Peppol route to ${receiver}` };
    return this.deliverInternally(request, receiver, tenantId);
  }

  private async deliverInternally(request: DeliveryRequest, receiver: string, tenantId: string): Promise<TransportOutcome> {
    const sent = request.document;
    let received;
    try {
      // The receiver reads the UBL that travels, as it would from the network, not our JSON.
      received = readUbl(sent.ubl);
    } catch (error) {
      return { outcome: 'permanent', receiver, error: `The receiver cannot read the document: ${(error as Error).message}` };
    }
    const documentId = derivedId(tenantId, request.messageId);
    await handleCommand(
      this.store,
      documentDecider,
      documentStream(documentId),
      {
        type: 'ReceiveDocument',
        data: {
          document_id: documentId,
          tenant_id: tenantId,
          document: toDocumentJson({ ...received, direction: 'INBOUND', state: 'RECEIVED' }),
          ubl: sent.ubl,
          file_name: sent.file_name,
          message_id: request.messageId,
          receiver_peppol_id: receiver,
          sender: { peppol_id: request.senderPeppolId, tenant_id: sent.tenant_id, document_id: sent.id },
          now: new Date().toISOString(),
        },
      },
      { actor: 'delivery', tenantId, correlationId: request.messageId },
    );
    return { outcome: 'delivered', receiver };
  }
}
