import type { RecordedEvent } from '../application/ports/eventStore.js';
import type { ReadModelSession } from '../application/ports/readModelStore.js';
import { toDomainEvent } from '../application/commandHandler.js';
import { DOCUMENT_EVENT_TYPES, documentDecider, type DocumentAggregateState, type DocumentEvent, type DocumentRecord } from '../domain/document/documentAggregate.js';
import { documentResponse, type DocumentView } from './documentView.js';
import type { Projection } from './projection.js';

export const DOCUMENTS = 'documents';

/**
 * One read model behind the document list, the outbox, the drafts and the inbox: each document
 * with the fields those lists filter and sort on, and its full response.
 */
export const documentsProjection: Projection = {
  name: 'documents',
  version: 2,
  collections: [
    {
      name: DOCUMENTS,
      indexes: [
        { fields: [{ field: 'tenant_id' }, { field: 'direction' }, { field: 'state' }, { field: 'created_at', direction: 'desc' }] },
        { fields: [{ field: 'tenant_id' }, { field: 'created_at', direction: 'desc' }] },
      ],
    },
  ],
  handles: DOCUMENT_EVENT_TYPES,
  handle: (event: RecordedEvent, session: ReadModelSession) => applyBatch([event], session),
  handleBatch: applyBatch,
};

/**
 * A batch of events: the documents it touches are read in one query, evolved in memory by the
 * decider (the single definition of what an event means) and written once each.
 */
async function applyBatch(events: RecordedEvent[], session: ReadModelSession): Promise<void> {
  const documents = session.collection<DocumentView>(DOCUMENTS);
  const ids = [...new Set(events.map((e) => (e.data as { document_id: string }).document_id))];
  const current = new Map<string, { state: DocumentAggregateState; position: bigint; changed: boolean }>();
  for (const view of await documents.getMany(ids)) current.set(view.id, { state: { status: 'present', ...view.record }, position: BigInt(view.last_position), changed: false });
  for (const event of events) {
    const domainEvent = toDomainEvent<DocumentEvent>(event);
    const id = domainEvent.data.document_id;
    const entry = current.get(id) ?? { state: documentDecider.initialState(), position: -1n, changed: false };
    if (event.globalPosition <= entry.position) continue; // applied before (a redelivered batch)
    current.set(id, { state: documentDecider.evolve(entry.state, domainEvent), position: event.globalPosition, changed: true });
  }
  for (const [id, { state, position, changed }] of current) {
    if (!changed) continue;
    if (state.status === 'deleted') await documents.delete(id);
    else if (state.status === 'present') {
      const { status: _status, ...record } = state;
      await documents.upsert(id, viewOf(record, String(position)));
    }
  }
}

function viewOf(record: DocumentRecord, position: string): DocumentView {
  const response = documentResponse(record);
  const d = record.document;
  return {
    id: record.id,
    tenant_id: record.tenant_id,
    direction: record.direction,
    state: record.state,
    document_type: d.document_type,
    invoice_id: d.invoice_id,
    invoice_date: d.invoice_date,
    due_date: d.due_date,
    // A sort key only (money itself stays a decimal string in the response).
    invoice_total_sort: response.invoice_total === null ? null : Number(response.invoice_total),
    customer_name: d.customer_name,
    vendor_name: d.vendor_name,
    receiver_text: [d.customer_name, d.customer_email, d.customer_tax_id, d.customer_company_id, d.customer_id].filter(Boolean).join(' | '),
    sender_text: [d.vendor_name, d.vendor_email, d.vendor_tax_id, d.vendor_company_id, d.vendor_peppol_id].filter(Boolean).join(' | '),
    search_text: [d.invoice_id, d.vendor_name, d.customer_name].filter(Boolean).join(' | '),
    created_at: record.created_at,
    record: {
      ...record,
      document: { ...record.document, attachments: record.document.attachments.map((a) => ({ ...a, file_data: null })) },
      ubl: '',
      attachments: record.attachments.map((a) => ({ ...a, file_data: '' })),
    },
    response,
    last_position: position,
  };
}
