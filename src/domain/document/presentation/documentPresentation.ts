import type { Decimal } from 'decimal.js';
import type { TaxCode } from '../invoice/codeLists.js';
import { isCreditNote, isSelfBilling } from '../invoice/documentModel.js';
import type { AllowanceCharge, Document, DocumentType } from '../invoice/documentModel.js';
import { completeDocument } from '../invoice/documentTotals.js';
import { Dec, money, plain } from '../invoice/money.js';
import { compactId } from '../invoice/vatNumber.js';
import { ownEntry } from '../../ownEntry.js';

/*
 * What a human-readable rendering of a document shows, as text: every amount already formatted
 * from its decimal (never a float), every label chosen. The PDF renderer only lays this out, and
 * the PDF reader recognises the same labels, so both directions agree on one vocabulary.
 */

export interface LabelledValue {
  label: string;
  value: string;
}

export interface PresentedParty {
  heading: string;
  name: string;
  addressLines: string[];
  /** VAT number, company id, Peppol id, customer id, contact, e-mail, in that order. */
  details: LabelledValue[];
}

export interface PresentedAddress {
  heading: string;
  recipient: string | null;
  lines: string[];
}

export interface PresentedLine {
  number: string;
  description: string;
  /** Product code, line allowances and charges, each one "Label: text". */
  details: string[];
  quantity: string;
  unit: string;
  unitPrice: string;
  vat: string;
  amount: string;
}

export interface PresentedAllowanceCharge {
  kind: string;
  reason: string;
  vat: string;
  amount: string;
}

export interface PresentedTotal {
  label: string;
  value: string;
  strong: boolean;
}

export interface PresentedVatEntry {
  category: string;
  rate: string;
  taxable: string;
  vat: string;
  reason: string;
}

export interface PresentedDocument {
  title: string;
  /** One line under the title (credit-note reference, self-billing statement), or null. */
  subtitle: string | null;
  facts: LabelledValue[];
  seller: PresentedParty;
  buyer: PresentedParty;
  otherAddresses: PresentedAddress[];
  currency: string;
  lines: PresentedLine[];
  allowancesCharges: PresentedAllowanceCharge[];
  totals: PresentedTotal[];
  vat: PresentedVatEntry[];
  payment: LabelledValue[];
  notes: LabelledValue[];
  /** Short reference for the page footer ("Invoice ACME-2025-0001"). */
  footer: string;
}

/** The labels of a rendering; the text reader recognises each of them (see textRecovery/labels.ts). */
export const LABELS = {
  seller: 'Seller',
  buyer: 'Buyer',
  number: 'Number',
  issueDate: 'Issue date',
  dueDate: 'Due date',
  currency: 'Currency',
  purchaseOrder: 'Purchase order',
  creditedInvoice: 'Credited invoice',
  servicePeriod: 'Service period',
  vatNumber: 'VAT number',
  companyId: 'Company ID',
  peppolId: 'Peppol ID',
  customerId: 'Customer ID',
  contact: 'Contact',
  email: 'E-mail',
  productCode: 'Item code',
  allowance: 'Allowance',
  charge: 'Charge',
  sumOfLines: 'Sum of lines',
  allowances: 'Allowances',
  charges: 'Charges',
  totalExclVat: 'Total excl. VAT',
  vat: 'VAT',
  totalInclVat: 'Total incl. VAT',
  paidInAdvance: 'Paid in advance',
  previousBalance: 'Previous unpaid balance',
  amountDue: 'Amount due',
  amountToRefund: 'Amount to refund',
  iban: 'IBAN',
  bic: 'BIC',
  account: 'Account',
  paymentReference: 'Payment reference',
  mandate: 'Direct debit mandate',
  paymentTerms: 'Payment terms',
  note: 'Note',
  reason: 'Reason',
} as const;

