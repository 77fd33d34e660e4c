import { useEffect, useState } from 'react';
import { date, money, request, type Document, type Page, type Session } from '../api';
import { DocumentStatus, ErrorMessage } from '../components';
import { linkProps } from '../router';

/** The documents one panel of the home page lists, and how many there are. */
interface Found {
  items: Document[];
  total: number;
  /** Counted among the latest RECENT documents only (the API has no filter for it). */
  ofRecent: boolean;
}

/** How many of the latest documents are looked through for what has no filter of its own. */
const RECENT = 100;
const SHOWN = 5;

interface Panel {
  id: string;
  title: string;
  lede: string;
  empty: string;
  /** The supplier for received documents, the customer for sent ones. */
  party: 'vendor_name' | 'customer_name';
  find: (key: string) => Promise<Found>;
}

const byState = (path: string, state: string) => async (key: string) => {
  const page = await request<Page<Document>>(key, 'GET', `${path}?state=${state}&page_size=${SHOWN}`);
  return { items: page.items, total: page.total, ofRecent: false };
};

/** Among the latest documents of a list, those `keep` picks (the API filters by state, not by answer). */
const recent = (path: string, keep: (d: Document) => boolean) => async (key: string) => {
  const page = await request<Page<Document>>(key, 'GET', `${path}?page_size=${RECENT}`);
  const kept = page.items.filter(keep);
  return { items: kept.slice(0, SHOWN), total: kept.length, ofRecent: page.total > RECENT };
};

const PANELS: Panel[] = [
  {
    id: 'failed',
    title: 'Deliveries that failed',
    lede: 'Open one to see why, and send it again.',
    empty: 'No failed deliveries.',
    party: 'customer_name',
    find: byState('/api/outbox', 'FAILED'),
  },
  {
    id: 'waiting',
    title: 'Deliveries on their way',
    lede: 'Sent and not yet delivered: the service keeps trying.',
    empty: 'Nothing is waiting to be delivered.',
    party: 'customer_name',
    find: byState('/api/outbox', 'TRANSIT'),
  },
  {
    id: 'unanswered',
    title: 'Received, waiting for your answer',
    lede: 'Accept or reject each: the supplier is told.',
    empty: 'Every received document has its answer.',
    party: 'vendor_name',
    find: recent('/api/inbox', (d) => !d.invoice_response),
  },
  {
    id: 'rejected',
    title: 'Rejected by the buyer',
    lede: 'Documents your customers rejected, with their reason.',
    empty: 'No rejected documents.',
    party: 'customer_name',
    find: recent('/api/outbox', (d) => d.invoice_response?.status === 'rejected'),
  },
];

function AttentionPanel({ session, panel }: { session: Session; panel: Panel }) {
  const [found, setFound] = useState<Found | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    let live = true;
    panel
      .find(session.key)
      .then((f) => live && setFound(f))
      .catch((e) => live && setError(e));
    return () => {
      live = false;
    };
  }, [session.key, panel]);
  const heading = `home-${panel.id}`;
  return (
    <section className="card attention" aria-labelledby={heading}>
      <h2 id={heading}>
        {panel.title}
        {found ? (
          <span className={`count ${found.total > 0 ? 'count-some' : ''}`}>
            {found.total}
            {found.ofRecent ? '+' : ''}
          </span>
        ) : null}
      </h2>
      <p className="muted small">{panel.lede}</p>
      <ErrorMessage error={error} />
      {!found ? (
        error ? null : (
          <p className="muted">Loading…</p>
        )
      ) : found.items.length === 0 ? (
        <p className="muted">{panel.empty}</p>
      ) : (
        <ul className="attention-list">
          {found.items.map((doc) => (
            <li key={doc.id}>
              <a {...linkProps(`/documents/${doc.id}`)}>{doc.invoice_id ?? doc.id.slice(0, 8)}</a>
              <span>{doc[panel.party] ?? '—'}</span>
              <span className="num">{money(doc.invoice_total, doc.currency)}</span>
              <span className="muted small">{date(doc.invoice_date)}</span>
              <DocumentStatus doc={doc} />
              {doc.invoice_response?.reason ? (
                <span className="small reason">“{doc.invoice_response.reason}”</span>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The tenant's home: what needs attention now. */
export function Home({ session }: { session: Session }) {
  return (
    <section aria-labelledby="home-title">
      <div className="page-head">
        <div>
          <h1 id="home-title">What needs attention</h1>
          <p className="muted">Failed and waiting deliveries, documents to answer, and rejections.</p>
        </div>
        <a className="button primary" {...linkProps('/new')}>
          New invoice
        </a>
      </div>
      <div className="attention-grid">
        {PANELS.map((panel) => (
          <AttentionPanel key={panel.id} session={session} panel={panel} />
        ))}
      </div>
    </section>
  );
}
