import { useEffect, useState } from 'react';
import {
  DOCUMENT_TYPES,
  SORT_FIELDS,
  STATES,
  date,
  money,
  request,
  type Document,
  type Page,
  type Session,
} from '../api';
import { DocumentStatus, ErrorMessage } from '../components';
import { linkProps, navigate } from '../router';

type Kind = 'outbox' | 'drafts' | 'inbox';

/** Why a listed document cannot be sent, in a line (the document page says it in full). */
const blockedReason = (blocked: NonNullable<Document['send_blocked']>): string =>
  blocked.allowed_ids.length === 0
    ? 'This account has no Peppol id yet'
    : `Issued by ${blocked.issuer_peppol_id ?? 'no one'}: this account sends as ${blocked.allowed_ids.join(', ')}`;

const TITLES: Record<Kind, { title: string; path: string; lede: string }> = {
  outbox: { title: 'Outbox', path: '/api/outbox', lede: 'Documents you have sent, and where they are on the way.' },
  drafts: {
    title: 'Drafts',
    path: '/api/outbox/drafts',
    lede: 'Documents not yet sent (or, with the state filter, any state).',
  },
  inbox: { title: 'Inbox', path: '/api/inbox', lede: 'Documents your suppliers sent you over Peppol.' },
};

const SORT_LABELS: Record<string, string> = {
  created_at: 'Created',
  invoice_date: 'Invoice date',
  due_date: 'Due date',
  invoice_total: 'Total',
  customer_name: 'Customer',
  vendor_name: 'Supplier',
  invoice_id: 'Number',
};

interface Filters {
  search: string;
  type: string;
  state: string;
  receiver: string;
  date_from: string;
  date_to: string;
  sort_by: string;
  sort_order: string;
  page: number;
  page_size: number;
}

const EMPTY: Filters = {
  search: '',
  type: '',
  state: '',
  receiver: '',
  date_from: '',
  date_to: '',
  sort_by: 'created_at',
  sort_order: 'desc',
  page: 1,
  page_size: 20,
};

