import { useCallback, useEffect, useState } from 'react';
import { date, request, type Session } from '../api';
import { Chip, ErrorMessage } from '../components';

interface Attempt {
  attempt: number;
  started_at: string;
  outcome: string;
  error: string | null;
  remote_ap: string | null;
}

interface Submission {
  report: 'tsr' | 'eusr';
  status: 'PENDING' | 'SENT' | 'FAILED';
  receiver: string;
  delivered_at: string | null;
  failure_reason: string | null;
  next_attempt_at: string | null;
  deliveries: Array<{ delivery_id: string; requested_at: string; requested_by: string | null; attempts: Attempt[] }>;
}

interface MonthStatus {
  month: string;
  prepared: { as_of: string; incoming: number; outgoing: number; end_users: number } | null;
  tsr: Submission | null;
  eusr: Submission | null;
}

const lastMonth = () => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
};

/** The operator's view of the monthly Peppol reports on their way to OpenPeppol: status, attempts, submit, send again. */
export function PeppolReports({ session }: { session: Session }) {
  const [month, setMonth] = useState(lastMonth());
  const [status, setStatus] = useState<MonthStatus | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    if (!/^\d{4}-\d{2}$/.test(month)) return;
    try {
      setStatus(
        await request<MonthStatus>(session.key, 'GET', `/api/operator/reports/peppol/submissions?month=${month}`),
      );
    } catch (e) {
      setError(e);
    }
  }, [session.key, month]);
  useEffect(() => {
    void load();
  }, [load]);

  const act = async (path: string, body?: unknown) => {
    setBusy(true);
    setError(null);
    try {
      await request(session.key, 'POST', path, body);
      await load();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="card table-card" aria-labelledby="reports-title">
      <h2 id="reports-title">Peppol reports to OpenPeppol</h2>
      <p className="muted small">
        Each month&apos;s Transaction Statistics (TSR) and End User Statistics (EUSR) reports are sent over AS4 on the
        1st of the next month, once, retried on the delivery schedule.
      </p>
      <label htmlFor="reports-month">Month</label>
      <input id="reports-month" value={month} onChange={(e) => setMonth(e.target.value.trim())} placeholder="YYYY-MM" />
      <ErrorMessage error={error} />
      {status && !status.tsr && !status.eusr ? (
        <button
          type="button"
          className="primary"
          disabled={busy}
          onClick={() => act('/api/operator/reports/peppol/submissions', { month })}
        >
          Submit {month} now
        </button>
      ) : null}
      {status ? (
        <table>
          <thead>
            <tr>
              <th scope="col">Report</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts</th>
              <th scope="col" className="hide-narrow">
                Receiver
              </th>
              <th scope="col" />
            </tr>
          </thead>
          <tbody>
            {(['tsr', 'eusr'] as const).map((report) => {
              const s = status[report];
              const attempts = s?.deliveries.flatMap((d) => d.attempts) ?? [];
              const last = attempts[attempts.length - 1];
              return (
                <tr key={report}>
                  <td>{report.toUpperCase()}</td>
                  <td>
                    {s ? (
                      <Chip value={s.status === 'PENDING' ? 'TRANSIT' : s.status} label={s.status} />
                    ) : (
                      <span className="muted">not submitted</span>
                    )}
                    {s?.delivered_at ? <div className="muted small">{date(s.delivered_at)}</div> : null}
                    {s?.failure_reason ? <div className="small">{s.failure_reason}</div> : null}
                  </td>
                  <td className="small">
                    {attempts.length}
                    {last ? ` · last ${last.outcome}${last.error ? `: ${last.error}` : ''}` : ''}
                    {s?.next_attempt_at ? ` · next ${date(s.next_attempt_at)}` : ''}
                  </td>
                  <td className="hide-narrow small">{s?.receiver ?? '—'}</td>
                  <td>
                    {s && s.status !== 'PENDING' ? (
                      <button
                        type="button"
                        disabled={busy}
                        onClick={() => act(`/api/operator/reports/peppol/submissions/${month}/${report}/resend`)}
                      >
                        Send again
                      </button>
                    ) : null}
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
