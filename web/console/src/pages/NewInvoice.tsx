import { useEffect, useMemo, useRef, useState } from 'react';
import {
  ApiError,
  CURRENCIES,
  DOCUMENT_TYPES,
  money,
  request,
  type Document,
  type Session,
  type ValidationIssue,
  type ValidationResult,
} from '../api';
import { ErrorMessage } from '../components';
import { navigate } from '../router';
import { formTotals, type FormTotals } from '../totals';
import { FORM_UNITS, unitName } from '../words';
import { BuyerPicker } from './BuyerPicker';

interface Line {
  description: string;
  quantity: string;
  unit: string;
  unit_price: string;
  tax_rate: string;
}

interface Form {
  document_type: string;
  invoice_id: string;
  invoice_date: string;
  due_date: string;
  currency: string;
  purchase_order: string;
  vendor_name: string;
  vendor_tax_id: string;
  vendor_address: string;
  customer_name: string;
  customer_tax_id: string;
  customer_address: string;
  customer_email: string;
  customer_peppol_id: string;
  iban: string;
  payment_term: string;
  note: string;
  items: Line[];
}

type HeaderField = Exclude<keyof Form, 'items'>;

const today = () => new Date().toISOString().slice(0, 10);
const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
const emptyLine = (): Line => ({ description: '', quantity: '1', unit: 'C62', unit_price: '', tax_rate: '21.00' });

/** The create-request body: only what was filled in, so that the API names what is missing. */
function body(form: Form): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const header: HeaderField[] = [
    'document_type',
    'invoice_id',
    'invoice_date',
    'due_date',
    'currency',
    'purchase_order',
    'vendor_name',
    'vendor_tax_id',
    'vendor_address',
    'customer_name',
    'customer_tax_id',
    'customer_address',
    'customer_email',
    'customer_peppol_id',
    'payment_term',
    'note',
  ];
  for (const name of header) if (form[name].trim() !== '') out[name] = form[name].trim();
  if (form.iban.trim()) out.payment_details = [{ iban: form.iban.replace(/\s+/g, '') }];
  // Amounts go as the decimal text typed (the API reads numeric strings exactly; no float rounding here).
  out.items = form.items.map((l) => {
    const item: Record<string, unknown> = {};
    if (l.description.trim()) item.description = l.description.trim();
    if (l.quantity.trim()) item.quantity = l.quantity.trim();
    if (l.unit) item.unit = l.unit;
    if (l.unit_price.trim()) item.unit_price = l.unit_price.trim();
    if (l.tax_rate.trim()) item.tax_rate = l.tax_rate.trim();
    return item;
  });
  return out;
}

