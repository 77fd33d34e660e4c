import {
  READ_MODEL_STORE,
  type Filter,
  type Query,
  type ReadModelStore,
  type SortDirection,
} from '../ports/readModelStore.js';
import { inject, injectable } from '../injection.js';
import { LIST_LINE_BUDGET } from './documentTokens.js';
import { notFound } from '../../domain/errors.js';
import {
  contentResponse,
  DOCUMENT_CONTENTS,
  DOCUMENT_VERSIONS,
  DOCUMENTS,
  versionsAt,
  withSummary,
  type DocumentContentView,
  type DocumentResource,
  type DocumentVersionView,
  type DocumentView,
} from '../readModels/documentView.js';
import { DocumentContent } from './documentContent.js';
import { erasedDocument } from '../../domain/personalData/personalFields.js';
import type { DocumentResponse } from '../../domain/document/invoice/documentModel.js';

import type { SortField } from '../../domain/document/invoice/documentModel.js';

export interface DocumentListQuery {
  direction?: 'OUTBOUND' | 'INBOUND';
  states?: string[];
  types?: string[];
  /** Matched against the buyer's name, e-mail, tax id, company id and own customer id. */
  receiver?: string;
  /** Matched against the seller's name, e-mail and identifiers (deprecated `sender`). */
  sender?: string;
  /** Issue date bounds, YYYY-MM-DD, inclusive. */
  dateFrom?: string;
  dateTo?: string;
  /** Invoice number, seller and buyer names. */
  search?: string;
  /** The buyer's Peppol identifier as the document gives it (`<scheme>:<identifier>`, any case). */
  customerPeppolId?: string;
  sortBy?: SortField;
  sortOrder?: SortDirection;
}

export interface NumberPage {
  items: DocumentResource[];
  total: number;
  page: number;
  page_size: number;
  pages: number;
  has_next_page: boolean;
}

const sortKey = (field: SortField) => (field === 'invoice_total' ? 'invoice_total_sort' : field);

/**
 * A list page carries the documents' lines up to a budget of lines for the whole page; documents
 * past it come without their lines (`items: []`, `items_omitted: true`, `line_count` says how many
 * there are: GET /api/documents/{id} has them). Without it, one page of a hundred large invoices
 * answered with tens of megabytes.
 */
function withinLineBudget(documents: DocumentResource[], budget: number): DocumentResource[] {
  let left = budget;
  return documents.map((document) => {
    const lines = document.items?.length ?? 0;
    if (lines <= left) {
      left -= lines;
      return document;
    }
    left = 0;
    return { ...document, items: [], items_omitted: true, line_count: lines } as DocumentResource;
  });
}

/**
 * Reads of the documents read model, always within one tenant. With `asOf` (a global position),
 * the lists are read from the documents' versions valid at that position (documentVersionsProjection):
 * the same query, the same page, as the documents read model answered when it stood there.
 */
@injectable()
export class DocumentQueries {
  constructor(
    @inject(READ_MODEL_STORE) private readonly readModels: ReadModelStore,
    /** Lines one list page carries in all (LIST_MAX_LINES): see withinLineBudget. */
    @inject(LIST_LINE_BUDGET) private readonly listLineBudget = 10_000,
    /** For versions of documents deleted since: their content is read again from the blob store. */
    @inject(DocumentContent) private readonly content?: Pick<DocumentContent, 'document' | 'erasedSince'>,
  ) {}

  private filterOf(tenantId: string, q: DocumentListQuery, asOf?: bigint): Filter {
    const filters: Filter[] = [{ op: 'eq', field: 'tenant_id', value: tenantId }];
    if (asOf !== undefined) filters.push(...versionsAt(asOf));
    if (q.direction) filters.push({ op: 'eq', field: 'direction', value: q.direction });
    if (q.states?.length) filters.push({ op: 'in', field: 'state', values: q.states });
    if (q.types?.length) filters.push({ op: 'in', field: 'document_type', values: q.types });
    if (q.receiver) filters.push({ op: 'contains', field: 'receiver_text', value: q.receiver });
    if (q.sender) filters.push({ op: 'contains', field: 'sender_text', value: q.sender });
    if (q.search) filters.push({ op: 'contains', field: 'search_text', value: q.search });
    if (q.customerPeppolId)
      filters.push({ op: 'eq', field: 'customer_peppol_id', value: q.customerPeppolId.trim().toLowerCase() });
    if (q.dateFrom) filters.push({ op: 'gte', field: 'invoice_date', value: q.dateFrom });
    if (q.dateTo) filters.push({ op: 'lte', field: 'invoice_date', value: q.dateTo });
    return { op: 'and', filters };
  }

