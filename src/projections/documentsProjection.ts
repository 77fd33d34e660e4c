import type { RecordedEvent } from '../application/ports/eventStore.js';
import type { ReadModelSession } from '../application/ports/readModelStore.js';
import { toDomainEvent } from '../application/commandHandler.js';
import type { DocumentContent } from '../application/documents/documentContent.js';
import {
  DOCUMENT_EVENT_TYPES,
  documentDecider,
  type DocumentAggregateState,
  type DocumentEvent,
  type DocumentRecord,
} from '../domain/document/lifecycle/documentAggregate.js';
import type { ContentRef, DocumentHeader, UblRef } from '../domain/document/lifecycle/documentContent.js';
import {
  contentResponse,
  summaryOf,
  DOCUMENT_CONTENTS,
  DOCUMENTS,
  type DocumentContentView,
  type DocumentView,
} from '../application/readModels/documentView.js';
import type { Projection } from '../application/ports/projection.js';
import { DOCUMENT_PERSONAL_FIELDS, erasedDocument } from '../domain/personalData/personalFields.js';
import { ERASURE_EVENT, erasedRow, inLogOrder, rewriteTenantRows } from './personalDataErasure.js';

/** The indexes of the document lists (a tenant's, newest first, by direction and state). */
export const DOCUMENT_LIST_INDEXES = [
  {
    fields: [
      { field: 'tenant_id' },
      { field: 'direction' },
      { field: 'state' },
      { field: 'created_at', direction: 'desc' as const },
    ],
  },
  { fields: [{ field: 'tenant_id' }, { field: 'created_at', direction: 'desc' as const }] },
];

/**
 * One read model behind the document list, the outbox, the drafts and the inbox, in two
 * collections: `documents`, a small row per document with the fields the lists filter and sort
 * on and the document's summary, rewritten on every state change; and `document_contents`, the
 * document's content as the API shows it, written once when the document is created or received
 * (nothing changes a document's content afterwards). A state change so costs a row of about a
 * kilobyte instead of the whole document.
 */
export const documentsProjection = (content: Pick<DocumentContent, 'document'>): Projection => ({
  name: 'documents',
  version: 3,
  collections: [
    {
      name: DOCUMENTS,
      indexes: [
        ...DOCUMENT_LIST_INDEXES,
        // Delivery recovery looks across tenants for documents in TRANSIT.
        { fields: [{ field: 'state' }] },
        // A received MLS finds the document its AS4 MessageId went out with: without this, every
        // MLS read the whole table (9.2 ms per MLS with 800 documents, growing with every document).
        { fields: [{ field: 'summary.delivery.message_id' }] },
      ],
    },
    { name: DOCUMENT_CONTENTS },
  ],
  handles: [...DOCUMENT_EVENT_TYPES, ERASURE_EVENT],
  handle: (event: RecordedEvent, session: ReadModelSession) => applyInOrder([event], session, content),
  handleBatch: (events: RecordedEvent[], session: ReadModelSession) => applyInOrder(events, session, content),
});

const applyInOrder = (events: RecordedEvent[], session: ReadModelSession, content: Pick<DocumentContent, 'document'>) =>
  inLogOrder(
    events,
    (run) => applyBatch(run, session, content),
    (tenantId) => eraseTenant(session, tenantId),
  );

/** A tenant's personal data was erased: its rows and contents show the personal values as erased. */
async function eraseTenant(session: ReadModelSession, tenantId: string): Promise<void> {
  const contents = session.collection<DocumentContentView>(DOCUMENT_CONTENTS);
  await rewriteTenantRows(session.collection<DocumentView>(DOCUMENTS), tenantId, async (rows) => {
    const found = await contents.getMany(rows.map((r) => r.id));
    await contents.upsertMany(found.map((c) => [c.id, { ...c, response: erasedDocument(c.response) }] as const));
    const values = new Map(found.map((c) => [c.id, personalValuesOf(c.response)]));
    return rows.map((row) => [row.id, erasedRow(row, values.get(row.id) ?? new Set())] as const);
  });
}

/** The personal values a document's content has (what its row's search texts may hold). */
export const personalValuesOf = (document: object): Set<string> =>
  new Set(
    DOCUMENT_PERSONAL_FIELDS.map((f) => (document as Record<string, unknown>)[f]).filter(
      (v): v is string => typeof v === 'string' && v !== '',
    ),
  );

/**
 * Stand for the facts and references in states rebuilt from a summary, which does not keep them:
 * only the event that creates a document reads them (for the list fields and the content), and
 * later events only copy them.
 */
const NOT_KEPT = {
  header: null as unknown as DocumentHeader,
  document_ref: null as unknown as ContentRef,
  ubl_ref: null as unknown as UblRef,
};

