import type { Logger } from 'pino';
import type { EventMetadata, EventStore, RecordedEvent } from '../ports/eventStore.js';
import { handleCommand, loadState } from '../commandHandler.js';
import { documentDecider, documentStream, type DocumentAggregateState, type DocumentRecord, type DocumentCommand } from '../../domain/document/lifecycle/documentAggregate.js';
import { writeInvoiceResponse } from '../../domain/document/ubl/invoiceResponse.js';
import { DomainError, notFound } from '../../domain/errors.js';
import type { Projection } from '../../projections/projection.js';
import { derivedId } from '../derivedId.js';
import { presentRecord } from '../documents/documentCommands.js';
import type { DocumentContent, DocumentWithContent } from '../documents/documentContent.js';

const now = () => new Date().toISOString();

/** The calling tenant's received documents: read, accept, reject. */
export class InboxCommands {
  constructor(
    private readonly store: EventStore,
    /** The received documents' content, for showing them. */
    private readonly content: Pick<DocumentContent, 'withContent'>,
  ) {}

  async get(tenantId: string, documentId: string): Promise<DocumentWithContent> {
    return this.content.withContent(received(tenantId, await loadState(this.store, documentDecider, documentStream(documentId))));
  }

  accept(tenantId: string, documentId: string, note: string | null, metadata: EventMetadata): Promise<DocumentWithContent> {
    return this.respond(tenantId, documentId, { type: 'AcceptDocument', data: { note, now: now() } }, metadata);
  }

  reject(tenantId: string, documentId: string, reason: string, metadata: EventMetadata): Promise<DocumentWithContent> {
    return this.respond(tenantId, documentId, { type: 'RejectDocument', data: { reason, now: now() } }, metadata);
  }

  private async respond(tenantId: string, documentId: string, command: DocumentCommand, metadata: EventMetadata): Promise<DocumentWithContent> {
    const result = await handleCommand(
      this.store,
      documentDecider,
      documentStream(documentId),
      // Not found before the decider's own refusals, on the state the command is decided on.
      (state) => {
        received(tenantId, state);
        return command;
      },
      { ...metadata, tenantId },
    );
    return this.content.withContent(presentRecord(result.state));
  }
}

/** The tenant's received document; anything else (another tenant's, an outbound or a deleted one) is not found. */
function received(tenantId: string, state: DocumentAggregateState): DocumentRecord {
  if (state.status !== 'present' || state.tenant_id !== tenantId || state.direction !== 'INBOUND') throw notFound('Document not found');
  return presentRecord(state);
}

/**
 * Takes each accept or reject to the sender as a Peppol Invoice Response. A sender on this
 * instance has it recorded on its outbound document (idempotently, so replays are harmless).
 * Senders elsewhere need AS4, which is not built yet: the response stays on our side.
 */
export function responseRouter(store: EventStore, content: Pick<DocumentContent, 'put'>, logger: Logger): Projection {
  return {
    name: 'response-router',
    version: 1,
    collections: [],
    handles: ['DocumentAccepted', 'DocumentRejected'],
    async handle(event: RecordedEvent) {
      const inbound = await loadState(store, documentDecider, event.streamName);
      if (inbound.status !== 'present' || !inbound.response || !inbound.inbound?.tenant_id || !inbound.inbound.document_id) return;
      const { code, reason, responded_at } = inbound.response;
      const sender = inbound.inbound;
      const invoiceResponse = writeInvoiceResponse({
        id: derivedId('invoice-response', event.id),
        issueDate: responded_at.slice(0, 10),
        code,
        reason,
        invoice: inbound.header,
        buyerPeppolId: sender.receiver_peppol_id,
        sellerPeppolId: sender.peppol_id,
      });
      try {
        // Stored before the event that names it (content-addressed: stored again, it is the same blob).
        const invoice_response_ref = await content.put(Buffer.from(invoiceResponse), 'application/xml');
        await handleCommand(
          store,
          documentDecider,
          documentStream(sender.document_id!),
          {
            type: 'RecordResponse',
            data: { code, reason, responder_peppol_id: sender.receiver_peppol_id, invoice_response_ref, now: responded_at },
          },
          { actor: 'response-router', tenantId: sender.tenant_id!, causationId: event.id },
        );
      } catch (error) {
        // A refusal (the sender deleted its document, or already has another answer) is final:
        // log it and go on rather than stall every later response behind it.
        if (!(error instanceof DomainError)) throw error;
        logger.warn({ err: error, document: sender.document_id }, 'invoice response not recorded on the sender document');
      }
    },
  };
}
