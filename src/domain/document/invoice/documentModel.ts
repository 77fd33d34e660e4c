import type { Decimal } from 'decimal.js';
import type { Currency, TaxCode, UnitCode, VatexCode } from './codeLists.js';
import { money, plain, rateText, type DecimalsAsText } from './money.js';
import { assertNever } from '../../decider.js';

export type { Currency, TaxCode, UnitCode, VatexCode } from './codeLists.js';

export const DOCUMENT_TYPES = [
  'INVOICE',
  'CREDIT_NOTE',
  'DEBIT_NOTE',
  'SELFBILLING_INVOICE',
  'SELFBILLING_CREDIT_NOTE',
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export const DOCUMENT_STATES = ['DRAFT', 'TRANSIT', 'FAILED', 'SENT', 'RECEIVED'] as const;
export type DocumentState = (typeof DOCUMENT_STATES)[number];

/** The fields a list of documents can be sorted by (`sort_by`). */
export const SORT_FIELDS = [
  'created_at',
  'invoice_date',
  'due_date',
  'invoice_total',
  'customer_name',
  'vendor_name',
  'invoice_id',
] as const;
export type SortField = (typeof SORT_FIELDS)[number];

export const DIRECTIONS = ['OUTBOUND', 'INBOUND'] as const;
export type Direction = (typeof DIRECTIONS)[number];

/** Whether the UBL root is a CreditNote: the amounts stay positive, the document reduces the original. */
export const isCreditNote = (type: DocumentType): boolean => {
  switch (type) {
    case 'CREDIT_NOTE':
    case 'SELFBILLING_CREDIT_NOTE':
      return true;
    case 'INVOICE':
    case 'DEBIT_NOTE':
    case 'SELFBILLING_INVOICE':
      return false;
    default:
      return assertNever(type);
  }
};

export const isSelfBilling = (type: DocumentType): boolean =>
  type === 'SELFBILLING_INVOICE' || type === 'SELFBILLING_CREDIT_NOTE';

/** Allowance (discount) or charge, at document or line level. Document-level ones carry a VAT category. */
export interface AllowanceCharge {
  reason: string | null;
  reason_code: string | null;
  /** Percentage applied to base_amount (e.g. 10 for 10%). */
  multiplier_factor: Decimal | null;
  amount: Decimal | null;
  base_amount: Decimal | null;
  tax_rate: Decimal | null;
  tax_code: TaxCode | null;
}

export interface LineItem {
  /** Line net amount (BT-131): quantity x unit_price - line allowances + line charges. */
  amount: Decimal | null;
  date: string | null;
  description: string | null;
  quantity: Decimal | null;
  product_code: string | null;
  /** VAT amount of the line, informational (EN 16931 computes VAT on the breakdown, not per line). */
  tax: Decimal | null;
  /** Percentage, e.g. 21.00. Null for category O (no rate exists). */
  tax_rate: Decimal | null;
  /**
   * VAT category of the line. Not a field of the public create shape (there the document tax_code
   * applies to all lines); we keep it so documents read from UBL with mixed categories survive a
   * round trip. Null means "the document tax_code".
   */
  tax_code: TaxCode | null;
  unit: UnitCode | null;
  unit_price: Decimal | null;
  allowances: AllowanceCharge[];
  charges: AllowanceCharge[];
}

export interface PaymentDetail {
  iban: string | null;
  swift: string | null;
  bank_account_number: string | null;
  payment_reference: string | null;
  /**
   * UNCL 4461 payment means code. Not in the public shape: normally derived (58 SEPA, 30 other
   * transfers); kept when a received document used another one (e.g. Danish 31), so it survives.
   */
  payment_means_code: string | null;
  /** Direct debit (49/59) mandate reference (BT-89); the account is then the payer's (BT-91). Not in the public shape. */
  mandate_reference: string | null;
}

/** One VAT breakdown entry (BG-23). tax_code and taxable_amount are ours: the public shape only has amount and rate. */
export interface TaxDetail {
  amount: Decimal | null;
  rate: Decimal | null;
  tax_code: TaxCode | null;
  taxable_amount: Decimal | null;
}

export interface Attachment {
  id: string | null;
  file_name: string;
  /** Media type, e.g. application/pdf. */
  file_type: string | null;
  file_size: number | null;
  /** Base64 content. */
  file_data: string | null;
  file_url: string | null;
}

export interface Document {
  document_type: DocumentType;
  state: DocumentState;
  direction: Direction;

  invoice_id: string | null;
  invoice_date: string | null;
  due_date: string | null;
  note: string | null;
  /** Purchase-order reference; for credit notes the number of the invoice being credited. */
  purchase_order: string | null;
  payment_term: string | null;
  currency: Currency;

  vendor_name: string | null;
  vendor_email: string | null;
  vendor_tax_id: string | null;
  vendor_company_id: string | null;
  /** Sender participant id `<scheme>:<id>`; not in the public create shape, derived from the tax id when absent. */
  vendor_peppol_id: string | null;
  vendor_address: string | null;
  vendor_address_recipient: string | null;

  customer_name: string | null;
  customer_id: string | null;
  customer_email: string | null;
  customer_tax_id: string | null;
  customer_company_id: string | null;
  customer_peppol_id: string | null;
  customer_address: string | null;
  customer_address_recipient: string | null;

  billing_address: string | null;
  billing_address_recipient: string | null;
  shipping_address: string | null;
  shipping_address_recipient: string | null;
  remittance_address: string | null;
  remittance_address_recipient: string | null;
  service_address: string | null;
  service_address_recipient: string | null;

  service_start_date: string | null;
  service_end_date: string | null;

  tax_code: TaxCode;
  vatex: VatexCode | null;
  vatex_note: string | null;

  /** BT-109: lines - document allowances + document charges. */
  subtotal: Decimal | null;
  /** Non-VAT charges minus non-VAT allowances; EN 16931 has none, so it is 0 on every document we produce. */
  total_discount: Decimal | null;
  /** BT-110. */
  total_tax: Decimal | null;
  /** BT-112: subtotal + total_tax + total_discount. */
  invoice_total: Decimal | null;
  /** BT-115. */
  amount_due: Decimal | null;
  /** Request only: added to the amount due (written as a negative prepaid amount, BT-113). */
  previous_unpaid_balance: Decimal | null;

  payment_details: PaymentDetail[];
  tax_details: TaxDetail[];
  items: LineItem[];
  attachments: Attachment[];
  allowances: AllowanceCharge[];
  charges: AllowanceCharge[];
}

export const emptyLineItem = (): LineItem => ({
  amount: null,
  date: null,
  description: null,
  quantity: null,
  product_code: null,
  tax: null,
  tax_rate: null,
  tax_code: null,
  unit: null,
  unit_price: null,
  allowances: [],
  charges: [],
});

export const emptyDocument = (): Document => ({
  document_type: 'INVOICE',
  state: 'DRAFT',
  direction: 'OUTBOUND',
  invoice_id: null,
  invoice_date: null,
  due_date: null,
  note: null,
  purchase_order: null,
  payment_term: null,
  currency: 'EUR',
  vendor_name: null,
  vendor_email: null,
  vendor_tax_id: null,
  vendor_company_id: null,
  vendor_peppol_id: null,
  vendor_address: null,
  vendor_address_recipient: null,
  customer_name: null,
  customer_id: null,
  customer_email: null,
  customer_tax_id: null,
  customer_company_id: null,
  customer_peppol_id: null,
  customer_address: null,
  customer_address_recipient: null,
  billing_address: null,
  billing_address_recipient: null,
  shipping_address: null,
  shipping_address_recipient: null,
  remittance_address: null,
  remittance_address_recipient: null,
  service_address: null,
  service_address_recipient: null,
  service_start_date: null,
  service_end_date: null,
  tax_code: 'S',
  vatex: null,
  vatex_note: null,
  subtotal: null,
  total_discount: null,
  total_tax: null,
  invoice_total: null,
  amount_due: null,
  previous_unpaid_balance: null,
  payment_details: [],
  tax_details: [],
  items: [],
  attachments: [],
  allowances: [],
  charges: [],
});

// ---------------------------------------------------------------------------------------------
// The API's answer: the model with every amount a string (spec, "Resources and their fields"),
// amounts formatted to two decimals; attachments listed without their content, and the request-only
// previous_unpaid_balance left out. Types derived from the model, so the answer cannot drift from it.

export type AllowanceChargeResponse = DecimalsAsText<AllowanceCharge>;
export type LineItemResponse = DecimalsAsText<LineItem>;
export type TaxDetailResponse = DecimalsAsText<TaxDetail>;
export type AttachmentResponse = Omit<Attachment, 'file_data'>;
export type DocumentResponse = Omit<DecimalsAsText<Document>, 'previous_unpaid_balance' | 'attachments'> & {
  id?: string;
  created_at?: string;
  attachments: AttachmentResponse[];
};

const m = (x: Decimal | null): string | null => (x === null ? null : money(x));
const p = (x: Decimal | null): string | null => (x === null ? null : plain(x));
const r = (x: Decimal | null): string | null => (x === null ? null : rateText(x));

const allowanceChargeResponse = (a: AllowanceCharge): AllowanceChargeResponse => ({
  reason: a.reason,
  reason_code: a.reason_code,
  multiplier_factor: p(a.multiplier_factor),
  amount: m(a.amount),
  base_amount: m(a.base_amount),
  tax_rate: r(a.tax_rate),
  tax_code: a.tax_code,
});

export const lineItemResponse = (l: LineItem): LineItemResponse => ({
  amount: m(l.amount),
  date: l.date,
  description: l.description,
  quantity: p(l.quantity),
  product_code: l.product_code,
  tax: m(l.tax),
  tax_rate: r(l.tax_rate),
  tax_code: l.tax_code,
  unit: l.unit,
  unit_price: p(l.unit_price),
  allowances: l.allowances.map(allowanceChargeResponse),
  charges: l.charges.map(allowanceChargeResponse),
});

/** The response shape of a document (spec: "on responses every amount is a string"). */
export const toResponse = (doc: Document, meta: { id?: string; created_at?: string } = {}): DocumentResponse => {
  const { previous_unpaid_balance: _requestOnly, ...rest } = doc;
  return {
    ...meta,
    ...rest,
    subtotal: m(doc.subtotal),
    total_discount: m(doc.total_discount),
    total_tax: m(doc.total_tax),
    invoice_total: m(doc.invoice_total),
    amount_due: m(doc.amount_due),
    items: doc.items.map(lineItemResponse),
    tax_details: doc.tax_details.map((t) => ({
      amount: m(t.amount),
      rate: r(t.rate),
      tax_code: t.tax_code,
      taxable_amount: m(t.taxable_amount),
    })),
    allowances: doc.allowances.map(allowanceChargeResponse),
    charges: doc.charges.map(allowanceChargeResponse),
    payment_details: doc.payment_details.map((d) => ({ ...d })),
    // Attachment content is served separately (file_url); the response lists metadata only.
    attachments: doc.attachments.map((a) => ({
      id: a.id,
      file_name: a.file_name,
      file_type: a.file_type,
      file_size: a.file_size,
      file_url: a.file_url,
    })),
  };
};
