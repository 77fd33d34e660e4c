import type { DocumentRecord } from '../../domain/document/lifecycle/documentAggregate.js';
import { fromDocumentJson, lineIn, type DocumentJson } from '../../domain/document/invoice/documentJson.js';
import { lineItemResponse, toResponse, type DocumentResponse } from '../../domain/document/invoice/documentModel.js';
import type { Versioned } from '../ports/projection.js';
import {
  ownParticipantIds,
  sendBlockOf,
  type ParticipantHolder,
  type SendBlock,
} from '../../domain/peppol/senderIdentity.js';

/**
 * The documents read model (written by projections/documentsProjection.ts) in two collections:
 * a small row per document, rewritten on every state change, and its content, written once.
 */
/** A document with its content read back from the blob store: what the API shows of one. */
export type DocumentWithContent = DocumentRecord & { document: DocumentJson };

export const DOCUMENTS = 'documents';
export const DOCUMENT_CONTENTS = 'document_contents';

/**
 * A document's aggregate state without its content: no payload references and no facts of the
 * content (the list fields have those). Attachments keep an empty `file_data`: the rows have had
 * that shape since attachments' content was in the events, and replaying history rebuilds them
 * byte for byte.
 */
export type DocumentSummary = Omit<DocumentRecord, 'header' | 'document_ref' | 'ubl_ref' | 'attachments'> & {
  attachments: Array<{ id: string; file_name: string; file_type: string; file_size: number; file_data: '' }>;
};

/** The summary of a document as the read model keeps it. */
export function summaryOf(record: DocumentRecord): DocumentSummary {
  const { header: _header, document_ref: _content, ubl_ref: _ubl, attachments, ...rest } = record;
  return {
    ...rest,
    attachments: attachments.map((a) => ({
      id: a.id,
      file_name: a.file_name,
      file_type: a.file_type,
      file_size: a.file_size,
      file_data: '',
    })),
  };
}

/**
 * A document's row in the list read model: the fields the lists filter and sort on (set when the
 * document is created or received, as its content never changes afterwards) and its summary,
 * which every later event updates. Small, so a state change rewrites little.
 */
export interface DocumentView extends Versioned {
  id: string;
  tenant_id: string;
  direction: string;
  state: string;
  document_type: string;
  invoice_id: string | null;
  invoice_date: string | null;
  due_date: string | null;
  invoice_total_sort: number | null;
  /**
   * The buyer's Peppol identifier as the document gives it (lower case), its currency and total
   * (a decimal string): for the customer_peppol_id filter and the stats. Absent on rows written
   * before they were kept (`npm run rebuild-projection -- documents` adds them).
   */
  customer_peppol_id?: string | null;
  currency?: string | null;
  invoice_total?: string | null;
  customer_name: string | null;
  vendor_name: string | null;
  receiver_text: string;
  sender_text: string;
  search_text: string;
  created_at: string;
  summary: DocumentSummary;
}

/** A document's content as the API shows it, written once: see `documentResponse`. */
export interface DocumentContentView {
  id: string;
  tenant_id: string;
  response: DocumentResponse;
}

/** The buyer's answer to a document: given (inbound) or received from the buyer (outbound). */
export interface InvoiceResponseView {
  status: 'accepted' | 'rejected';
  code: 'AP' | 'RE';
  reason: string | null;
  responded_at: string;
}

export type DocumentResource = DocumentResponse & { invoice_response: InvoiceResponseView | null };

/** Lines presented between two turns of the event loop. */
const LINES_PER_TURN = 1_000;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The part of the Document resource that only its content decides (every amount a string). Its
 * cost is linear in the lines (Decimals in and out of every amount): a document of 28,000 lines
 * takes over 100 ms, so the lines are presented a thousand at a time, letting other requests in
 * between.
 */
export async function contentResponse(
  record: Pick<DocumentWithContent, 'id' | 'created_at' | 'state' | 'direction' | 'document'>,
): Promise<DocumentResponse> {
  const { items, ...rest } = record.document;
  // State and direction are the lifecycle's (the aggregate's), whatever the content says.
  const present = (lines: DocumentJson['items']) =>
    toResponse(
      { ...fromDocumentJson({ ...rest, items: lines }), state: record.state, direction: record.direction },
      { id: record.id, created_at: record.created_at },
    );
  if (items.length <= LINES_PER_TURN) return present(items);
  const head = present([]);
  const lines: DocumentResponse['items'] = [];
  for (let i = 0; i < items.length; i += LINES_PER_TURN) {
    await nextTurn();
    for (const line of items.slice(i, i + LINES_PER_TURN)) lines.push(lineItemResponse(lineIn(line)));
  }
  return { ...head, items: lines };
}

/** The content completed with what changes over the document's life: state, attachments, the buyer's answer. */
export function withSummary(content: DocumentResponse, summary: DocumentSummary): DocumentResource {
  const answer = summary.response;
  return {
    ...content,
    state: summary.state,
    attachments: summary.attachments.map((a) => ({
      id: a.id,
      file_name: a.file_name,
      file_type: a.file_type,
      file_size: a.file_size,
      file_url: `/api/documents/${summary.id}/attachments/${a.id}`,
    })),
    invoice_response: answer
      ? {
          status: answer.code === 'AP' ? 'accepted' : 'rejected',
          code: answer.code,
          reason: answer.reason,
          responded_at: answer.responded_at,
        }
      : null,
  };
}

/**
 * The Document resource as the API returns it. Besides the client's fields it carries
 * `invoice_response` (null until the buyer accepts or rejects).
 */
export async function documentResponse(record: DocumentWithContent): Promise<DocumentResource> {
  return withSummary(await contentResponse(record), summaryOf(record));
}

/**
 * A document as its tenant sees it: with `send_blocked`, why the tenant cannot send it (an
 * outbound DRAFT or FAILED document whose issuer is not one of its participant ids), else null.
 * Worked out when answering, from the tenant's ids as they are now: a draft its administrator
 * gives the tenant the id for becomes sendable.
 */
export function withSendBlock<D extends DocumentResource>(
  document: D,
  tenant: ParticipantHolder,
): D & { send_blocked: SendBlock | null } {
  const sendable = document.direction === 'OUTBOUND' && (document.state === 'DRAFT' || document.state === 'FAILED');
  return { ...document, send_blocked: sendable ? sendBlockOf(ownParticipantIds(tenant), document) : null };
}
