import { useCallback, useEffect, useState } from 'react';
import {
  date,
  fetchBlob,
  money,
  optional,
  request,
  type Document,
  type Session,
  type TransmissionReport,
} from '../api';
import { Chip, DocumentStatus, ErrorMessage, Notice, SendBlockedNotice } from '../components';
import { linkProps } from '../router';
import { actorWords, quantityWithUnit, stepName } from '../words';

/** The list a document belongs in: where its back link leads, and what the side navigation highlights. */
export type DocumentList = '/inbox' | '/drafts' | '/outbox';
export const listOf = (doc: Pick<Document, 'direction' | 'state'>): DocumentList =>
  doc.direction === 'INBOUND' ? '/inbox' : doc.state === 'DRAFT' ? '/drafts' : '/outbox';

interface TimelineEntry {
  type: string;
  at: string;
  /** Who acted, in words: "API key 'app' (<id>)", "the operator", "delivery job". */
  actor?: string | null;
  /** Who acted, as recorded: its kind and ids (an API key's name in key_name). */
  actor_detail?: { kind?: string; key_name?: string | null } | null;
  /** e.g. "sent by API key 'app' (<id>) as 0208:0123456749 to …" */
  summary?: string | null;
  details?: unknown;
}

interface Step {
  at: string;
  title: string;
  detail?: string;
  tone: 'neutral' | 'info' | 'success' | 'danger';
}

const MLS_TITLES: Record<string, string> = {
  AP: 'Receiving provider: delivered to the receiver (MLS AP)',
  AB: 'Receiving provider: handed on to the receiver (MLS AB)',
  RE: 'Receiving provider: rejected, not delivered (MLS RE)',
};

/** The receiving provider's Message Level Status: what it said, or why it does not count. */
function mlsStep(mls: NonNullable<TransmissionReport['deliveries'][number]['mls']>): Step {
  if (!mls.valid)
    return {
      at: mls.received_at,
      title: `Invalid status message from ${mls.sender_ap} (ignored)`,
      detail: mls.problems.join(' · '),
      tone: 'neutral',
    };
  const issues = mls.issues.map((i) => [i.reason, i.description].filter(Boolean).join(' ')).slice(0, 5);
  return {
    at: mls.received_at,
    title: MLS_TITLES[mls.code ?? ''] ?? `Receiving provider: ${mls.code}`,
    detail: [mls.description, ...issues].filter(Boolean).join(' · ') || undefined,
    tone: mls.code === 'RE' ? 'danger' : 'success',
  };
}

/** The transmission report as steps in time order: requested, each attempt, delivered or failed, received, answered. */
function steps(report: TransmissionReport): Step[] {
  const out: Step[] = [];
  for (const d of report.deliveries) {
    const to = d.transport === 'email' ? d.email : d.receiver_peppol_id;
    out.push({
      at: d.requested_at,
      title: `Sending requested (${d.transport})`,
      detail: to ? `to ${to}` : undefined,
      tone: 'info',
    });
    for (const a of d.attempts) {
      const ok = a.outcome === 'delivered';
      out.push({
        at: a.started_at,
        title: `Attempt ${a.attempt}: ${a.outcome.replace(/_/g, ' ')}`,
        detail: [
          `${a.transport} to ${a.receiver}`,
          `${a.duration_ms} ms`,
          a.error,
          a.next_attempt_at ? `next attempt ${date(a.next_attempt_at)}` : null,
        ]
          .filter(Boolean)
          .join(' · '),
        tone: ok ? 'success' : 'danger',
      });
    }
    if (d.status === 'sent' && d.completed_at) out.push({ at: d.completed_at, title: 'Delivered', tone: 'success' });
    if (d.mls) out.push(mlsStep(d.mls));
    if (d.status === 'failed' && d.completed_at)
      out.push({ at: d.completed_at, title: 'Delivery failed', detail: d.failure_reason ?? undefined, tone: 'danger' });
  }
  if (report.received)
    out.push({
      at: report.received.received_at,
      title: 'Received over Peppol',
      detail: report.received.sender_peppol_id ? `from ${report.received.sender_peppol_id}` : undefined,
      tone: 'info',
    });
  if (report.response)
    out.push({
      at: report.response.responded_at,
      title: report.response.code === 'AP' ? 'Accepted by the buyer' : 'Rejected by the buyer',
      detail: report.response.reason ?? undefined,
      tone: report.response.code === 'AP' ? 'success' : 'danger',
    });
  return out.sort((a, b) => a.at.localeCompare(b.at));
}