export const TITLES: Record<DocumentType, string> = {
  INVOICE: 'Invoice',
  CREDIT_NOTE: 'Credit note',
  DEBIT_NOTE: 'Debit note',
  SELFBILLING_INVOICE: 'Self-billed invoice',
  SELFBILLING_CREDIT_NOTE: 'Self-billed credit note',
};

/** What each VAT category means, printed beside its code. */
export const CATEGORY_NAMES: Record<TaxCode, string> = {
  S: 'Standard rate',
  Z: 'Zero rated',
  E: 'Exempt',
  AE: 'Reverse charge',
  K: 'Intra-community supply',
  G: 'Export outside the EU',
  O: 'Outside the scope of VAT',
  L: 'Canary Islands tax',
  M: 'Ceuta and Melilla tax',
  B: 'Split payment',
};

/** Short unit names for the common codes; any other code is printed as the code itself. */
export const UNIT_NAMES: Readonly<Record<string, string>> = {
  C62: 'pcs',
  H87: 'piece',
  EA: 'each',
  HUR: 'h',
  DAY: 'day',
  WEE: 'week',
  MON: 'month',
  ANN: 'year',
  MIN: 'min',
  MTR: 'm',
  MTK: 'm²',
  MTQ: 'm³',
  KMT: 'km',
  KGM: 'kg',
  TNE: 't',
  LTR: 'L',
  KWH: 'kWh',
  SET: 'set',
  PR: 'pair',
  XBX: 'box',
};