export function DocumentList({ session, kind }: { session: Session; kind: Kind }) {
  const meta = TITLES[kind];
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [page, setPage] = useState<Page<Document> | null>(null);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(filters))
      if (value !== '' && value !== null) query.set(name, String(value));
    let live = true;
    setError(null);
    request<Page<Document>>(session.key, 'GET', `${meta.path}?${query.toString()}`)
      .then((p) => live && setPage(p))
      .catch((e) => live && setError(e));
    return () => {
      live = false;
    };
  }, [filters, session.key, meta.path]);

  const set = (name: keyof Filters) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
    setDraft({ ...draft, [name]: e.target.value });
  const sortBy = (field: string) =>
    setFilters({
      ...filters,
      sort_by: field,
      sort_order: filters.sort_by === field && filters.sort_order === 'desc' ? 'asc' : 'desc',
      page: 1,
    });
  const party = kind === 'inbox' ? 'Supplier' : 'Customer';
  const partyField = kind === 'inbox' ? 'vendor_name' : 'customer_name';
  const sortHeader = (field: string, label: string, className?: string) => (
    <th
      scope="col"
      className={className}
      aria-sort={filters.sort_by === field ? (filters.sort_order === 'asc' ? 'ascending' : 'descending') : 'none'}
    >
      <button type="button" className="sort" onClick={() => sortBy(field)}>
        {label}
        <span aria-hidden="true">{filters.sort_by === field ? (filters.sort_order === 'asc' ? ' ▲' : ' ▼') : ''}</span>
      </button>
    </th>
  );

  return (
    <section aria-labelledby="list-title">
      <div className="page-head">
        <div>
          <h1 id="list-title">{meta.title}</h1>
          <p className="muted">{meta.lede}</p>
        </div>
        {kind !== 'inbox' ? (
          <a className="button primary" {...linkProps('/new')}>
            New invoice
          </a>
        ) : null}
      </div>
      <form
        className="filters card"
        aria-label="Filters"
        onSubmit={(e) => {
          e.preventDefault();
          setFilters({ ...draft, page: 1 });
        }}
      >
        <div className="field grow">
          <label htmlFor="f-search">Search</label>
          <input
            id="f-search"
            type="search"
            placeholder="Number, supplier or customer"
            value={draft.search}
            onChange={set('search')}
          />
        </div>
        <div className="field">
          <label htmlFor="f-type">Type</label>
          <select id="f-type" value={draft.type} onChange={set('type')}>
            <option value="">All types</option>
            {DOCUMENT_TYPES.map((t) => (
              <option key={t} value={t}>
                {t.replace(/_/g, ' ').toLowerCase()}
              </option>
            ))}
          </select>
        </div>
        {kind === 'drafts' ? (
          <div className="field">
            <label htmlFor="f-state">State</label>
            <select id="f-state" value={draft.state} onChange={set('state')}>
              <option value="">Drafts</option>
              {STATES.filter((s) => s !== 'RECEIVED').map((s) => (
                <option key={s} value={s}>
                  {s.toLowerCase()}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        {kind === 'outbox' ? (
          <div className="field">
            <label htmlFor="f-receiver">Customer</label>
            <input
              id="f-receiver"
              placeholder="Name, e-mail, VAT or id"
              value={draft.receiver}
              onChange={set('receiver')}
            />
          </div>
        ) : null}
        <div className="field">
          <label htmlFor="f-from">Issued from</label>
          <input id="f-from" type="date" value={draft.date_from} onChange={set('date_from')} />
        </div>
        <div className="field">
          <label htmlFor="f-to">Issued to</label>
          <input id="f-to" type="date" value={draft.date_to} onChange={set('date_to')} />
        </div>
        <div className="field">
          <label htmlFor="f-sort">Sort by</label>
          <select id="f-sort" value={draft.sort_by} onChange={set('sort_by')}>
            {SORT_FIELDS.map((f) => (
              <option key={f} value={f}>
                {SORT_LABELS[f]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="f-order">Order</label>
          <select id="f-order" value={draft.sort_order} onChange={set('sort_order')}>
            <option value="desc">Descending</option>
            <option value="asc">Ascending</option>
          </select>
        </div>
        <div className="field actions">
          <button type="submit" className="primary">
            Apply
          </button>
          <button
            type="button"
            onClick={() => {
              setDraft(EMPTY);
              setFilters(EMPTY);
            }}
          >
            Reset
          </button>
        </div>
      </form>
      <ErrorMessage error={error} />
      <div className="card table-card">
        <table className="documents">
          <caption className="visually-hidden">{meta.title}</caption>
          <thead>
            <tr>
              {sortHeader('invoice_id', 'Number')}
              {sortHeader(partyField, party)}
              {sortHeader('invoice_date', 'Issued', 'hide-narrow')}
              {sortHeader('due_date', 'Due', 'hide-narrow')}
              {sortHeader('invoice_total', 'Total', 'num')}
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {page?.items.map((doc) => (
              <tr key={doc.id} onClick={() => navigate(`/documents/${doc.id}`)}>
                <td>
                  <a {...linkProps(`/documents/${doc.id}`)}>{doc.invoice_id ?? doc.id.slice(0, 8)}</a>
                  <div className="muted small">{doc.document_type.replace(/_/g, ' ').toLowerCase()}</div>
                </td>
                <td>{(kind === 'inbox' ? doc.vendor_name : doc.customer_name) ?? '—'}</td>
                <td className="hide-narrow">{date(doc.invoice_date)}</td>
                <td className="hide-narrow">{date(doc.due_date)}</td>
                <td className="num">{money(doc.invoice_total, doc.currency)}</td>
                <td>
                  <DocumentStatus doc={doc} />
                  {doc.send_blocked ? (
                    <div className="small blocked-reason">{blockedReason(doc.send_blocked)}</div>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {page && page.items.length === 0 ? <p className="empty">Nothing here yet.</p> : null}
        {page ? (
          <div className="pager">
            <span className="muted">
              {page.total} document{page.total === 1 ? '' : 's'} · page {page.page} of {Math.max(page.pages, 1)}
            </span>
            <label htmlFor="f-size" className="inline">
              Per page
            </label>
            <select
              id="f-size"
              value={filters.page_size}
              onChange={(e) => setFilters({ ...filters, page_size: Number(e.target.value), page: 1 })}
            >
              {[10, 20, 50, 100].map((n) => (
                <option key={n}>{n}</option>
              ))}
            </select>
            <button
              type="button"
              disabled={page.page <= 1}
              onClick={() => setFilters({ ...filters, page: page.page - 1 })}
            >
              Previous
            </button>
            <button
              type="button"
              disabled={!page.has_next_page}
              onClick={() => setFilters({ ...filters, page: page.page + 1 })}
            >
              Next
            </button>
          </div>
        ) : null}
      </div>
    </section>
  );
}