/** The lifecycle in words: each step's name, and what happened or who acted (never a key's id). */
function lifecycleSteps(timeline: TimelineEntry[]): Step[] {
  return timeline.map((t) => ({
    at: t.at,
    title: stepName(t.type),
    detail: (t.summary ? withoutKeyIds(t.summary) : actorWords(t.actor, t.actor_detail?.key_name)) ?? undefined,
    tone: 'neutral',
  }));
}

/** A key's id is for the API's readers; people read its name ("API key 'app' (<id>)" → "key app"). */
const withoutKeyIds = (text: string) => text.replace(/API key '([^']*)' \([0-9a-f-]{36}\)/g, 'key $1');

function Timeline({ items, label }: { items: Step[]; label: string }) {
  if (items.length === 0) return <p className="muted">Nothing yet.</p>;
  return (
    <ol className="timeline" aria-label={label}>
      {items.map((s, i) => (
        <li key={i} className={`tl-${s.tone}`}>
          <span className="tl-dot" aria-hidden="true" />
          <div>
            <div className="tl-title">{s.title}</div>
            <time className="muted small" dateTime={s.at}>
              {date(s.at)}
            </time>
            {s.detail ? <div className="small">{s.detail}</div> : null}
          </div>
        </li>
      ))}
    </ol>
  );
}

