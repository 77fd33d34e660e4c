import { EVENT_STORE, type EventMetadata, type EventStore } from '../ports/eventStore.js';
import { handleCommand } from '../commandHandler.js';
import {
  documentDecider,
  documentStream,
  type DocumentAggregateState,
  type DocumentRecord,
  type DocumentCommand,
} from '../../domain/document/lifecycle/documentAggregate.js';
import { invalid, notFound } from '../../domain/errors.js';
import { ownIdMatching, ownParticipantIds, type ParticipantHolder } from '../../domain/peppol/senderIdentity.js';
import { presentRecord } from '../documents/documentCommands.js';
import { inject, injectable } from '../injection.js';
import { DocumentContent, type DocumentWithContent } from '../documents/documentContent.js';

const now = () => new Date().toISOString();

/** The tenant answering: its id and the participant ids it holds. */
type Responder = { id: string } & ParticipantHolder;

/** The calling tenant's received documents: read, accept, reject. */
@injectable()
export class InboxCommands {
  constructor(
    @inject(EVENT_STORE) private readonly store: EventStore,
    /** The received documents' content, for showing them. */
    @inject(DocumentContent) private readonly content: Pick<DocumentContent, 'withContent'>,
  ) {}

  accept(
    tenant: Responder,
    documentId: string,
    note: string | null,
    metadata: EventMetadata,
  ): Promise<DocumentWithContent> {
    return this.respond(tenant, documentId, { type: 'AcceptDocument', data: { note, now: now() } }, metadata);
  }

  reject(tenant: Responder, documentId: string, reason: string, metadata: EventMetadata): Promise<DocumentWithContent> {
    return this.respond(tenant, documentId, { type: 'RejectDocument', data: { reason, now: now() } }, metadata);
  }

  private async respond(
    tenant: Responder,
    documentId: string,
    command: DocumentCommand,
    metadata: EventMetadata,
  ): Promise<DocumentWithContent> {
    const result = await handleCommand(
      this.store,
      documentDecider,
      documentStream(documentId),
      // Not found before the decider's own refusals, on the state the command is decided on.
      (state) => {
        requireResponder(tenant, received(tenant.id, state));
        return command;
      },
      { ...metadata, tenantId: tenant.id },
    );
    return this.content.withContent(presentRecord(result.state));
  }
}

/**
 * The answer is an Invoice Response from the participant the document was addressed to (its
 * SenderParty and the envelope's sender): that must still be one of the tenant's own ids, as for
 * any document it sends (senderIdentity.ts).
 */
function requireResponder(tenant: Responder, document: DocumentRecord): void {
  const own = ownParticipantIds(tenant);
  const addressee = document.inbound?.receiver_peppol_id ?? null;
  if (ownIdMatching(own, addressee)) return;
  throw invalid(
    `The answer goes out as the participant the document was addressed to, ${addressee ?? '(none)'}, which is not a Peppol participant id of this account (${own.length > 0 ? `it may send as: ${own.join(', ')}` : 'it holds none'}): its administrator must give it that id back before it can answer`,
    ['invoice_response', 'SenderParty', 'EndpointID'],
  );
}

/** The tenant's received document; anything else (another tenant's, an outbound or a deleted one) is not found. */
function received(tenantId: string, state: DocumentAggregateState): DocumentRecord {
  if (state.status !== 'present' || state.tenant_id !== tenantId || state.direction !== 'INBOUND')
    throw notFound('Document not found');
  return presentRecord(state);
}