/** Where an issue belongs on the form: a JSON field path, or a UBL location mapped to the field it comes from. */
export function fieldOf(location: string | null, message = ''): string | null {
  if (!location) return null;
  if (!location.startsWith('/')) return location.replace(/^body\./, '');
  const line = /InvoiceLine(?:\[(\d+)\])?|CreditNoteLine(?:\[(\d+)\])?/.exec(location);
  if (line) {
    const index = Number(line[1] ?? line[2] ?? '1') - 1;
    const rest = location.slice(line.index + line[0].length);
    const field = /Price/.test(rest)
      ? 'unit_price'
      : /Quantity/.test(rest)
        ? 'quantity'
        : /ClassifiedTaxCategory/.test(rest)
          ? 'tax_rate'
          : /Item/.test(rest)
            ? 'description'
            : 'unit_price';
    return `items[${index}].${field}`;
  }
  for (const [party, prefix] of [
    ['AccountingSupplierParty', 'vendor'],
    ['AccountingCustomerParty', 'customer'],
  ] as const) {
    if (!location.includes(party)) continue;
    const about = `${location} ${message}`;
    if (/PostalAddress|address(?! \()|BG-[58]\b/i.test(about) && !/electronic address/i.test(about))
      return `${prefix}_address`;
    if (/PartyTaxScheme|CompanyID|VAT identifier|tax registration|VAT number/i.test(about)) return `${prefix}_tax_id`;
    if (/EndpointID|electronic address/i.test(about))
      return prefix === 'customer' ? 'customer_peppol_id' : 'vendor_tax_id';
    if (/RegistrationName|PartyName|\bname\b/i.test(about)) return `${prefix}_name`;
    return null;
  }
  if (/cbc:IssueDate/.test(location)) return 'invoice_date';
  if (/cbc:DueDate/.test(location)) return 'due_date';
  if (/DocumentCurrencyCode/.test(location)) return 'currency';
  if (/^\/[A-Za-z]+\/cbc:ID$/.test(location)) return 'invoice_id';
  return null;
}

/** A rule's message without the "[BR-07] " it may start with: the rule's id is shown beside it once. */
const withoutRuleId = (message: string, rule: string | null) =>
  rule ? message.replace(new RegExp(`^\\[${rule.replace(/[-.]/g, '\\$&')}\\]\\s*`), '') : message;

/** Subtotal, VAT per category and rate, total: as the service will compute them, updated as the form is filled. */
function TotalsPanel({ totals, currency }: { totals: FormTotals | null; currency: string }) {
  return (
    <section className="card totals-panel" aria-labelledby="totals-title">
      <h2 id="totals-title">Totals</h2>
      {totals ? (
        <dl className="totals">
          <div>
            <dt>Subtotal</dt>
            <dd>{money(totals.subtotal, currency)}</dd>
          </div>
          {totals.vat.map((v) => (
            <div key={`${v.category}-${v.rate}`}>
              <dt>
                VAT {v.rate === null ? `(${v.category})` : `${v.rate}%`}{' '}
                <span className="muted small">on {money(v.base, currency)}</span>
              </dt>
              <dd>{money(v.amount, currency)}</dd>
            </div>
          ))}
          <div className="grand">
            <dt>Total</dt>
            <dd>{money(totals.total, currency)}</dd>
          </div>
        </dl>
      ) : (
        <p className="muted">The totals appear once every amount can be read.</p>
      )}
    </section>
  );
}

const pathOf = (loc: Array<string | number>) =>
  loc
    .filter((part, i) => !(i === 0 && part === 'body'))
    .map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? part : `.${part}`))
    .join('');

