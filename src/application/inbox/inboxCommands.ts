import { EVENT_STORE, type EventMetadata, type EventStore } from '../ports/eventStore.js';
import { handleCommand } from '../commandHandler.js';
import {
  documentDecider,
  documentStream,
  type DocumentAggregateState,
  type DocumentRecord,
  type DocumentCommand,
} from '../../domain/document/lifecycle/documentAggregate.js';
import { notFound } from '../../domain/errors.js';
import { presentRecord } from '../documents/documentCommands.js';
import { inject, injectable } from '../injection.js';
import { DocumentContent, type DocumentWithContent } from '../documents/documentContent.js';

const now = () => new Date().toISOString();

/** The calling tenant's received documents: read, accept, reject. */
@injectable()
export class InboxCommands {
  constructor(
    @inject(EVENT_STORE) private readonly store: EventStore,
    /** The received documents' content, for showing them. */
    @inject(DocumentContent) private readonly content: Pick<DocumentContent, 'withContent'>,
  ) {}

  accept(
    tenantId: string,
    documentId: string,
    note: string | null,
    metadata: EventMetadata,
  ): Promise<DocumentWithContent> {
    return this.respond(tenantId, documentId, { type: 'AcceptDocument', data: { note, now: now() } }, metadata);
  }

  reject(tenantId: string, documentId: string, reason: string, metadata: EventMetadata): Promise<DocumentWithContent> {
    return this.respond(tenantId, documentId, { type: 'RejectDocument', data: { reason, now: now() } }, metadata);
  }

  private async respond(
    tenantId: string,
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
  if (state.status !== 'present' || state.tenant_id !== tenantId || state.direction !== 'INBOUND')
    throw notFound('Document not found');
  return presentRecord(state);
}
