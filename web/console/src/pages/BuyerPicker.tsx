import { useState } from 'react';
import { request, type Document, type Page, type Session } from '../api';
import { ErrorMessage } from '../components';

/** The buyer's fields of the new-invoice form a pick fills in. */
export interface Buyer {
  customer_name: string;
  customer_tax_id?: string;
  customer_address?: string;
  customer_email?: string;
  customer_peppol_id?: string;
}

interface Participant {
  peppol_id: string;
  document_types: Array<{ scheme: string; value: string }>;
  entities: Array<{ name: string | null; country_code: string | null }>;
}

interface Search {
  participants: Participant[];
  directory_error?: string;
}

/** What a participant receives, in words, from its document type identifiers. */
export function capabilities(types: Participant['document_types']): string[] {
  const words = new Set<string>();
  for (const { value } of types) {
    if (/CreditNote-2::CreditNote/.test(value)) words.add('credit notes');
    else if (/Invoice-2::Invoice/.test(value)) words.add('invoices');
    else if (/ApplicationResponse/.test(value)) words.add('invoice responses');
    else if (/Order-2::Order/.test(value)) words.add('orders');
    else words.add('other documents');
  }
  return [...words];
}

/** A VAT number (two letters, then the national number): its national part is searched as an id too. */
const VAT = /^([A-Z]{2})\s*([0-9A-Z.\s]{6,})$/i;

/** The buyers of the tenant's earlier documents matching the text (drafts and sent), once each. */
async function earlierBuyers(key: string, text: string): Promise<Buyer[]> {
  const query = `receiver=${encodeURIComponent(text)}&page_size=50`;
  const pages = await Promise.all([
    request<Page<Document & { customer_email?: string | null }>>(key, 'GET', `/api/outbox/?${query}`),
    request<Page<Document & { customer_email?: string | null }>>(key, 'GET', `/api/outbox/drafts?${query}`),
  ]);
  const seen = new Map<string, Buyer>();
  for (const d of pages.flatMap((p) => p.items)) {
    if (!d.customer_name) continue;
    const id = [d.customer_name, d.customer_tax_id, d.customer_peppol_id].join('|').toLowerCase();
    if (seen.has(id)) continue;
    seen.set(id, {
      customer_name: d.customer_name,
      customer_tax_id: d.customer_tax_id ?? undefined,
      customer_address: d.customer_address ?? undefined,
      customer_email: d.customer_email ?? undefined,
      customer_peppol_id: d.customer_peppol_id ?? undefined,
    });
  }
  return [...seen.values()];
}

/** Participants of the Peppol directory (this service's registry, and the Peppol Directory where set) by name or VAT number. */
async function directory(key: string, text: string): Promise<{ found: Participant[]; error: string | null }> {
  const vat = VAT.exec(text.trim());
  const queries = [text.trim(), ...(vat ? [vat[2]!.replace(/[.\s]/g, '')] : [])];
  const answers = await Promise.all(
    queries.map((q) => request<Search>(key, 'GET', `/api/lookup/participants?query=${encodeURIComponent(q)}`)),
  );
  const found = new Map<string, Participant>();
  for (const p of answers.flatMap((a) => a.participants)) found.set(p.peppol_id.toLowerCase(), p);
  return { found: [...found.values()], error: answers.find((a) => a.directory_error)?.directory_error ?? null };
}

/** Finds a buyer among earlier documents and in the Peppol directory; a pick fills in the buyer's fields. */
export function BuyerPicker({ session, onPick }: { session: Session; onPick: (buyer: Buyer) => void }) {
  const [text, setText] = useState('');
  const [earlier, setEarlier] = useState<Buyer[] | null>(null);
  const [participants, setParticipants] = useState<Participant[] | null>(null);
  const [directoryError, setDirectoryError] = useState<string | null>(null);
  const [searched, setSearched] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const search = async () => {
    const query = text.trim();
    if (!query) return;
    setBusy(true);
    setError(null);
    try {
      const [buyers, found] = await Promise.all([earlierBuyers(session.key, query), directory(session.key, query)]);
      setEarlier(buyers);
      setParticipants(found.found);
      setDirectoryError(found.error);
      setSearched(query);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const pick = (buyer: Buyer) => {
    onPick(buyer);
    setEarlier(null);
    setParticipants(null);
  };
  const vat = VAT.exec(searched);

  return (
    <div className="buyer-picker" role="search" aria-label="Find a buyer">
      <label htmlFor="buyer-search">Find a buyer</label>
      <div className="inline-search">
        <input
          id="buyer-search"
          value={text}
          placeholder="Name or VAT number"
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              void search();
            }
          }}
        />
        <button type="button" onClick={() => void search()} disabled={busy || text.trim() === ''}>
          {busy ? 'Searching…' : 'Search'}
        </button>
      </div>
      <ErrorMessage error={error} />
      {earlier ? (
        <div className="picks" aria-label="From earlier documents" role="group">
          <h3>From earlier documents</h3>
          {earlier.length === 0 ? <p className="muted small">None of your documents went to “{searched}”.</p> : null}
          <ul>
            {earlier.map((b, i) => (
              <li key={i}>
                <button type="button" className="pick" onClick={() => pick(b)}>
                  <strong>{b.customer_name}</strong>
                  <span className="muted small">
                    {[b.customer_tax_id, b.customer_peppol_id, b.customer_address].filter(Boolean).join(' · ')}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {participants ? (
        <div className="picks" aria-label="From the Peppol directory" role="group">
          <h3>From the Peppol directory</h3>
          {directoryError ? <p className="muted small">The Peppol Directory did not answer: {directoryError}</p> : null}
          {participants.length === 0 ? <p className="muted small">No participant matches “{searched}”.</p> : null}
          <ul>
            {participants.map((p) => {
              const entity = p.entities[0];
              const receives = capabilities(p.document_types);
              return (
                <li key={p.peppol_id}>
                  <button
                    type="button"
                    className="pick"
                    onClick={() =>
                      pick({
                        customer_name: entity?.name ?? '',
                        customer_peppol_id: p.peppol_id,
                        // Searched by VAT number: that is the buyer's, as the user typed it.
                        ...(vat ? { customer_tax_id: searched.replace(/[.\s]/g, '').toUpperCase() } : {}),
                      })
                    }
                  >
                    <strong>{entity?.name ?? p.peppol_id}</strong>
                    <span className="muted small">
                      Peppol {p.peppol_id}
                      {entity?.country_code ? ` · ${entity.country_code}` : ''}
                    </span>
                    <span className="small capabilities">
                      {receives.length ? `Receives ${receives.join(', ')}` : 'Receives no documents over Peppol'}
                    </span>
                  </button>
                </li>
              );
            })}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
