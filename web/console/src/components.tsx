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
  blocked: 'danger',
};

export function Chip({ value, label, title }: { value: string; label?: string; title?: string }) {
  return (
    <span className={`chip chip-${TONES[value] ?? 'neutral'}`} title={title}>
      {label ?? value.replace(/_/g, ' ')}
    </span>
  );
}

/**
 * The document's state; for a received one the buyer's answer once given; for a draft this
 * tenant may not send (another issuer), that it cannot be sent and why.
 */
export function DocumentStatus({ doc }: { doc: Document }) {
  return (
    <span className="chips">
      <Chip value={doc.state} />
      {doc.invoice_response ? <Chip value={doc.invoice_response.status} /> : null}
      {doc.send_blocked ? <Chip value="blocked" label="Cannot be sent" title={doc.send_blocked.message} /> : null}
    </span>
  );
}

/** Why the tenant cannot send a document, said before Send is pressed. */
export function SendBlockedNotice({ blocked, id }: { blocked: NonNullable<Document['send_blocked']>; id?: string }) {
  return (
    <div className="alert alert-error" role="note" id={id}>
      <strong>This document cannot be sent from this account.</strong> {blocked.message}.
      {blocked.allowed_ids.length === 0 ? null : (
        <>
          {' '}
          Upload or create it with {blocked.allowed_ids.length === 1 ? 'that id' : 'one of those ids'} as the{' '}
          {blocked.field === 'customer_peppol_id' ? "buyer's (self-billing)" : "seller's"} electronic address.
        </>
      )}
    </div>
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