/** A document's state as its row keeps it: what later events evolve (the facts of the content are in the row). */
export function stateOfRow(row: Pick<DocumentView, 'summary'>): DocumentAggregateState {
  const { attachments, ...summary } = row.summary;
  return {
    status: 'present',
    ...summary,
    ...NOT_KEPT,
    attachments: attachments.map((a) => ({
      id: a.id,
      file_name: a.file_name,
      file_type: a.file_type,
      file_size: a.file_size,
      content: null,
    })),
  };
}

interface Entry {
  state: DocumentAggregateState;
  /** The row as it was before this batch (kept for its list fields), if any. */
  row: DocumentView | null;
  position: bigint;
  changed: boolean;
  /** Set when this batch created the document. */
  content: DocumentContentView | null;
}

/** Contents read at once while applying a batch. */
const CONTENT_READS = 8;

/**
 * A batch of events: the documents it touches are read in one query, evolved in memory by the
 * decider (the single definition of what an event means) and written in one statement per
 * collection.
 */
async function applyBatch(
  events: RecordedEvent[],
  session: ReadModelSession,
  content: Pick<DocumentContent, 'document'>,
): Promise<void> {
  const rows = session.collection<DocumentView>(DOCUMENTS);
  const contents = session.collection<DocumentContentView>(DOCUMENT_CONTENTS);
  const ids = [...new Set(events.map((e) => (e.data as { document_id: string }).document_id))];
  const current = new Map<string, Entry>();
  for (const row of await rows.getMany(ids)) {
    current.set(row.id, {
      state: stateOfRow(row),
      row,
      position: BigInt(row.last_position),
      changed: false,
      content: null,
    });
  }
  const creations = new Map<string, DocumentRecord & { status: 'present' }>();
  for (const event of events) {
    const domainEvent = toDomainEvent<DocumentEvent>(event);
    const id = domainEvent.data.document_id;
    const entry = current.get(id) ?? {
      state: documentDecider.initialState(),
      row: null,
      position: -1n,
      changed: false,
      content: null,
    };
    if (event.globalPosition <= entry.position) continue; // applied before (a redelivered batch)
    const state = documentDecider.evolve(entry.state, domainEvent);
    const created = state.status === 'present' && entry.state.status !== 'present';
    current.set(id, {
      state,
      row: created ? null : entry.row,
      position: event.globalPosition,
      changed: true,
      content: created ? null : entry.content,
    });
    if (created && state.status === 'present') creations.set(id, state);
  }
  // The content of each document this batch created, read from the blob store a few at a time
  // (a batch may create hundreds of documents, each of up to MAX_DOCUMENT_LINES lines).
  const created = [...creations];
  for (let i = 0; i < created.length; i += CONTENT_READS) {
    await Promise.all(
      created.slice(i, i + CONTENT_READS).map(async ([id, state]) => {
        const response = await contentResponse({ ...state, document: await content.document(state.document_ref) });
        current.get(id)!.content = { id, tenant_id: state.tenant_id, response };
      }),
    );
  }

  const rowWrites: Array<[string, DocumentView]> = [];
  const contentWrites: Array<[string, DocumentContentView]> = [];
  for (const [id, { state, row, position, changed, content }] of current) {
    if (!changed) continue;
    if (state.status === 'deleted') {
      await rows.delete(id);
      await contents.delete(id);
    } else if (state.status === 'present') {
      const { status: _status, ...record } = state;
      const listFields = row ?? listFieldsOf(record);
      rowWrites.push([
        id,
        { ...listFields, state: state.state, summary: summaryOf(record), last_position: String(position) },
      ]);
      if (content) contentWrites.push([id, content]);
    }
  }
  await contents.upsertMany(contentWrites);
  await rows.upsertMany(rowWrites);
}

/** The fields the lists filter and sort on, from the facts of the document's content. */
export function listFieldsOf(record: DocumentRecord): Omit<DocumentView, 'state' | 'summary' | 'last_position'> {
  const d = record.header;
  return {
    id: record.id,
    tenant_id: record.tenant_id,
    direction: record.direction,
    document_type: d.document_type,
    invoice_id: d.invoice_id,
    invoice_date: d.invoice_date,
    due_date: d.due_date,
    // A sort key only (money itself stays a decimal string in the response).
    invoice_total_sort: d.invoice_total === null ? null : Number(d.invoice_total),
    customer_peppol_id: d.customer_peppol_id?.toLowerCase() ?? null,
    currency: d.currency ?? null,
    invoice_total: d.invoice_total ?? null,
    customer_name: d.customer_name,
    vendor_name: d.vendor_name,
    receiver_text: [d.customer_name, d.customer_email, d.customer_tax_id, d.customer_company_id, d.customer_id]
      .filter(Boolean)
      .join(' | '),
    sender_text: [d.vendor_name, d.vendor_email, d.vendor_tax_id, d.vendor_company_id, d.vendor_peppol_id]
      .filter(Boolean)
      .join(' | '),
    search_text: [d.invoice_id, d.vendor_name, d.customer_name].filter(Boolean).join(' | '),
    created_at: record.created_at,
  };
}
