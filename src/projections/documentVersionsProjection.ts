import type { RecordedEvent } from '../application/ports/eventStore.js';
import type { ReadModelSession } from '../application/ports/readModelStore.js';
import type { Projection } from '../application/ports/projection.js';
import { toDomainEvent } from '../application/commandHandler.js';
import {
  DOCUMENT_EVENT_TYPES,
  documentDecider,
  type DocumentAggregateState,
  type DocumentEvent,
} from '../domain/document/lifecycle/documentAggregate.js';
import {
  DOCUMENT_VERSIONS,
  OPEN_VERSION,
  summaryOf,
  type DocumentVersionView,
} from '../application/readModels/documentView.js';
import { DOCUMENT_LIST_INDEXES, listFieldsOf, stateOfRow } from './documentsProjection.js';
import { ERASURE_EVENT, erasedRow, inLogOrder, rewriteTenantRows } from './personalDataErasure.js';
import { ERASED } from '../domain/personalData/personalFields.js';

/**
 * The documents' list rows as they were at every position of the log: each event of a document
 * closes its current version (at the event's position) and opens the next. The lists and the
 * stats as of a moment are then the same indexed queries as today's, over the versions valid at
 * that position (versionsAt), instead of a replay of the log per request.
 *
 * A version is the row the documents projection writes (documentsProjection.ts: the same list
 * fields, made by the same functions, and the same summary), so an answer as of position P is the
 * answer the documents read model gave when it stood at P. Cost: one row per document event
 * (about a kilobyte) and two writes per event; see docs/using/as-of.md.
 */
export const documentVersionsProjection: Projection = {
  name: 'document_versions',
  version: 1,
  collections: [
    {
      name: DOCUMENT_VERSIONS,
      // Lists as of a moment are read as the lists are.
      indexes: [...DOCUMENT_LIST_INDEXES, { fields: [{ field: 'document_id' }] }],
    },
  ],
  handles: [...DOCUMENT_EVENT_TYPES, ERASURE_EVENT],
  handle: (event, session) => applyInOrder([event], session),
  handleBatch: (events, session) => applyInOrder(events, session),
};

const applyInOrder = (events: RecordedEvent[], session: ReadModelSession) =>
  inLogOrder(
    events,
    (run) => applyVersions(run, session),
    (tenantId) =>
      // Every version of the tenant's documents, the earlier ones too: an answer as of a moment
      // before the erasure does not bring the erased values back.
      rewriteTenantRows(session.collection<DocumentVersionView>(DOCUMENT_VERSIONS), tenantId, async (rows) =>
        rows.map((row) => {
          const erased = erasedRow(row, new Set(row.personal_values));
          return [row.id, { ...erased, personal_values: row.personal_values.map(() => ERASED) }] as const;
        }),
      ),
  );

interface Current {
  state: DocumentAggregateState;
  /** The open version, if the document exists. */
  head: DocumentVersionView | null;
}

async function applyVersions(events: RecordedEvent[], session: ReadModelSession): Promise<void> {
  const versions = session.collection<DocumentVersionView>(DOCUMENT_VERSIONS);
  const ids = [...new Set(events.map((e) => (e.data as { document_id: string }).document_id))];
  const current = new Map<string, Current>();
  for (const head of await versions.getMany(ids)) current.set(head.id, { state: stateOfRow(head), head });
  const writes = new Map<string, DocumentVersionView>();
  const removed = new Set<string>();
  for (const event of events) {
    const domainEvent = toDomainEvent<DocumentEvent>(event);
    const id = domainEvent.data.document_id;
    const entry = current.get(id) ?? { state: documentDecider.initialState(), head: null };
    const position = Number(event.globalPosition);
    if (entry.head && position <= Number(entry.head.last_position)) continue; // applied before
    const state = documentDecider.evolve(entry.state, domainEvent);
    if (entry.head) {
      const closed = `${id}@${entry.head.from_pos}`;
      writes.set(closed, { ...entry.head, id: closed, to_pos: position });
    }
    let head: DocumentVersionView | null = null;
    if (state.status === 'present') {
      const { status: _status, ...record } = state;
      // The list fields are the content's facts: set when the document is created, copied since.
      const { id: _rowId, ...listFields } = entry.head ?? listFieldsOf(record);
      head = {
        ...listFields,
        document_ref: entry.head?.document_ref ?? record.document_ref,
        personal_values:
          entry.head?.personal_values ??
          [record.header.customer_email, record.header.vendor_email].filter((v): v is string => !!v),
        id,
        document_id: id,
        state: state.state,
        summary: summaryOf(record),
        last_position: String(event.globalPosition),
        from_pos: position,
        to_pos: OPEN_VERSION,
      };
      writes.set(id, head);
      removed.delete(id);
    } else if (entry.head) {
      writes.delete(id);
      removed.add(id);
    }
    current.set(id, { state, head });
  }
  for (const id of removed) await versions.delete(id);
  await versions.upsertMany([...writes]);
}