  /** A page of the list rows, each completed with its document's content (one more read for the page). */
  private async find(query: Query, asOf?: bigint): Promise<{ items: DocumentResource[]; total: number }> {
    if (asOf !== undefined) return this.findVersions(query);
    const rows = await this.readModels.collection<DocumentView>(DOCUMENTS).find(query);
    const contents = await this.contentsOf(rows.items.map((r) => r.id));
    // A document's content is written before (or with) its row: a row without one was deleted
    // between the two reads.
    const items = rows.items
      .filter((row) => contents.has(row.id))
      .map((row) => withSummary(contents.get(row.id)!, row.summary));
    return { items: withinLineBudget(items, this.listLineBudget), total: rows.total };
  }

  /** A page of versions valid at a position; a document deleted since has its content read from the blob store. */
  private async findVersions(query: Query): Promise<{ items: DocumentResource[]; total: number }> {
    const rows = await this.readModels.collection<DocumentVersionView>(DOCUMENT_VERSIONS).find(query);
    const contents = await this.contentsOf(rows.items.map((r) => r.document_id));
    const items: DocumentResource[] = [];
    for (const row of rows.items) {
      let content = contents.get(row.document_id);
      if (!content) {
        if (!this.content) throw new Error('no blob store to read the content of a deleted document');
        const opened = await this.content.document(row.document_ref);
        // Content recorded in the clear before its tenant's personal data was erased shows it erased too.
        const document = (await this.content.erasedSince(row.summary)) ? erasedDocument(opened) : opened;
        content = await contentResponse({ ...row.summary, document });
      }
      items.push(withSummary(content, row.summary));
    }
    return { items: withinLineBudget(items, this.listLineBudget), total: rows.total };
  }

  private async contentsOf(ids: string[]): Promise<Map<string, DocumentResponse>> {
    const contents = new Map<string, DocumentResponse>();
    for (const content of await this.readModels.collection<DocumentContentView>(DOCUMENT_CONTENTS).getMany(ids))
      contents.set(content.id, content.response);
    return contents;
  }

  async page(
    tenantId: string,
    q: DocumentListQuery,
    page: number,
    pageSize: number,
    asOf?: bigint,
  ): Promise<NumberPage> {
    const result = await this.find(
      {
        filter: this.filterOf(tenantId, q, asOf),
        sort: [{ field: sortKey(q.sortBy ?? 'created_at'), direction: q.sortOrder ?? 'desc' }],
        skip: (page - 1) * pageSize,
        limit: pageSize,
      },
      asOf,
    );
    const pages = Math.ceil(result.total / pageSize);
    return { items: result.items, total: result.total, page, page_size: pageSize, pages, has_next_page: page < pages };
  }

  /**
   * One document of the tenant as the API shows it, from the read model (its row and its content);
   * another tenant's, a deleted one, or one of the other `direction` when given, is not found.
   */
  async get(tenantId: string, documentId: string, direction?: 'OUTBOUND' | 'INBOUND'): Promise<DocumentResource> {
    const [row, content] = await Promise.all([
      this.readModels.collection<DocumentView>(DOCUMENTS).get(documentId),
      this.readModels.collection<DocumentContentView>(DOCUMENT_CONTENTS).get(documentId),
    ]);
    // Both are deleted with the document: one without the other was deleted between the two reads.
    if (!row || !content || row.tenant_id !== tenantId || (direction !== undefined && row.direction !== direction))
      throw notFound('Document not found');
    return withSummary(content.response, row.summary);
  }

  async list(tenantId: string, skip: number, limit: number, asOf?: bigint) {
    const result = await this.find(
      {
        filter: this.filterOf(tenantId, {}, asOf),
        sort: [{ field: 'created_at', direction: 'desc' }],
        skip,
        limit,
      },
      asOf,
    );
    return { documents: result.items, total: result.total, skip, limit };
  }
}
