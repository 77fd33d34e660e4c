import { useCallback, useEffect, useState } from 'react';
import { WEBHOOK_EVENTS, date, hasEndpoint, request, type Page, type Session, type Webhook } from '../api';
import { eventKindName } from '../words';
import { Chip, ErrorMessage, Notice } from '../components';

interface DeliveryAttempt {
  at?: string;
  started_at?: string;
  status_code?: number | null;
  response_code?: number | null;
  error?: string | null;
  duration_ms?: number;
}

interface WebhookDelivery {
  id: string;
  event_type: string;
  document_id: string | null;
  status: string;
  created_at: string;
  next_attempt_at: string | null;
  attempts: DeliveryAttempt[];
}

/** The answer of POST /api/webhooks/{id}/test. */
interface WebhookTestOutcome {
  event_id?: string;
  url?: string;
  delivered?: boolean;
  status_code?: number | null;
  error?: string | null;
  duration_ms?: number;
}

function History({ session, webhook }: { session: Session; webhook: Webhook }) {
  const [page, setPage] = useState<Page<WebhookDelivery> | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [canTest, setCanTest] = useState(false);
  const [testResult, setTestResult] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(() => {
    request<Page<WebhookDelivery>>(
      session.key,
      'GET',
      `/api/webhooks/${encodeURIComponent(webhook.id)}/deliveries?page_size=20`,
    )
      .then(setPage)
      .catch(setError);
  }, [session.key, webhook.id]);
  useEffect(load, [load]);
  useEffect(() => {
    void hasEndpoint('post', '/api/webhooks/{}/test').then(setCanTest);
  }, []);

  return (
    <div className="history">
      <div className="row">
        <h3>Delivery history</h3>
        {canTest ? (
          <button
            type="button"
            disabled={busy}
            onClick={async () => {
              setBusy(true);
              setTestResult(null);
              setError(null);
              try {
                const r = await request<WebhookTestOutcome>(
                  session.key,
                  'POST',
                  `/api/webhooks/${encodeURIComponent(webhook.id)}/test`,
                );
                const detail = [
                  r.status_code !== null && r.status_code !== undefined ? `HTTP ${r.status_code}` : null,
                  r.error ?? null,
                  r.duration_ms !== undefined ? `${r.duration_ms} ms` : null,
                ]
                  .filter(Boolean)
                  .join(' · ');
                setTestResult({
                  ok: r.delivered !== false,
                  text: `Test event ${r.delivered === false ? 'not delivered' : 'delivered'}${detail ? `: ${detail}` : ''}.`,
                });
                load();
              } catch (e) {
                setError(e);
              } finally {
                setBusy(false);
              }
            }}
          >
            Send test
          </button>
        ) : null}
        <button type="button" className="link-button" onClick={load}>
          Refresh
        </button>
      </div>
      {testResult?.ok ? <Notice>{testResult.text}</Notice> : null}
      {testResult && !testResult.ok ? (
        <div className="alert alert-error" role="alert">
          {testResult.text}
        </div>
      ) : null}
      <ErrorMessage error={error} />
      {page && page.items.length === 0 ? <p className="muted">No notifications yet.</p> : null}
      {page && page.items.length > 0 ? (
        <table>
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">When</th>
              <th scope="col">Status</th>
              <th scope="col" className="hide-narrow">
                Attempts
              </th>
            </tr>
          </thead>
          <tbody>
            {page.items.map((d) => {
              const last = d.attempts[d.attempts.length - 1];
              const code = last?.status_code ?? last?.response_code;
              return (
                <tr key={d.id}>
                  <td>
                    {eventKindName(d.event_type)} <code className="muted small">{d.event_type}</code>
                  </td>
                  <td>{date(d.created_at)}</td>
                  <td>
                    <Chip value={d.status} />
                  </td>
                  <td className="hide-narrow">
                    {d.attempts.length}
                    {code ? ` · HTTP ${code}` : ''}
                    {last?.error ? ` · ${last.error}` : ''}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}

export function Webhooks({ session }: { session: Session }) {
  const [hooks, setHooks] = useState<Webhook[] | null>(null);
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>(['document.sent', 'document.failed', 'document.received']);
  const [open, setOpen] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [created, setCreated] = useState<Webhook | null>(null);

  const load = useCallback(() => {
    request<Webhook[]>(session.key, 'GET', '/api/webhooks').then(setHooks).catch(setError);
  }, [session.key]);
  useEffect(load, [load]);

  return (
    <section aria-labelledby="wh-title">
      <div className="page-head">
        <div>
          <h1 id="wh-title">Webhooks</h1>
          <p className="muted">Your systems are told when documents are sent, fail, arrive or are answered.</p>
        </div>
      </div>
      <ErrorMessage error={error} />
      {created ? (
        <Notice>
          Subscribed {created.url}.{created.secret ? ` Signing secret (shown once): ${created.secret}` : ''}
        </Notice>
      ) : null}
      <form
        className="card"
        aria-labelledby="wh-new"
        onSubmit={async (e) => {
          e.preventDefault();
          setError(null);
          try {
            setCreated(await request<Webhook>(session.key, 'POST', '/api/webhooks', { url: url.trim(), events }));
            setUrl('');
            load();
          } catch (err) {
            setError(err);
          }
        }}
      >
        <h2 id="wh-new">New subscription</h2>
        <label htmlFor="wh-url">URL</label>
        <input
          id="wh-url"
          type="url"
          required
          placeholder="https://erp.example.com/hooks/invoices"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
        />
        <fieldset className="checks">
          <legend>Events</legend>
          {WEBHOOK_EVENTS.map((ev) => (
            <label key={ev} className="check">
              <input
                type="checkbox"
                checked={events.includes(ev)}
                onChange={(e) => setEvents(e.target.checked ? [...events, ev] : events.filter((x) => x !== ev))}
              />
              {eventKindName(ev)} <code className="muted small">{ev}</code>
            </label>
          ))}
        </fieldset>
        <button type="submit" className="primary" disabled={url.trim() === '' || events.length === 0}>
          Subscribe
        </button>
      </form>
      <div className="stack">
        {hooks?.length === 0 ? <p className="muted">No subscriptions yet.</p> : null}
        {hooks?.map((h) => (
          <div className="card" key={h.id}>
            <div className="row">
              <div className="grow">
                <strong className="break">{h.url}</strong>
                <div className="muted small">{h.events.map(eventKindName).join(', ')}</div>
              </div>
              <Chip value={h.enabled ? 'sent' : 'neutral'} label={h.enabled ? 'enabled' : 'paused'} />
              <button
                type="button"
                aria-expanded={open === h.id}
                aria-label={`${open === h.id ? 'Hide the history' : 'Delivery history'} of ${h.url}`}
                onClick={() => setOpen(open === h.id ? null : h.id)}
              >
                {open === h.id ? 'Hide history' : 'History'}
              </button>
              <button
                type="button"
                className="danger"
                onClick={async () => {
                  if (!window.confirm(`Delete the subscription to ${h.url}?`)) return;
                  try {
                    await request(session.key, 'DELETE', `/api/webhooks/${encodeURIComponent(h.id)}`);
                    load();
                  } catch (err) {
                    setError(err);
                  }
                }}
              >
                Delete
              </button>
            </div>
            {open === h.id ? <History session={session} webhook={h} /> : null}
          </div>
        ))}
      </div>
    </section>
  );
}
