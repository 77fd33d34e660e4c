import type { Logger } from 'pino';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '../ports/eventStore.js';
import { LOGGER } from '../ports/logger.js';
import type { Projection } from '../ports/projection.js';
import type { CollectionDefinition } from '../ports/readModelStore.js';
import { handleCommand, loadState } from '../commandHandler.js';
import { derivedId } from '../derivedId.js';
import { inject, injectable } from '../injection.js';
import { documentDecider, documentStream } from '../../domain/document/lifecycle/documentAggregate.js';
import { invoiceResponseOf } from './invoiceResponseOf.js';
import { ResponseDelivery } from './responseDelivery.js';
import { DomainError } from '../../domain/errors.js';
import { DocumentContent } from '../documents/documentContent.js';
import { systemActor } from '../actor.js';

/**
 * Takes each accept or reject to the sender as a Peppol Invoice Response. A sender on this
 * instance has it recorded on its outbound document (idempotently, so replays are harmless). A
 * document received over AS4 from another access point has its response sent back over AS4 by
 * ResponseDelivery (a durable job per attempt; scheduling it again on a replay creates nothing).
 *
 * A process manager: it follows the log like the projections do (and is not rebuilt with them).
 */
@injectable()
export class ResponseRouter implements Projection {
  readonly name = 'response-router';
  readonly version = 1;
  readonly collections: CollectionDefinition[] = [];
  readonly handles = ['DocumentAccepted', 'DocumentRejected'];
  private readonly logger: Logger;

  constructor(
    @inject(EVENT_STORE) private readonly store: EventStore,
    @inject(DocumentContent) private readonly content: Pick<DocumentContent, 'put'>,
    @inject(ResponseDelivery) private readonly overAs4: Pick<ResponseDelivery, 'start'>,
    @inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'responses' });
  }

  async handle(event: RecordedEvent): Promise<void> {
    const inbound = await loadState(this.store, documentDecider, event.streamName);
    if (inbound.status !== 'present' || !inbound.response || !inbound.inbound) return;
    const sender = inbound.inbound;
    if (!sender.tenant_id || !sender.document_id) {
      if (sender.as4 && sender.peppol_id) await this.overAs4.start(inbound.id);
      return;
    }
    const { code, reason, responded_at } = inbound.response;
    const invoiceResponse = invoiceResponseOf(inbound, derivedId('invoice-response', event.id))!;
    try {
      // Stored before the event that names it (content-addressed: stored again, it is the same blob).
      const invoice_response_ref = await this.content.put(Buffer.from(invoiceResponse), 'application/xml');
      await handleCommand(
        this.store,
        documentDecider,
        documentStream(sender.document_id!),
        {
          type: 'RecordResponse',
          data: {
            code,
            reason,
            responder_peppol_id: sender.receiver_peppol_id,
            invoice_response_ref,
            now: responded_at,
          },
        },
        { actor: systemActor('response-router'), tenantId: sender.tenant_id!, causationId: event.id },
      );
    } catch (error) {
      // A refusal (the sender deleted its document, or already has another answer) is final:
      // log it and go on rather than stall every later response behind it.
      if (!(error instanceof DomainError)) throw error;
      this.logger.warn(
        { err: error, document: sender.document_id },
        'invoice response not recorded on the sender document',
      );
    }
  }
}
