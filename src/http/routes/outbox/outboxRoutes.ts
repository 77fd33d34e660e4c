import * as t from 'io-ts';
import { SORT_FIELDS, type DocumentListQuery, type DocumentQueries } from '../../../application/documents/documentQueries.js';
import { DOCUMENT_STATES, DOCUMENT_TYPES } from '../../../domain/document/invoice/documentModel.js';
import { tenantOf } from '../../auth.js';
import { decode, PAGE_FIELDS } from '../../codecs.js';
import type { RouteRegistry } from '../../routeRegistry.js';

const keyof = (values: readonly string[]) => t.keyof(Object.fromEntries(values.map((v) => [v, null])) as Record<string, null>);
interface IsoDateBrand {
  readonly IsoDate: unique symbol;
}
/** A date or date-time; only its date part bounds the issue date. */
const IsoDate = t.brand(t.string, (s): s is t.Branded<string, IsoDateBrand> => /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(s), 'IsoDate');

const PageQuery = t.partial({
  ...PAGE_FIELDS,
  type: keyof(DOCUMENT_TYPES),
  state: keyof(DOCUMENT_STATES),
  sender: t.string,
  receiver: t.string,
  date_from: IsoDate,
  date_to: IsoDate,
  search: t.string,
  sort_by: keyof(SORT_FIELDS),
  sort_order: t.keyof({ asc: null, desc: null }),
});
type PageQuery = t.TypeOf<typeof PageQuery>;

const CREDIT_NOTES = ['CREDIT_NOTE', 'SELFBILLING_CREDIT_NOTE'];
const INVOICES = ['INVOICE', 'DEBIT_NOTE', 'SELFBILLING_INVOICE'];

function listQuery(q: PageQuery): DocumentListQuery {
  return {
    ...(q.type ? { types: [q.type] } : {}),
    ...(q.state ? { states: [q.state] } : {}),
    receiver: q.receiver,
    sender: q.sender,
    search: q.search,
    dateFrom: q.date_from?.slice(0, 10),
    dateTo: q.date_to?.slice(0, 10),
    sortBy: q.sort_by as DocumentListQuery['sortBy'],
    sortOrder: q.sort_order,
  };
}

/** Paged lists: outbox, drafts, inbox; all of the calling tenant, all projections of events. */
export function listRoutes(routes: RouteRegistry, queries: DocumentQueries, readYourWrites: () => Promise<void>): void {
  const page = (path: string, summary: string, tag: string, base: (q: PageQuery) => DocumentListQuery) =>
    routes.add({
      method: 'get',
      path,
      summary,
      tag,
      auth: 'tenant',
      query: PageQuery,
      handler: async (req, res) => {
        const q = decode(PageQuery, req.query, 'query');
        await readYourWrites();
        res.json(await queries.page(tenantOf(res).tenantId, { ...listQuery(q), ...base(q) }, q.page ?? 1, q.page_size ?? 20));
      },
    });

  page('/api/outbox', 'Outbound documents that have left drafts (TRANSIT, SENT, FAILED); filter with state', 'outbox', (q) => ({
    direction: 'OUTBOUND',
    states: q.state ? [q.state] : ['TRANSIT', 'SENT', 'FAILED'],
  }));
  page('/api/outbox/drafts', 'Outbound documents by state (DRAFT unless state is given)', 'outbox', (q) => ({
    direction: 'OUTBOUND',
    states: [q.state ?? 'DRAFT'],
  }));
  page('/api/inbox', 'Received documents', 'inbox', () => ({ direction: 'INBOUND' }));
  page('/api/inbox/invoices', 'Received invoices (and debit notes)', 'inbox', (q) => ({
    direction: 'INBOUND',
    types: q.type ? [q.type].filter((x) => INVOICES.includes(x)) : INVOICES,
  }));
  page('/api/inbox/credit-notes', 'Received credit notes', 'inbox', (q) => ({
    direction: 'INBOUND',
    types: q.type ? [q.type].filter((x) => CREDIT_NOTES.includes(x)) : CREDIT_NOTES,
  }));
}
