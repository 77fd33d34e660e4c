import { ApiError, type Document } from './api';

const TONES: Record<string, string> = {
  DRAFT: 'neutral',
  TRANSIT: 'info',
  SENT: 'success',
  FAILED: 'danger',
  RECEIVED: 'info',
  accepted: 'success',
  rejected: 'danger',
  sent: 'success',
  delivered: 'success',
  failed: 'danger',
  in_progress: 'info',
};

export function Chip({ value, label }: { value: string; label?: string }) {
  return <span className={`chip chip-${TONES[value] ?? 'neutral'}`}>{label ?? value.replace(/_/g, ' ')}</span>;
}

/** The document's state, and for a received one the buyer's answer once given. */
export function DocumentStatus({ doc }: { doc: Document }) {
  return (
    <span className="chips">
      <Chip value={doc.state} />
      {doc.invoice_response ? <Chip value={doc.invoice_response.status} /> : null}
    </span>
  );
}

export function ErrorMessage({ error }: { error: unknown }) {
  if (!error) return null;
  const text = error instanceof Error ? error.message : String(error);
  const status = error instanceof ApiError ? ` (${error.status})` : '';
  return (
    <div className="alert alert-error" role="alert">
      {text}
      {status}
    </div>
  );
}

export function Notice({ children }: { children: React.ReactNode }) {
  return (
    <div className="alert alert-success" role="status">
      {children}
    </div>
  );
}