export function NewInvoice({ session }: { session: Session }) {
  const [form, setForm] = useState<Form>({
    document_type: 'INVOICE',
    invoice_id: '',
    invoice_date: today(),
    due_date: inDays(30),
    currency: 'EUR',
    purchase_order: '',
    vendor_name: '',
    vendor_tax_id: '',
    vendor_address: '',
    customer_name: '',
    customer_tax_id: '',
    customer_address: '',
    customer_email: '',
    customer_peppol_id: '',
    iban: '',
    payment_term: 'Net 30',
    note: '',
    items: [emptyLine()],
  });
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [showAll, setShowAll] = useState(false);
  const [issues, setIssues] = useState<ValidationIssue[]>([]);
  const [valid, setValid] = useState<boolean | null>(null);
  const [ruleSet, setRuleSet] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const sequence = useRef(0);

  // The seller's own details from its account.
  useEffect(() => {
    request<{ company_name: string | null; company_tax_id: string | null }>(session.key, 'GET', '/api/me')
      .then((me) =>
        setForm((f) => ({
          ...f,
          vendor_name: f.vendor_name || me.company_name || '',
          vendor_tax_id: f.vendor_tax_id || me.company_tax_id || '',
        })),
      )
      .catch(() => undefined);
  }, [session.key]);

  // Live validation: the form is checked by POST /api/validate/json a moment after each change.
  useEffect(() => {
    const run = ++sequence.current;
    setChecking(true);
    const check = async () => {
      try {
        const result = await request<ValidationResult>(session.key, 'POST', '/api/validate/json', body(form));
        if (run !== sequence.current) return;
        setIssues(result.issues.filter((i) => i.flag === 'fatal' || i.type === 'error'));
        setValid(result.is_valid);
        setRuleSet(result.rule_set);
      } catch (e) {
        if (run !== sequence.current) return;
        if (e instanceof ApiError && Array.isArray(e.detail)) {
          setIssues(
            e.detail.map((p) => ({
              message: p.msg,
              type: 'error',
              flag: 'fatal',
              rule_id: null,
              location: pathOf(p.loc),
            })),
          );
          setValid(false);
        } else setError(e);
      } finally {
        if (run === sequence.current) setChecking(false);
      }
    };
    const timer = setTimeout(() => void check(), 350);
    return () => clearTimeout(timer);
  }, [form, session.key]);

  const byField = new Map<string, ValidationIssue[]>();
  const general: ValidationIssue[] = [];
  for (const issue of issues) {
    const field = fieldOf(issue.location, issue.message);
    if (field) byField.set(field, [...(byField.get(field) ?? []), issue]);
    else general.push(issue);
  }
  const visible = (field: string) => showAll || touched.has(field);
  const messages = (field: string) => (visible(field) ? (byField.get(field) ?? []) : []);
  const touch = (field: string) => setTouched((t) => (t.has(field) ? t : new Set(t).add(field)));
  // The rules of EN 16931 often restate a missing field the JSON check already names: they are
  // listed once the fields are complete, or when the user tries to save.
  const unplaced = byField.size === 0 || showAll ? general : [];
  const hiddenCount = [...byField.entries()].filter(([f]) => !visible(f)).reduce((n, [, i]) => n + i.length, 0);

  const totals = useMemo(() => formTotals(body(form).items as unknown[], form.currency), [form]);

  const fieldMessages = (field: string) => {
    const list = messages(field);
    if (list.length === 0) return null;
    return (
      <ul className="field-errors" id={`${field}-errors`}>
        {list.map((issue, i) => (
          <li key={i}>
            {withoutRuleId(
              issue.message.replace(new RegExp(`^${field.replace(/[[\].]/g, '\\$&')}: `), ''),
              issue.rule_id,
            )}
            {issue.rule_id ? <span className="rule"> {issue.rule_id}</span> : null}
          </li>
        ))}
      </ul>
    );
  };
  const input = (field: HeaderField, label: string, props: React.InputHTMLAttributes<HTMLInputElement> = {}) => (
    <div className={`field ${messages(field).length ? 'invalid' : ''}`}>
      <label htmlFor={`inv-${field}`}>{label}</label>
      <input
        id={`inv-${field}`}
        name={field}
        value={form[field]}
        aria-invalid={messages(field).length > 0}
        aria-describedby={messages(field).length ? `${field}-errors` : undefined}
        onChange={(e) => {
          setForm({ ...form, [field]: e.target.value });
          touch(field);
        }}
        onBlur={() => touch(field)}
        {...props}
      />
      {fieldMessages(field)}
    </div>
  );
  const lineInput = (
    index: number,
    field: keyof Line,
    label: string,
    props: React.InputHTMLAttributes<HTMLInputElement> = {},
  ) => {
    const path = `items[${index}].${field}`;
    return (
      <div className={`field ${messages(path).length ? 'invalid' : ''}`}>
        <label htmlFor={`line-${index}-${field}`}>{label}</label>
        <input
          id={`line-${index}-${field}`}
          value={form.items[index]![field]}
          aria-invalid={messages(path).length > 0}
          aria-describedby={messages(path).length ? `${path}-errors` : undefined}
          onChange={(e) => {
            const items = form.items.map((l, i) => (i === index ? { ...l, [field]: e.target.value } : l));
            setForm({ ...form, items });
            touch(path);
          }}
          onBlur={() => touch(path)}
          {...props}
        />
        {fieldMessages(path)}
      </div>
    );
  };

  const create = async (send: boolean) => {
    setShowAll(true);
    setError(null);
    if (valid === false) return;
    setBusy(true);
    try {
      const doc = await request<Document>(session.key, 'POST', '/api/documents/', body(form));
      if (send) await request(session.key, 'POST', `/api/documents/${encodeURIComponent(doc.id)}/send`);
      navigate(`/documents/${doc.id}`);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  const lineTotal = (index: number) =>
    form.items[index]!.unit_price.trim() === '' ? '—' : money(totals?.lines[index], form.currency);

  return (
    <section aria-labelledby="new-title">
      <div className="page-head">
        <div>
          <h1 id="new-title">New invoice</h1>
          <p className="muted">
            Every rule of EN 16931 and Peppol is checked as you type; messages appear next to their field.
            {ruleSet ? <> Rules in force: {ruleSet}.</> : null}
          </p>
        </div>
        <div className="validity" role="status" aria-live="polite">
          {checking ? (
            <span className="chip chip-neutral">Checking…</span>
          ) : valid ? (
            <span className="chip chip-success">Ready to send</span>
          ) : valid === false ? (
            <span className="chip chip-danger">
              {issues.length} issue{issues.length === 1 ? '' : 's'} to fix
            </span>
          ) : null}
        </div>
      </div>
      <ErrorMessage error={error} />
      <form
        className="invoice-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void create(false);
        }}
      >
        <fieldset className="card">
          <legend>Document</legend>
          <div className="grid">
            <div className="field">
              <label htmlFor="inv-document_type">Type</label>
              <select
                id="inv-document_type"
                value={form.document_type}
                onChange={(e) => setForm({ ...form, document_type: e.target.value })}
              >
                {DOCUMENT_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {t.replace(/_/g, ' ').toLowerCase()}
                  </option>
                ))}
              </select>
            </div>
            {input('invoice_id', 'Invoice number')}
            {input('invoice_date', 'Issue date', { type: 'date' })}
            {input('due_date', 'Due date', { type: 'date' })}
            <div className={`field ${messages('currency').length ? 'invalid' : ''}`}>
              <label htmlFor="inv-currency">Currency</label>
              <select
                id="inv-currency"
                value={form.currency}
                onChange={(e) => setForm({ ...form, currency: e.target.value })}
              >
                {CURRENCIES.map((c) => (
                  <option key={c}>{c}</option>
                ))}
              </select>
              {fieldMessages('currency')}
            </div>
            {input('purchase_order', 'Purchase order')}
          </div>
        </fieldset>
        <div className="two">
          <fieldset className="card">
            <legend>From (you)</legend>
            {input('vendor_name', 'Company name', { autoComplete: 'organization' })}
            {input('vendor_tax_id', 'VAT number', { placeholder: 'BE0123456749' })}
            {input('vendor_address', 'Address', { placeholder: 'Street 1, 1000 City, Country' })}
            {input('iban', 'IBAN for payment')}
          </fieldset>
          <fieldset className="card">
            <legend>To (customer)</legend>
            <BuyerPicker
              session={session}
              onPick={(buyer) => {
                setForm((f) => ({
                  ...f,
                  customer_name: buyer.customer_name,
                  customer_tax_id: buyer.customer_tax_id ?? f.customer_tax_id,
                  customer_address: buyer.customer_address ?? f.customer_address,
                  customer_email: buyer.customer_email ?? f.customer_email,
                  customer_peppol_id: buyer.customer_peppol_id ?? f.customer_peppol_id,
                }));
                for (const field of Object.keys(buyer)) touch(field);
              }}
            />
            {input('customer_name', 'Company name')}
            {input('customer_tax_id', 'VAT number', { placeholder: 'BE0123456749' })}
            {input('customer_address', 'Address')}
            {input('customer_email', 'E-mail', { type: 'email' })}
            {input('customer_peppol_id', 'Peppol id (optional)', { placeholder: '0208:0123456749' })}
          </fieldset>
        </div>
        <fieldset className="card">
          <legend>Lines</legend>
          {form.items.map((line, index) => (
            <div className="line" key={index} role="group" aria-label={`Line ${index + 1}`}>
              <div className="line-desc">{lineInput(index, 'description', 'Description')}</div>
              {lineInput(index, 'quantity', 'Quantity', { inputMode: 'decimal' })}
              <div className="field">
                <label htmlFor={`line-${index}-unit`}>Unit</label>
                <select
                  id={`line-${index}-unit`}
                  value={line.unit}
                  onChange={(e) =>
                    setForm({
                      ...form,
                      items: form.items.map((l, i) => (i === index ? { ...l, unit: e.target.value } : l)),
                    })
                  }
                >
                  {FORM_UNITS.map((code) => (
                    <option key={code} value={code}>
                      {unitName(code)}
                    </option>
                  ))}
                </select>
              </div>
              {lineInput(index, 'unit_price', 'Unit price', { inputMode: 'decimal' })}
              {lineInput(index, 'tax_rate', 'VAT %', { inputMode: 'decimal' })}
              <div className="field line-total">
                <span className="label">Amount</span>
                <span>{lineTotal(index)}</span>
              </div>
              {form.items.length > 1 ? (
                <button
                  type="button"
                  className="link-button"
                  aria-label={`Remove line ${index + 1}`}
                  onClick={() => setForm({ ...form, items: form.items.filter((_, i) => i !== index) })}
                >
                  Remove
                </button>
              ) : null}
            </div>
          ))}
          <button type="button" onClick={() => setForm({ ...form, items: [...form.items, emptyLine()] })}>
            Add line
          </button>
        </fieldset>
        <fieldset className="card">
          <legend>Terms</legend>
          <div className="two">
            {input('payment_term', 'Payment terms')}
            {input('note', 'Note')}
          </div>
        </fieldset>
        <TotalsPanel totals={totals} currency={form.currency} />
        {unplaced.length > 0 ? (
          <div className="alert alert-error" role="alert">
            <strong>Also to fix:</strong>
            <ul>
              {unplaced.map((issue, i) => (
                <li key={i}>
                  {withoutRuleId(issue.message, issue.rule_id)}
                  {issue.rule_id ? <span className="rule"> {issue.rule_id}</span> : null}
                </li>
              ))}
            </ul>
          </div>
        ) : hiddenCount > 0 && !showAll ? (
          <p className="muted">{hiddenCount} more to fix in fields you have not reached yet.</p>
        ) : null}
        <div className="form-actions">
          <button type="submit" disabled={busy}>
            Save draft
          </button>
          <button type="button" className="primary" disabled={busy} onClick={() => void create(true)}>
            Save and send
          </button>
        </div>
      </form>
      <Upload session={session} />
    </section>
  );
}

