import { useCallback, useEffect, useState } from 'react';
import { type Session } from './api';
import { linkProps, navigate, usePath } from './router';
import { SignIn } from './pages/SignIn';
import { DocumentList } from './pages/DocumentList';
import { DocumentDetail } from './pages/DocumentDetail';
import { NewInvoice } from './pages/NewInvoice';
import { Webhooks } from './pages/Webhooks';
import { Operator } from './pages/Operator';
import { Home } from './pages/Home';

const STORAGE = 'invoicing-console-session';

function loadSession(): Session | null {
  try {
    const stored = sessionStorage.getItem(STORAGE);
    return stored ? (JSON.parse(stored) as Session) : null;
  } catch {
    return null;
  }
}

const TENANT_NAV = [
  { to: '/home', label: 'Home' },
  { to: '/outbox', label: 'Outbox' },
  { to: '/drafts', label: 'Drafts' },
  { to: '/inbox', label: 'Inbox' },
  { to: '/new', label: 'New invoice' },
  { to: '/webhooks', label: 'Webhooks' },
];
const ADMIN_NAV = [{ to: '/operator', label: 'Operator' }];

export function App() {
  const [session, setSession] = useState<Session | null>(loadSession);
  const [menuOpen, setMenuOpen] = useState(false);
  const path = usePath();
  // A document's page highlights the list it belongs in, the one its back link leads to.
  const [documentList, setDocumentList] = useState<string | null>(null);
  const onList = useCallback((list: string) => setDocumentList(list), []);
  useEffect(() => {
    if (!path.startsWith('/documents/')) setDocumentList(null);
  }, [path]);

  useEffect(() => {
    if (session && path === '/') navigate(session.role === 'tenant' ? '/home' : '/operator');
  }, [session, path]);
  useEffect(() => setMenuOpen(false), [path]);

  if (!session)
    return (
      <SignIn
        onSignedIn={(s) => {
          sessionStorage.setItem(STORAGE, JSON.stringify(s));
          setSession(s);
          navigate(s.role === 'tenant' ? '/home' : '/operator');
        }}
      />
    );

  const signOut = () => {
    sessionStorage.removeItem(STORAGE);
    setSession(null);
    navigate('/');
  };
  const nav = session.role === 'tenant' ? TENANT_NAV : ADMIN_NAV;
  const active = (to: string) => path === to || (to === documentList && path.startsWith('/documents/'));

  let page: React.ReactNode;
  const doc = /^\/documents\/([^/]+)$/.exec(path);
  if (session.role !== 'tenant') page = <Operator session={session} />;
  else if (path === '/home') page = <Home session={session} />;
  else if (path === '/outbox') page = <DocumentList key="outbox" session={session} kind="outbox" />;
  else if (path === '/drafts') page = <DocumentList key="drafts" session={session} kind="drafts" />;
  else if (path === '/inbox') page = <DocumentList key="inbox" session={session} kind="inbox" />;
  else if (path === '/new') page = <NewInvoice session={session} />;
  else if (path === '/webhooks') page = <Webhooks session={session} />;
  else if (doc)
    page = <DocumentDetail key={doc[1]} session={session} id={decodeURIComponent(doc[1]!)} onList={onList} />;
  else if (path === '/operator')
    page = (
      <section className="card">
        <h1>Operator</h1>
        <p>The operator pages need an organization (admin) key or the operator key. Sign out and sign in with one.</p>
      </section>
    );
  else page = <p>Loading…</p>;

  return (
    <div className="shell">
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <button
          type="button"
          className="menu-button"
          aria-expanded={menuOpen}
          aria-controls="nav"
          onClick={() => setMenuOpen((o) => !o)}
        >
          Menu
        </button>
        <span className="brand">
          <span className="brand-mark" aria-hidden="true">
            ◆
          </span>{' '}
          Invoicing
        </span>
        <span className="who" title={session.role}>
          {session.name} <span className="role">{session.role}</span>
        </span>
        <button type="button" className="link-button" onClick={signOut}>
          Sign out
        </button>
      </header>
      <nav id="nav" className={menuOpen ? 'sidenav open' : 'sidenav'} aria-label="Main">
        <ul>
          {nav.map((item) => (
            <li key={item.to}>
              <a {...linkProps(item.to)} aria-current={active(item.to) ? 'page' : undefined}>
                {item.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        {page}
      </main>
    </div>
  );
}
