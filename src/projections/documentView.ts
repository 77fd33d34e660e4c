import type { DocumentRecord } from '../domain/document/documentAggregate.js';
import { fromDocumentJson } from '../domain/document/documentJson.js';
import { toResponse, type DocumentResponse } from '../domain/document/documentModel.js';
import type { Versioned } from './projection.js';

/** A document as the list read model keeps it. */
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
  customer_name: string | null;
  vendor_name: string | null;
  receiver_text: string;
  sender_text: string;
  search_text: string;
  created_at: string;
  /** The aggregate's state without the heavy parts (UBL, attachment content), for replays. */
  record: DocumentRecord;
  response: DocumentResponse;
}

/** The buyer's answer to a document: given (inbound) or received from the buyer (outbound). */
export interface InvoiceResponseView {
  status: 'accepted' | 'rejected';
  code: 'AP' | 'RE';
  reason: string | null;
  responded_at: string;
}

/**
 * The Document resource as the API returns it: every amount a string. Besides the client's
 * fields it carries `invoice_response` (null until the buyer accepts or rejects).
 */
export function documentResponse(record: DocumentRecord): DocumentResponse & { invoice_response: InvoiceResponseView | null } {
  const doc = fromDocumentJson(record.document);
  const response = toResponse({ ...doc, state: record.state }, { id: record.id, created_at: record.created_at });
  response.attachments = record.attachments.map((a) => ({
    id: a.id,
    file_name: a.file_name,
    file_type: a.file_type,
    file_size: a.file_size,
    file_url: `/api/documents/${record.id}/attachments/${a.id}`,
  }));
  const answer = record.response;
  return {
    ...response,
    invoice_response: answer ? { status: answer.code === 'AP' ? 'accepted' : 'rejected', code: answer.code, reason: answer.reason, responded_at: answer.responded_at } : null,
  };
}
