import * as t from 'io-ts';
import { SORT_FIELDS } from '../../../domain/document/invoice/documentModel.js';
import { type DocumentListQuery, type DocumentQueries } from '../../../application/documents/documentQueries.js';
import { DOCUMENT_STATES, DOCUMENT_TYPES } from '../../../domain/document/invoice/documentModel.js';
import { tenantOf } from '../../auth.js';
import { decode, PAGE_FIELDS } from '../../codecs.js';
import type { RouteRegistry } from '../../routeRegistry.js';
import { DocumentPageAnswer } from '../../codecs/documentAnswers.js';
import { withSendBlock } from '../../../application/readModels/documentView.js';

const keyof = (values: readonly string[]) =>
  t.keyof(Object.fromEntries(values.map((v) => [v, null])) as Record<string, null>);
interface IsoDateBrand {
  readonly IsoDate: unique symbol;
}
/** A date or date-time; only its date part bounds the issue date. */
const IsoDate = t.brand(
  t.string,
  (s): s is t.Branded<string, IsoDateBrand> => /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(s),
  'IsoDate',
);

const PageQuery = t.partial({
  ...PAGE_FIELDS,
  type: keyof(DOCUMENT_TYPES),
  state: keyof(DOCUMENT_STATES),
  sender: t.string,
  receiver: t.string,
  date_from: IsoDate,
  date_to: IsoDate,
  search: t.string,
  customer_peppol_id: t.string,
  sort_by: keyof(SORT_FIELDS),
  sort_order: t.keyof({ asc: null, desc: null }),
});
export type PageQuery = t.TypeOf<typeof PageQuery>;

function listQuery(q: PageQuery): DocumentListQuery {
  return {
    ...(q.type ? { types: [q.type] } : {}),
    ...(q.state ? { states: [q.state] } : {}),
    receiver: q.receiver,
    sender: q.sender,
    search: q.search,
    customerPeppolId: q.customer_peppol_id,
    dateFrom: q.date_from?.slice(0, 10),
    dateTo: q.date_to?.slice(0, 10),
    sortBy: q.sort_by as DocumentListQuery['sortBy'],
    sortOrder: q.sort_order,
  };
}

/** Registers one paged list of the tenant's documents (outbox, drafts, inbox…): `base` narrows the query. */
export type DocumentPageRoute = (
  path: string,
  summary: string,
  tag: string,
  base: (q: PageQuery) => DocumentListQuery,
) => void;

/** Paged lists of documents, all of the calling tenant, all read from the documents read model. */
export function documentPageRoute(
  routes: RouteRegistry,
  queries: DocumentQueries,
  readYourWrites: () => Promise<void>,
): DocumentPageRoute {
  return (path, summary, tag, base) =>
    routes.add({
      method: 'get',
      path,
      summary,
      tag,
      auth: 'tenant',
      query: PageQuery,
      answer: DocumentPageAnswer,
      handler: async (req, res, answer) => {
        const q = decode(PageQuery, req.query, 'query');
        await readYourWrites();
        const { tenant } = tenantOf(res);
        const found = await queries.page(tenant.id, { ...listQuery(q), ...base(q) }, q.page ?? 1, q.page_size ?? 20);
        answer({ ...found, items: found.items.map((d) => withSendBlock(d, tenant)) });
      },
    });
}