/** Creates a draft from a UBL XML or a PDF file. */
function Upload({ session }: { session: Session }) {
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  return (
    <form
      className="card upload"
      aria-labelledby="upload-title"
      onSubmit={async (e) => {
        e.preventDefault();
        if (!file) return;
        setBusy(true);
        setError(null);
        try {
          let doc: { id?: string | null };
          if (/\.pdf$/i.test(file.name) || file.type === 'application/pdf') {
            const data = new FormData();
            data.append('file', file, file.name);
            doc = await request(session.key, 'POST', '/api/documents/pdf', undefined, { raw: data });
          } else {
            doc = await request(session.key, 'POST', '/api/documents/ubl', undefined, {
              raw: file,
              contentType: 'application/xml',
            });
          }
          if (doc.id) navigate(`/documents/${doc.id}`);
          else setError(new Error('Nothing could be read from this file.'));
        } catch (err) {
          setError(err);
        } finally {
          setBusy(false);
        }
      }}
    >
      <h2 id="upload-title">Or upload a file</h2>
      <p className="muted">A UBL invoice (XML) or a PDF invoice becomes a draft you can check and send.</p>
      <label htmlFor="upload-file">UBL or PDF file</label>
      <input
        id="upload-file"
        type="file"
        accept=".xml,.pdf,application/xml,application/pdf"
        onChange={(e) => setFile(e.target.files?.[0] ?? null)}
      />
      <ErrorMessage error={error} />
      <button type="submit" disabled={!file || busy}>
        {busy ? 'Uploading…' : 'Upload'}
      </button>
    </form>
  );
}
