import type { Decimal } from 'decimal.js';
import type { AllowanceCharge, Document, LineItem, TaxDetail } from './documentModel.js';
import { Dec, type DecimalsAsText } from './money.js';

/**
 * The document as stored in events: the same fields, every decimal as its exact string
 * (never rounded, never a float), attachments with their content. Lossless both ways.
 */
export type DocumentJson = DecimalsAsText<Document>;

const out = (x: Decimal | null): string | null => (x === null ? null : x.toFixed());
const into = (x: string | null | undefined): Decimal | null => (x === null || x === undefined ? null : new Dec(x));

const acOut = (a: AllowanceCharge): DecimalsAsText<AllowanceCharge> => ({
  ...a,
  multiplier_factor: out(a.multiplier_factor),
  amount: out(a.amount),
  base_amount: out(a.base_amount),
  tax_rate: out(a.tax_rate),
});
const acIn = (a: DecimalsAsText<AllowanceCharge>): AllowanceCharge => ({
  ...a,
  multiplier_factor: into(a.multiplier_factor),
  amount: into(a.amount),
  base_amount: into(a.base_amount),
  tax_rate: into(a.tax_rate),
});
const lineOut = (l: LineItem): DecimalsAsText<LineItem> => ({
  ...l,
  amount: out(l.amount),
  quantity: out(l.quantity),
  tax: out(l.tax),
  tax_rate: out(l.tax_rate),
  unit_price: out(l.unit_price),
  allowances: l.allowances.map(acOut),
  charges: l.charges.map(acOut),
});
/** One line of the stored JSON back in the model. */
export const lineIn = (l: DecimalsAsText<LineItem>): LineItem => ({
  ...l,
  amount: into(l.amount),
  quantity: into(l.quantity),
  tax: into(l.tax),
  tax_rate: into(l.tax_rate),
  unit_price: into(l.unit_price),
  allowances: l.allowances.map(acIn),
  charges: l.charges.map(acIn),
});
const taxOut = (t: TaxDetail): DecimalsAsText<TaxDetail> => ({
  ...t,
  amount: out(t.amount),
  rate: out(t.rate),
  taxable_amount: out(t.taxable_amount),
});
const taxIn = (t: DecimalsAsText<TaxDetail>): TaxDetail => ({
  ...t,
  amount: into(t.amount),
  rate: into(t.rate),
  taxable_amount: into(t.taxable_amount),
});

export function toDocumentJson(doc: Document): DocumentJson {
  return {
    ...doc,
    subtotal: out(doc.subtotal),
    total_discount: out(doc.total_discount),
    total_tax: out(doc.total_tax),
    invoice_total: out(doc.invoice_total),
    amount_due: out(doc.amount_due),
    previous_unpaid_balance: out(doc.previous_unpaid_balance),
    items: doc.items.map(lineOut),
    tax_details: doc.tax_details.map(taxOut),
    allowances: doc.allowances.map(acOut),
    charges: doc.charges.map(acOut),
    payment_details: doc.payment_details.map((p) => ({ ...p })),
    attachments: doc.attachments.map((a) => ({ ...a })),
  };
}

export function fromDocumentJson(json: DocumentJson): Document {
  return {
    ...json,
    subtotal: into(json.subtotal),
    total_discount: into(json.total_discount),
    total_tax: into(json.total_tax),
    invoice_total: into(json.invoice_total),
    amount_due: into(json.amount_due),
    previous_unpaid_balance: into(json.previous_unpaid_balance),
    items: json.items.map(lineIn),
    tax_details: json.tax_details.map(taxIn),
    allowances: json.allowances.map(acIn),
    charges: json.charges.map(acIn),
    payment_details: json.payment_details.map((p) => ({ ...p })),
    attachments: json.attachments.map((a) => ({ ...a })),
  };
}