/** 1234567.5 -> "1,234,567.5": thousands grouped, the decimals as they are. */
export const groupThousands = (text: string): string => {
  const negative = text.startsWith('-');
  const [int, frac] = (negative ? text.slice(1) : text).split('.') as [string, string | undefined];
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '−' : ''}${grouped}${frac !== undefined ? `.${frac}` : ''}`;
};

/** An amount: 2 decimals, grouped; negative amounts with a real minus sign. */
export const amountText = (x: Decimal): string => groupThousands(money(x));

/** A quantity: as precise as given, grouped. */
export const quantityText = (x: Decimal): string => groupThousands(plain(x));

/** A unit price: at least 2 decimals, more when the price has them (0.333). */
export const priceText = (x: Decimal): string => {
  const p = plain(x);
  const decimals = p.includes('.') ? p.length - p.indexOf('.') - 1 : 0;
  return groupThousands(decimals >= 2 ? p : x.toFixed(2));
};

export const rateTextOf = (x: Decimal | null): string => (x === null ? '' : `${plain(x)}%`);

/** "BE68539007547034" -> "BE68 5390 0754 7034". */
export const ibanText = (iban: string): string => compactId(iban).replace(/(.{4})(?=.)/g, '$1 ');

const nonEmpty = (x: string | null | undefined): x is string => typeof x === 'string' && x.trim() !== '';

/** Address lines: as written on several lines, or split at commas when written on one. */
export const addressLines = (address: string | null): string[] => {
  if (!nonEmpty(address)) return [];
  const parts = address.includes('\n') ? address.split(/\r?\n/) : address.split(',');
  return parts.map((p) => p.trim()).filter((p) => p !== '');
};

const vatColumn = (code: TaxCode, rate: Decimal | null): string =>
  code === 'S' ? rateTextOf(rate) : code === 'O' ? 'O' : `${rateTextOf(rate)} ${code}`.trim();

const allowanceChargeReason = (a: AllowanceCharge, fallback: string): string => {
  const reason = nonEmpty(a.reason) ? a.reason : fallback;
  const code = nonEmpty(a.reason_code) ? ` [${a.reason_code}]` : '';
  const pct =
    a.multiplier_factor !== null && a.base_amount !== null
      ? ` (${plain(a.multiplier_factor)}% of ${amountText(a.base_amount)})`
      : '';
  return `${reason}${code}${pct}`;
};

const negative = (x: Decimal): string => (x.isZero() ? amountText(x) : `−${amountText(x)}`);

const party = (
  heading: string,
  p: {
    name: string | null;
    address: string | null;
    taxId: string | null;
    companyId: string | null;
    peppolId: string | null;
    customerId?: string | null;
    recipient: string | null;
    email: string | null;
  },
): PresentedParty => {
  const details: LabelledValue[] = [];
  const add = (label: string, value: string | null | undefined) => {
    if (nonEmpty(value)) details.push({ label, value: value.trim() });
  };
  add(LABELS.vatNumber, p.taxId);
  add(LABELS.companyId, p.companyId);
  add(LABELS.peppolId, p.peppolId);
  add(LABELS.customerId, p.customerId);
  add(LABELS.contact, p.recipient);
  add(LABELS.email, p.email);
  return { heading, name: p.name ?? '', addressLines: addressLines(p.address), details };
};

/** The document as a person reads it. Totals are computed the way the UBL states them. */
export const presentDocument = (input: Document): PresentedDocument => {
  const { document: d, totals } = completeDocument(input, 'rules');
  const credit = isCreditNote(d.document_type);
  const title = TITLES[d.document_type];

  const facts: LabelledValue[] = [];
  const fact = (label: string, value: string | null) => {
    if (nonEmpty(value)) facts.push({ label, value });
  };
  fact(LABELS.number, d.invoice_id);
  fact(LABELS.issueDate, d.invoice_date);
  fact(LABELS.dueDate, d.due_date);
  fact(LABELS.currency, d.currency);
  fact(credit ? LABELS.creditedInvoice : LABELS.purchaseOrder, d.purchase_order);
  if (d.service_start_date || d.service_end_date) {
    fact(LABELS.servicePeriod, `${d.service_start_date ?? '…'} to ${d.service_end_date ?? '…'}`);
  }

  const subtitles = [
    credit && nonEmpty(d.purchase_order) ? `Corrects invoice ${d.purchase_order}` : null,
    isSelfBilling(d.document_type) ? 'Issued by the buyer on behalf of the seller (self-billing)' : null,
  ].filter(nonEmpty);
  const subtitle = subtitles.length > 0 ? subtitles.join('\n') : null;

  const otherAddresses: PresentedAddress[] = [];
  const other = (heading: string, address: string | null, recipient: string | null) => {
    if (nonEmpty(address))
      otherAddresses.push({ heading, recipient: nonEmpty(recipient) ? recipient : null, lines: addressLines(address) });
  };
  other('Deliver to', d.shipping_address, d.shipping_address_recipient);
  other('Service address', d.service_address, d.service_address_recipient);
  other('Billing address', d.customer_address ? d.billing_address : null, d.billing_address_recipient);
  other('Remit to', d.remittance_address, d.remittance_address_recipient);

  const lines: PresentedLine[] = d.items.map((item, i) => {
    const lt = totals.lines[i]!;
    const details: string[] = [];
    if (nonEmpty(item.product_code)) details.push(`${LABELS.productCode}: ${item.product_code}`);
    item.allowances.forEach((a, j) =>
      details.push(`${LABELS.allowance}: ${allowanceChargeReason(a, 'Discount')} ${negative(lt.allowances[j]!)}`),
    );
    item.charges.forEach((c, j) =>
      details.push(`${LABELS.charge}: ${allowanceChargeReason(c, 'Charge')} ${amountText(lt.charges[j]!)}`),
    );
    return {
      number: String(i + 1),
      description: nonEmpty(item.description) ? item.description : 'Item',
      details,
      quantity: quantityText(item.quantity ?? new Dec(1)),
      unit: ownEntry(UNIT_NAMES, item.unit ?? 'C62') ?? item.unit ?? 'pcs',
      unitPrice: item.unit_price !== null ? priceText(item.unit_price) : '',
      vat: vatColumn(lt.tax_code, lt.rate),
      amount: amountText(lt.net),
    };
  });

  const allowancesCharges: PresentedAllowanceCharge[] = [
    ...d.allowances.map((a, i) => ({
      kind: LABELS.allowance,
      reason: allowanceChargeReason(a, 'Discount'),
      vat: vatColumn(totals.allowances[i]!.tax_code, totals.allowances[i]!.rate),
      amount: negative(totals.allowances[i]!.amount),
    })),
    ...d.charges.map((c, i) => ({
      kind: LABELS.charge,
      reason: allowanceChargeReason(c, 'Charge'),
      vat: vatColumn(totals.charges[i]!.tax_code, totals.charges[i]!.rate),
      amount: amountText(totals.charges[i]!.amount),
    })),
  ];

  const rows: PresentedTotal[] = [];
  const total = (label: string, value: string, strong = false) => rows.push({ label, value, strong });
  const hasAc = d.allowances.length > 0 || d.charges.length > 0;
  if (hasAc) total(LABELS.sumOfLines, amountText(totals.line_total));
  if (d.allowances.length > 0) total(LABELS.allowances, negative(totals.allowance_total));
  if (d.charges.length > 0) total(LABELS.charges, amountText(totals.charge_total));
  total(LABELS.totalExclVat, amountText(totals.tax_exclusive));
  total(LABELS.vat, amountText(totals.tax_total));
  total(LABELS.totalInclVat, amountText(totals.tax_inclusive), true);
  if (totals.prepaid.gt(0)) total(LABELS.paidInAdvance, negative(totals.prepaid));
  if (totals.prepaid.lt(0)) total(LABELS.previousBalance, amountText(totals.prepaid.negated()));
  total(credit ? LABELS.amountToRefund : LABELS.amountDue, `${d.currency} ${amountText(totals.payable)}`, true);

  const vat: PresentedVatEntry[] = totals.breakdown.map((b) => ({
    category: `${b.tax_code} ${CATEGORY_NAMES[b.tax_code]}`,
    rate: b.rate === null ? '' : rateTextOf(b.rate),
    taxable: amountText(b.taxable_amount),
    vat: amountText(b.tax_amount),
    reason: [b.exemption_reason_code, b.exemption_reason].filter(nonEmpty).join(' '),
  }));

  const payment: LabelledValue[] = [];
  const pay = (label: string, value: string | null) => {
    if (nonEmpty(value)) payment.push({ label, value });
  };
  for (const p of d.payment_details) {
    const directDebit = p.payment_means_code === '49' || p.payment_means_code === '59';
    if (directDebit) pay(LABELS.mandate, p.mandate_reference);
    pay(LABELS.iban, p.iban ? ibanText(p.iban) : null);
    pay(LABELS.account, p.bank_account_number);
    pay(LABELS.bic, p.swift);
    pay(LABELS.paymentReference, p.payment_reference);
  }
  pay(LABELS.paymentTerms, d.payment_term);

  const notes: LabelledValue[] = [];
  if (nonEmpty(d.note)) notes.push({ label: credit ? LABELS.reason : LABELS.note, value: d.note });

  return {
    title,
    subtitle,
    facts,
    seller: party(LABELS.seller, {
      name: d.vendor_name,
      address: d.vendor_address,
      taxId: d.vendor_tax_id,
      companyId: d.vendor_company_id,
      peppolId: d.vendor_peppol_id,
      recipient: d.vendor_address_recipient,
      email: d.vendor_email,
    }),
    buyer: party(LABELS.buyer, {
      name: d.customer_name,
      address: d.customer_address ?? d.billing_address,
      taxId: d.customer_tax_id,
      companyId: d.customer_company_id,
      peppolId: d.customer_peppol_id,
      customerId: d.customer_id,
      recipient: d.customer_address_recipient ?? (d.customer_address ? null : d.billing_address_recipient),
      email: d.customer_email,
    }),
    otherAddresses,
    currency: d.currency,
    lines,
    allowancesCharges,
    totals: rows,
    vat,
    payment,
    notes,
    footer: `${title} ${d.invoice_id ?? ''}`.trim(),
  };
};