export function DocumentDetail({
  session,
  id,
  onList,
}: {
  session: Session;
  id: string;
  /** Told which list the document belongs in, once it is loaded (the side navigation highlights it). */
  onList?: (list: DocumentList) => void;
}) {
  const [doc, setDoc] = useState<Document | null>(null);
  // undefined: still loading (nothing is said about it yet); null: this service has no report.
  const [report, setReport] = useState<TransmissionReport | null | undefined>(undefined);
  const [timeline, setTimeline] = useState<TimelineEntry[] | null>(null);
  const [pdf, setPdf] = useState<string | null>(null);
  const [pdfError, setPdfError] = useState<unknown>(null);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState('');
  const [reason, setReason] = useState('');

  const load = useCallback(async () => {
    try {
      const path = `/api/documents/${encodeURIComponent(id)}`;
      const [d, r, t] = await Promise.all([
        request<Document>(session.key, 'GET', path),
        optional<TransmissionReport>(session.key, `${path}/transmission-report`),
        optional<TimelineEntry[] | { items?: TimelineEntry[]; events?: TimelineEntry[] }>(
          session.key,
          `${path}/timeline`,
        ),
      ]);
      setDoc(d);
      setReport(r);
      const entries = t === null ? null : Array.isArray(t) ? t : (t.items ?? t.events ?? []);
      setTimeline(entries);
    } catch (e) {
      setError(e);
    }
  }, [session.key, id]);

  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => {
    if (doc) onList?.(listOf(doc));
  }, [doc, onList]);

  // The PDF needs the bearer key, so it is fetched and shown from a blob URL.
  useEffect(() => {
    let url: string | null = null;
    let live = true;
    fetchBlob(session.key, `/api/documents/${encodeURIComponent(id)}/pdf`)
      .then((blob) => {
        if (!live) return;
        url = URL.createObjectURL(new Blob([blob], { type: 'application/pdf' }));
        setPdf(url);
      })
      .catch((e) => live && setPdfError(e));
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [session.key, id]);

  // While a delivery is under way, look again now and then until it settles.
  useEffect(() => {
    if (doc?.state !== 'TRANSIT') return;
    const timer = setTimeout(() => void load(), 1500);
    return () => clearTimeout(timer);
  }, [doc, report, load]);

  const act = async (what: string, method: string, path: string, body?: unknown) => {
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      const answer = await request<Document>(session.key, method, path, body);
      await load();
      // The answer is the document as it is now (the lists may take a moment longer).
      if (answer && typeof answer === 'object' && answer.id === id) setDoc(answer);
      setNotice(what);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  if (!doc)
    return (
      <section>
        <ErrorMessage error={error} />
        {error ? null : <p>Loading…</p>}
      </section>
    );

  const inbound = doc.direction === 'INBOUND';
  const canSend = !inbound && (doc.state === 'DRAFT' || doc.state === 'FAILED');
  const canAnswer = inbound && !doc.invoice_response;
  const title = `${doc.document_type.replace(/_/g, ' ').toLowerCase()} ${doc.invoice_id ?? ''}`;
  const list = listOf(doc);

  return (
    <section aria-labelledby="doc-title">
      <a className="back" {...linkProps(list)}>
        ← Back to {list.slice(1)}
      </a>
      <div className="page-head">
        <div>
          <h1 id="doc-title" className="capitalize">
            {title}
          </h1>
          <p className="muted">
            {inbound ? `From ${doc.vendor_name ?? '—'}` : `To ${doc.customer_name ?? '—'}`} · issued{' '}
            {date(doc.invoice_date)} · due {date(doc.due_date)}
          </p>
        </div>
        <div className="head-status">
          <DocumentStatus doc={doc} />
          <div className="total">{money(doc.invoice_total, doc.currency)}</div>
        </div>
      </div>
      {notice ? <Notice>{notice}</Notice> : null}
      <ErrorMessage error={error} />

      {canSend && doc.send_blocked ? <SendBlockedNotice blocked={doc.send_blocked} id="send-blocked" /> : null}
      {canSend ? (
        <div className="card action-bar">
          <p>
            {doc.send_blocked
              ? 'Sending is not possible from this account (see above).'
              : doc.state === 'FAILED'
                ? 'The last delivery failed. Send it again?'
                : 'This invoice is a draft. Send it to the customer over Peppol.'}
          </p>
          <button
            type="button"
            className="primary"
            disabled={busy || !!doc.send_blocked}
            aria-describedby={doc.send_blocked ? 'send-blocked' : undefined}
            onClick={() => act('Sending started.', 'POST', `/api/documents/${encodeURIComponent(doc.id)}/send`)}
          >
            {doc.state === 'FAILED' ? 'Send again' : 'Send'}
          </button>
        </div>
      ) : null}

      {canAnswer ? (
        <div className="card answer">
          <h2>Your answer to the supplier</h2>
          <div className="answer-grid">
            <form
              onSubmit={(e) => {
                e.preventDefault();
                void act(
                  'Accepted. The supplier has been told.',
                  'POST',
                  `/api/inbox/${encodeURIComponent(doc.id)}/accept`,
                  {
                    note: note.trim() || null,
                  },
                );
              }}
            >
              <label htmlFor="accept-note">Note (optional)</label>
              <input
                id="accept-note"
                value={note}
                onChange={(e) => setNote(e.target.value)}
                placeholder="e.g. Approved for payment"
              />
              <button type="submit" className="primary" disabled={busy}>
                Accept
              </button>
            </form>
            <form
              onSubmit={(e) => {
                e.preventDefault();
                void act(
                  'Rejected. The supplier has been told why.',
                  'POST',
                  `/api/inbox/${encodeURIComponent(doc.id)}/reject`,
                  {
                    reason: reason.trim(),
                  },
                );
              }}
            >
              <label htmlFor="reject-reason">Reason for rejecting</label>
              <input
                id="reject-reason"
                value={reason}
                required
                onChange={(e) => setReason(e.target.value)}
                placeholder="e.g. Wrong purchase order"
              />
              <button type="submit" className="danger" disabled={busy || reason.trim() === ''}>
                Reject
              </button>
            </form>
          </div>
        </div>
      ) : null}
      {doc.invoice_response ? (
        <div className="card">
          <h2>Answer</h2>
          <p>
            <Chip value={doc.invoice_response.status} /> on {date(doc.invoice_response.responded_at)}
            {doc.invoice_response.reason ? ` — “${doc.invoice_response.reason}”` : ''}
          </p>
        </div>
      ) : null}

      <div className="detail-grid">
        <div className="stack">
          <div className="card">
            <h2>Parties</h2>
            <dl className="parties">
              <div>
                <dt>Supplier</dt>
                <dd>
                  <strong>{doc.vendor_name ?? '—'}</strong>
                  <br />
                  {doc.vendor_tax_id}
                  {doc.vendor_peppol_id ? (
                    <>
                      <br />
                      <span className="small">Peppol {doc.vendor_peppol_id}</span>
                    </>
                  ) : null}
                  <br />
                  <span className="muted">{doc.vendor_address}</span>
                </dd>
              </div>
              <div>
                <dt>Customer</dt>
                <dd>
                  <strong>{doc.customer_name ?? '—'}</strong>
                  <br />
                  {doc.customer_tax_id}
                  {doc.customer_peppol_id ? (
                    <>
                      <br />
                      <span className="small">Peppol {doc.customer_peppol_id}</span>
                    </>
                  ) : null}
                  <br />
                  <span className="muted">{doc.customer_address}</span>
                </dd>
              </div>
            </dl>
          </div>
          <div className="card table-card">
            <h2>Lines</h2>
            <table className="lines">
              <thead>
                <tr>
                  <th scope="col">Description</th>
                  <th scope="col" className="num">
                    Qty
                  </th>
                  <th scope="col" className="num">
                    Price
                  </th>
                  <th scope="col" className="num hide-narrow">
                    VAT
                  </th>
                  <th scope="col" className="num">
                    Amount
                  </th>
                </tr>
              </thead>
              <tbody>
                {doc.items.map((item, i) => (
                  <tr key={i}>
                    <td>{item.description}</td>
                    <td className="num">{quantityWithUnit(item.quantity, item.unit)}</td>
                    <td className="num">{money(item.unit_price, doc.currency)}</td>
                    <td className="num hide-narrow">{item.tax_rate}%</td>
                    <td className="num">{money(item.amount, doc.currency)}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row" colSpan={3} className="num">
                    Subtotal
                  </th>
                  <td className="hide-narrow" />
                  <td className="num">{money(doc.subtotal, doc.currency)}</td>
                </tr>
                <tr>
                  <th scope="row" colSpan={3} className="num">
                    VAT
                  </th>
                  <td className="hide-narrow" />
                  <td className="num">{money(doc.total_tax, doc.currency)}</td>
                </tr>
                <tr>
                  <th scope="row" colSpan={3} className="num">
                    Total
                  </th>
                  <td className="hide-narrow" />
                  <td className="num strong">{money(doc.invoice_total, doc.currency)}</td>
                </tr>
              </tfoot>
            </table>
          </div>
          <div className="card">
            <h2>Transmission</h2>
            {report === undefined ? (
              <p className="muted">Loading…</p>
            ) : report ? (
              <Timeline items={steps(report)} label="Transmission report" />
            ) : (
              <p className="muted">No report.</p>
            )}
          </div>
          {timeline ? (
            <div className="card">
              <h2>Lifecycle</h2>
              <Timeline label="Lifecycle" items={lifecycleSteps(timeline)} />
            </div>
          ) : null}
        </div>
        <div className="card pdf-card">
          <h2>PDF</h2>
          {pdf ? (
            <>
              <iframe className="pdf" src={`${pdf}#view=FitH`} title={`PDF of ${title}`} />
              <a href={pdf} download={`${doc.invoice_id ?? doc.id}.pdf`}>
                Open or download the PDF
              </a>
            </>
          ) : pdfError ? (
            <ErrorMessage error={pdfError} />
          ) : (
            <p className="muted">Rendering…</p>
          )}
        </div>
      </div>
    </section>
  );
}
