import { useCallback, useEffect, useState } from 'react';
import { date, hasEndpoint, request, type Session } from '../api';
import { Chip, ErrorMessage, Notice } from '../components';
import { PeppolReports } from './PeppolReports';

interface Tenant {
  id: string;
  name: string;
  description: string | null;
  company_number?: string | null;
  company_tax_id?: string | null;
  peppol_ids?: string[];
  test_mode?: boolean;
  created_at: string;
  is_deleted?: boolean;
}

interface PeppolStatus {
  registered: boolean;
  peppol_id: string | null;
  status: string | null;
  registered_at: string | null;
}

interface Organization {
  id: string;
  name: string;
  created_at: string;
  tenants?: Array<{ id: string; name: string }>;
  tenant_count?: number;
  usage?: Record<string, unknown>;
}

export function Operator({ session }: { session: Session }) {
  return session.role === 'operator' ? <OperatorHome session={session} /> : <Organization session={session} />;
}

/** The operator: organizations (resellers), and any tenant's test mode. */
function OperatorHome({ session }: { session: Session }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const [orgs, setOrgs] = useState<Organization[] | null>(null);
  const [tenantId, setTenantId] = useState('');
  const [tenant, setTenant] = useState<Tenant | null>(null);
  const [email, setEmail] = useState('');

  const loadOrgs = useCallback(async () => {
    if (!(await hasEndpoint('get', '/api/operator/organizations'))) return;
    try {
      const page = await request<{ items?: Organization[]; organizations?: Organization[] } | Organization[]>(
        session.key,
        'GET',
        '/api/operator/organizations?page_size=100',
      );
      setOrgs(Array.isArray(page) ? page : (page.items ?? page.organizations ?? []));
    } catch (e) {
      setError(e);
    }
  }, [session.key]);
  useEffect(() => {
    void loadOrgs();
  }, [loadOrgs]);

  return (
    <section aria-labelledby="op-title">
      <div className="page-head">
        <div>
          <h1 id="op-title">Operator</h1>
          <p className="muted">Reseller organizations, and test mode of any tenant.</p>
        </div>
      </div>
      <ErrorMessage error={error} />
      {created ? (
        <Notice>
          Organization {created.name} created. Its admin key (shown only now):{' '}
          <code className="break">{created.key}</code>
        </Notice>
      ) : null}
      <div className="two">
        <form
          className="card"
          aria-labelledby="org-new"
          onSubmit={async (e) => {
            e.preventDefault();
            setError(null);
            try {
              const org = await request<{ name: string; admin_key: { key: string } }>(
                session.key,
                'POST',
                '/api/operator/organizations',
                {
                  name: name.trim(),
                },
              );
              setCreated({ name: org.name, key: org.admin_key.key });
              setName('');
              void loadOrgs();
            } catch (err) {
              setError(err);
            }
          }}
        >
          <h2 id="org-new">New organization</h2>
          <label htmlFor="org-name">Name</label>
          <input id="org-name" value={name} required onChange={(e) => setName(e.target.value)} />
          <button type="submit" className="primary" disabled={name.trim() === ''}>
            Create organization
          </button>
        </form>
        <form
          className="card"
          aria-labelledby="tm-title"
          onSubmit={async (e) => {
            e.preventDefault();
            setError(null);
            try {
              const t = await request<Tenant & { test_mode_email?: string | null }>(
                session.key,
                'GET',
                `/api/operator/tenants/${encodeURIComponent(tenantId.trim())}`,
              );
              setTenant(t);
              setEmail(t.test_mode_email ?? '');
            } catch (err) {
              setTenant(null);
              setError(err);
            }
          }}
        >
          <h2 id="tm-title">Test mode</h2>
          <label htmlFor="tm-tenant">Tenant id</label>
          <input id="tm-tenant" value={tenantId} required onChange={(e) => setTenantId(e.target.value)} />
          <button type="submit">Look up</button>
          {tenant ? (
            <div className="stack">
              <p>
                <strong>{tenant.name}</strong>{' '}
                <Chip
                  value={tenant.test_mode ? 'TRANSIT' : 'SENT'}
                  label={tenant.test_mode ? 'test mode on' : 'live'}
                />
              </p>
              <label htmlFor="tm-email">Test-mode e-mail address</label>
              <input id="tm-email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
              <button
                type="button"
                onClick={async () => {
                  setError(null);
                  try {
                    setTenant(
                      await request<Tenant>(
                        session.key,
                        'PUT',
                        `/api/operator/tenants/${encodeURIComponent(tenant.id)}/test-mode`,
                        {
                          test_mode: !tenant.test_mode,
                          ...(email.trim() ? { email: email.trim() } : {}),
                        },
                      ),
                    );
                  } catch (err) {
                    setError(err);
                  }
                }}
              >
                {tenant.test_mode ? 'Turn test mode off' : 'Turn test mode on'}
              </button>
            </div>
          ) : null}
        </form>
      </div>
      {orgs ? (
        <div className="card table-card">
          <h2>Organizations</h2>
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Tenants</th>
                <th scope="col" className="hide-narrow">
                  Usage
                </th>
                <th scope="col" className="hide-narrow">
                  Created
                </th>
              </tr>
            </thead>
            <tbody>
              {orgs.map((o) => (
                <tr key={o.id}>
                  <td>
                    {o.name}
                    <div className="muted small">{o.id}</div>
                  </td>
                  <td>{o.tenant_count ?? o.tenants?.length ?? '—'}</td>
                  <td className="hide-narrow small">
                    {o.usage
                      ? Object.entries(o.usage)
                          .map(([k, v]) => `${k.replace(/_/g, ' ')}: ${String(v)}`)
                          .join(' · ')
                      : '—'}
                  </td>
                  <td className="hide-narrow">{date(o.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <PeppolReports session={session} />
    </section>
  );
}

/** A reseller organization: its tenants, their API keys and their Peppol registration. */
function Organization({ session }: { session: Session }) {
  const [tenants, setTenants] = useState<Tenant[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [form, setForm] = useState({
    name: '',
    description: '',
    company_number: '',
    company_tax_id: '',
    peppol_id: '',
  });
  const [open, setOpen] = useState<string | null>(null);

  const load = useCallback(() => {
    request<{ tenants: Tenant[]; total: number }>(session.key, 'GET', '/api/admin/tenants?limit=1000')
      .then((r) => setTenants(r.tenants.filter((t) => !t.is_deleted)))
      .catch(setError);
  }, [session.key]);
  useEffect(load, [load]);

  const set = (name: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setForm({ ...form, [name]: e.target.value });
  return (
    <section aria-labelledby="org-title">
      <div className="page-head">
        <div>
          <h1 id="org-title">Operator</h1>
          <p className="muted">Your customer companies (tenants), their API keys and their Peppol registration.</p>
        </div>
      </div>
      <ErrorMessage error={error} />
      <form
        className="card"
        aria-labelledby="tenant-new"
        onSubmit={async (e) => {
          e.preventDefault();
          setError(null);
          try {
            const body: Record<string, unknown> = { name: form.name.trim() };
            for (const f of ['description', 'company_number', 'company_tax_id'] as const)
              if (form[f].trim()) body[f] = form[f].trim();
            if (form.peppol_id.trim()) body.peppol_ids = [form.peppol_id.trim()];
            await request(session.key, 'POST', '/api/admin/tenants', body);
            setForm({ name: '', description: '', company_number: '', company_tax_id: '', peppol_id: '' });
            load();
          } catch (err) {
            setError(err);
          }
        }}
      >
        <h2 id="tenant-new">New tenant</h2>
        <div className="grid">
          <div className="field">
            <label htmlFor="t-name">Name (lowercase, no spaces)</label>
            <input id="t-name" value={form.name} required onChange={set('name')} />
          </div>
          <div className="field">
            <label htmlFor="t-desc">Description</label>
            <input id="t-desc" value={form.description} onChange={set('description')} />
          </div>
          <div className="field">
            <label htmlFor="t-number">Company number</label>
            <input id="t-number" value={form.company_number} onChange={set('company_number')} />
          </div>
          <div className="field">
            <label htmlFor="t-tax">VAT number</label>
            <input id="t-tax" value={form.company_tax_id} onChange={set('company_tax_id')} />
          </div>
          <div className="field">
            <label htmlFor="t-peppol">Peppol id</label>
            <input id="t-peppol" value={form.peppol_id} placeholder="0208:0123456749" onChange={set('peppol_id')} />
          </div>
        </div>
        <button type="submit" className="primary" disabled={form.name.trim() === ''}>
          Create tenant
        </button>
      </form>
      <div className="stack">
        {tenants?.length === 0 ? <p className="muted">No tenants yet.</p> : null}
        {tenants?.map((t) => (
          <div className="card" key={t.id}>
            <div className="row">
              <div className="grow">
                <strong>{t.name}</strong> {t.test_mode ? <Chip value="TRANSIT" label="test mode" /> : null}
                <div className="muted small">
                  {t.description ?? ''} {t.peppol_ids?.length ? `· ${t.peppol_ids.join(', ')}` : ''} · created{' '}
                  {date(t.created_at)}
                </div>
              </div>
              <button type="button" aria-expanded={open === t.id} onClick={() => setOpen(open === t.id ? null : t.id)}>
                {open === t.id ? 'Close' : 'Manage'}
              </button>
            </div>
            {open === t.id ? <TenantPanel session={session} tenant={t} /> : null}
          </div>
        ))}
      </div>
    </section>
  );
}

function TenantPanel({ session, tenant }: { session: Session; tenant: Tenant }) {
  const base = `/api/admin/tenants/${encodeURIComponent(tenant.id)}`;
  const [status, setStatus] = useState<PeppolStatus | null>(null);
  const [keyName, setKeyName] = useState('');
  const [newKey, setNewKey] = useState<string | null>(null);
  const [peppolId, setPeppolId] = useState(tenant.peppol_ids?.[0] ?? '');
  const [companyName, setCompanyName] = useState('');
  const [error, setError] = useState<unknown>(null);

  const load = useCallback(() => {
    request<PeppolStatus>(session.key, 'GET', `${base}/peppol/status`).then(setStatus).catch(setError);
  }, [session.key, base]);
  useEffect(load, [load]);
  // The list leaves the registration numbers out: the tenant itself names the Peppol id to register.
  useEffect(() => {
    request<Tenant>(session.key, 'GET', base)
      .then((t) => setPeppolId((current) => current || t.peppol_ids?.[0] || ''))
      .catch(setError);
  }, [session.key, base]);

  const run = async (f: () => Promise<void>) => {
    setError(null);
    try {
      await f();
    } catch (e) {
      setError(e);
    }
  };

  return (
    <div className="two panel">
      <form
        aria-labelledby={`keys-${tenant.id}`}
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            const k = await request<{ key: string }>(session.key, 'POST', `${base}/api-keys`, { name: keyName.trim() });
            setNewKey(k.key);
            setKeyName('');
          });
        }}
      >
        <h3 id={`keys-${tenant.id}`}>API keys</h3>
        <label htmlFor={`key-${tenant.id}`}>New key name</label>
        <input id={`key-${tenant.id}`} value={keyName} required onChange={(e) => setKeyName(e.target.value)} />
        <button type="submit" disabled={keyName.trim() === ''}>
          Create key
        </button>
        {newKey ? (
          <Notice>
            New key (shown only now): <code className="break">{newKey}</code>
          </Notice>
        ) : null}
      </form>
      <form
        aria-labelledby={`peppol-${tenant.id}`}
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            await request(session.key, 'POST', `${base}/peppol/register`, {
              peppol_id: peppolId.trim(),
              ...(companyName.trim() ? { company_name: companyName.trim() } : {}),
            });
            load();
          });
        }}
      >
        <h3 id={`peppol-${tenant.id}`}>Peppol registration</h3>
        <p>
          {status ? (
            status.registered ? (
              <>
                <Chip value="SENT" label={status.status ?? 'registered'} /> {status.peppol_id} since{' '}
                {date(status.registered_at)}
              </>
            ) : (
              <Chip value="DRAFT" label="not registered" />
            )
          ) : (
            '…'
          )}
        </p>
        <label htmlFor={`pid-${tenant.id}`}>Peppol id</label>
        <input id={`pid-${tenant.id}`} value={peppolId} required onChange={(e) => setPeppolId(e.target.value)} />
        <label htmlFor={`pname-${tenant.id}`}>Company name (optional)</label>
        <input id={`pname-${tenant.id}`} value={companyName} onChange={(e) => setCompanyName(e.target.value)} />
        <div className="row">
          <button type="submit" className="primary" disabled={peppolId.trim() === ''}>
            Register
          </button>
          {status?.registered ? (
            <button
              type="button"
              className="danger"
              onClick={() =>
                void run(async () => {
                  await request(session.key, 'POST', `${base}/peppol/unregister`);
                  load();
                })
              }
            >
              Unregister
            </button>
          ) : null}
        </div>
      </form>
      <ErrorMessage error={error} />
    </div>
  );
}
