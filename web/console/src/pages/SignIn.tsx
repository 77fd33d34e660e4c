import { useState } from 'react';
import { signIn, type Session } from '../api';
import { ErrorMessage } from '../components';

export function SignIn({ onSignedIn }: { onSignedIn: (s: Session) => void }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  return (
    <main className="signin">
      <form
        className="card signin-card"
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          setError(null);
          try {
            onSignedIn(await signIn(key.trim()));
          } catch (err) {
            setError(err);
          } finally {
            setBusy(false);
          }
        }}
      >
        <p className="brand big">
          <span className="brand-mark" aria-hidden="true">
            ◆
          </span>{' '}
          Invoicing
        </p>
        <h1>Sign in</h1>
        <p className="muted">
          Use your company&apos;s API key. An organization (admin) key or the operator key opens the operator pages.
        </p>
        <label htmlFor="api-key">API key</label>
        <input
          id="api-key"
          type="password"
          autoComplete="current-password"
          value={key}
          required
          onChange={(e) => setKey(e.target.value)}
        />
        <ErrorMessage error={error} />
        <button type="submit" className="primary" disabled={busy || key.trim() === ''}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <p className="muted small">The key stays in this browser tab only and is sent to this service alone.</p>
      </form>
    </main>
  );
}
