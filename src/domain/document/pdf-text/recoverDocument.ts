import type { Decimal } from 'decimal.js';
import { CURRENCIES, VATEX_CODES } from '../invoice/codeLists.js';
import type { Currency, TaxCode, VatexCode } from '../invoice/codeLists.js';
import { emptyDocument, isCreditNote } from '../invoice/documentModel.js';
import type { AllowanceCharge, Document, DocumentType, PaymentDetail, TaxDetail } from '../invoice/documentModel.js';
import { ZERO, sum } from '../invoice/money.js';
import { compactId } from '../invoice/vatNumber.js';
import { dateIn, datesIn } from './dates.js';
import { bicIn, ibansIn, vatNumbersIn } from './identifiers.js';
import type { FoundVatNumber } from './identifiers.js';
import {
  ALLOWANCE_LINE,
  ALLOWANCE_TABLE_HEADING,
  CATEGORY_CODE,
  CATEGORY_PHRASES,
  CHARGE_LINE,
  DOCUMENT_TITLES,
  FIELD_LABELS,
  TOTAL_LABELS,
  VAT_TABLE_HEADING,
} from './labels.js';
import type { FieldName, TotalKind } from './labels.js';
import { allowanceChargeOf, lineTable, vatCellOf } from './lineTable.js';
import { decimalSeparatorOf, lastAmountIn, numbersIn, percentIn } from './numbers.js';
import type { DecimalSeparator } from './numbers.js';
import { headedBlocks, unheadedBlocks } from './partyBlocks.js';
import type { PartyBlock } from './partyBlocks.js';
import { rowsOfPages } from './textLayout.js';
import type { Cell, Row, TextPage } from './textLayout.js';

/*
 * A document from the text layer of a PDF: the fields an accountant would look for, found by
 * their labels (in English, Dutch, French or German), by their shape (dates, amounts, IBANs and
 * VAT numbers with their check digits) and by the layout (party blocks, the line table, totals).
 * Nothing is invented: a field that is not printed stays empty, and validation says what is
 * missing. Our own renderings use labels this reader knows, so they read back completely.
 */

export interface TextHints {
  /** The seller's VAT number as the caller knows it: tells the seller from the buyer. */
  vendorTaxId: string | null;
  customerTaxId: string | null;
}

export interface TextRecovery {
  document: Document;
  /** Whether the PDF had a text layer at all (a scan has none). */
  hasText: boolean;
  /** Things worth telling the caller: failed check digits, assumptions made. */
  warnings: string[];
}

const SAME_X = 4;

interface Labelled {
  value: string;
  row: Row;
  cell: Cell;
}

/** The value beside or under a label: the rest of the cell, the next cell, or the cell below. */
function valueAfter(rows: Row[], index: number, cell: Cell, rest: string): string {
  if (rest !== '') return rest;
  const row = rows[index]!;
  const next = row.cells[row.cells.indexOf(cell) + 1];
  if (next && next.x - cell.x2 < 250) return next.text;
  for (let i = index + 1; i < rows.length && i < index + 3; i++) {
    const below = rows[i]!;
    if (below.page !== row.page || below.y - row.y > 2.6 * cell.size) break;
    const aligned = below.cells.find((c) => Math.abs(c.x - cell.x) <= SAME_X);
    if (aligned) return aligned.text;
  }
  return '';
}

/** Lines of a text block under a heading (notes). */
function blockBelow(rows: Row[], index: number, cell: Cell): string[] {
  const out: string[] = [];
  let lastY = rows[index]!.y;
  for (let i = index + 1; i < rows.length; i++) {
    const row = rows[i]!;
    if (row.page !== rows[index]!.page || row.y - lastY > 2.2 * cell.size) break;
    const aligned = row.cells.find((c) => Math.abs(c.x - cell.x) <= SAME_X);
    if (!aligned) break;
    out.push(aligned.text);
    lastY = row.y;
  }
  return out;
}

const VALID: Record<FieldName, (v: string) => string | null> = {
  number: (v) => {
    const first = v.split(/\s+/)[0] ?? '';
    return /[0-9]/.test(first) && first.length <= 50 && dateIn(v) === null ? first.replace(/[.,;:]$/, '') : null;
  },
  issueDate: (v) => dateIn(v),
  dueDate: (v) => dateIn(v),
  purchaseOrder: (v) => (v !== '' && v.length <= 60 && /[0-9A-Za-z]/.test(v) ? v.split(/\s{2,}/)[0]!.trim() : null),
  creditedInvoice: (v) => {
    const m = /([A-Za-z0-9][A-Za-z0-9._/-]*\d[A-Za-z0-9._/-]*)\.?$/.exec(v.trim());
    return m ? m[1]! : null;
  },
  servicePeriod: (v) => (datesIn(v).length > 0 ? v : null),
  currency: (v) => CURRENCIES.find((c) => new RegExp(`\\b${c}\\b`).test(v.toUpperCase())) ?? null,
  iban: (v) => ibansIn(v)[0] ?? null,
  bic: (v) =>
    /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}(?:[A-Z0-9]{3})?$/.test(v.replace(/\s+/g, '')) ? v.replace(/\s+/g, '') : null,
  paymentReference: (v) => (v !== '' && v.length <= 140 ? v : null),
  paymentTerms: (v) => (v !== '' ? v : null),
  note: (v) => (v !== '' ? v : null),
};

/** Every labelled field of the document (first occurrence wins), and every IBAN/BIC label in order. */
function labelledFields(rows: Row[]): { fields: Map<FieldName, Labelled>; ibans: string[]; bics: string[] } {
  const fields = new Map<FieldName, Labelled>();
  const ibans: string[] = [];
  const bics: string[] = [];
  rows.forEach((row, index) => {
    for (const cell of row.cells) {
      for (const [name, re] of FIELD_LABELS) {
        const m = re.exec(cell.text);
        if (!m) continue;
        const rest = cell.text.slice(m[0].length).trim();
        if (name === 'note') {
          // The first note wins: the paragraphs under later "Note" headings are not read (each
          // reading goes down the page, and a page of such headings made it quadratic).
          if (fields.has('note')) break;
          // A note is a heading over a paragraph, or "Note: text"; not a column heading.
          const value = rest !== '' ? rest : row.cells.length === 1 ? blockBelow(rows, index, cell).join('\n') : '';
          if (value) fields.set('note', { value, row, cell });
          break;
        }
        const raw = valueAfter(rows, index, cell, rest);
        const value = VALID[name](raw);
        if (value === null) continue;
        if (name === 'iban') ibans.push(value);
        if (name === 'bic') bics.push(value);
        if (!fields.has(name)) fields.set(name, { value, row, cell });
        break;
      }
    }
  });
  return { fields, ibans, bics };
}

/** The title: the largest text on the first page that names a document type. */
function documentTypeOf(rows: Row[]): DocumentType | null {
  let best: { type: DocumentType; size: number } | null = null;
  for (const row of rows.filter((r) => r.page === 0).slice(0, 40)) {
    for (const cell of row.cells) {
      const match = DOCUMENT_TITLES.find(([, re]) => re.test(cell.text));
      if (match && cell.text.length <= 60 && (!best || cell.size > best.size))
        best = { type: match[0], size: cell.size };
    }
  }
  return best?.type ?? null;
}

const SYMBOLS: ReadonlyArray<[RegExp, Currency]> = [
  [/€/, 'EUR'],
  [/£/, 'GBP'],
  [/\bCHF\b|\bFr\.\s?\d/, 'CHF'],
  [/¥/, 'JPY'],
  [/\$/, 'USD'],
];

function currencyOf(text: string, labelled: string | null, warnings: string[]): Currency {
  if (labelled) return labelled as Currency;
  const counts = CURRENCIES.map((c) => [c, text.match(new RegExp(`\\b${c}\\b`, 'g'))?.length ?? 0] as const).filter(
    ([, n]) => n > 0,
  );
  if (counts.length > 0) return [...counts].sort((a, b) => b[1] - a[1])[0]![0];
  const symbol = SYMBOLS.find(([re]) => re.test(text));
  if (symbol) return symbol[1];
  warnings.push('No currency is printed; EUR is assumed');
  return 'EUR';
}

interface TotalsFound {
  values: Map<TotalKind, Decimal>;
  rates: TaxDetail[];
  allowances: AllowanceCharge[];
  charges: AllowanceCharge[];
}

/** Totals, per-rate VAT lines ("VAT 21% on 100.00  21.00") and document discounts/surcharges printed among them. */
function totalsOf(rows: Row[], sep: DecimalSeparator): TotalsFound {
  const found: TotalsFound = { values: new Map(), rates: [], allowances: [], charges: [] };
  for (const row of rows) {
    const i = row.cells.findIndex(
      (c) => TOTAL_LABELS.some(([, re]) => re.test(c.text)) || ALLOWANCE_LINE.test(c.text) || CHARGE_LINE.test(c.text),
    );
    if (i < 0) continue;
    const labelCell = row.cells[i]!;
    const rest = row.cells
      .slice(i)
      .map((c) => c.text)
      .join('  ');
    const amount = lastAmountIn(rest, sep);
    if (amount === null) continue;
    const kind = TOTAL_LABELS.find(([, re]) => re.test(labelCell.text))?.[0] ?? null;
    if (kind === null || ((kind === 'allowanceTotal' || kind === 'chargeTotal') && percentIn(rest) !== null)) {
      const ac: AllowanceCharge = {
        reason: labelCell.text.replace(/[:\s]+$/, ''),
        reason_code: null,
        multiplier_factor: null,
        amount: amount.abs(),
        base_amount: null,
        tax_rate: null,
        tax_code: null,
      };
      if (ALLOWANCE_LINE.test(labelCell.text) || kind === 'allowanceTotal') found.allowances.push(ac);
      else found.charges.push(ac);
      continue;
    }
    const rate = kind === 'vatTotal' ? percentIn(rest) : null;
    if (rate !== null) {
      // "VAT 21% on 1,000.00 210.00": the base (when printed) and the VAT of one rate.
      const amounts = numbersIn(rest.replace(/\d+(?:[.,]\d+)?\s?%/, ''), sep).filter(
        (n) => n.value.decimalPlaces() <= 2 && /[.,]\d{2}$/.test(n.text),
      );
      const base = amounts.length >= 2 ? amounts[amounts.length - 2]!.value : null;
      found.rates.push({ rate, amount: amount, tax_code: null, taxable_amount: base });
      continue;
    }
    if (!found.values.has(kind)) found.values.set(kind, kind === 'allowanceTotal' ? amount.abs() : amount);
  }
  return found;
}

type VatColumn = 'category' | 'rate' | 'taxable' | 'vat' | 'reason';
const VAT_COLUMNS: ReadonlyArray<[VatColumn, RegExp]> = [
  ['rate', /^(?:rate|vat rate|tarief|taux|steuersatz|satz|%)$/i],
  [
    'taxable',
    /^(?:taxable amount|taxable|base|basis|grondslag|maatstaf|base ht|base imposable|nettobetrag|bemessungsgrundlage)/i,
  ],
  ['vat', /^(?:vat amount|tax amount|vat|btw|btw-bedrag|montant tva|tva|mwst|steuerbetrag|steuer)/i],
  ['reason', /^(?:exemption reason|reason|reden|motif|grund|vrijstelling)/i],
];

/** Our VAT breakdown table: "S Standard rate | 21% | 378.00 | 79.38 | reason", its columns fixed by its heading. */
function vatTable(
  rows: Row[],
  sep: DecimalSeparator,
): { entries: TaxDetail[]; reasons: Map<TaxCode, string>; used: Set<Row> } {
  const entries: TaxDetail[] = [];
  const reasons = new Map<TaxCode, string>();
  const used = new Set<Row>();
  const start = rows.findIndex((r) => r.cells.some((c) => VAT_TABLE_HEADING.test(c.text)));
  if (start < 0) return { entries, reasons, used };
  const heading = rows[start]!;
  used.add(heading);
  const columns = heading.cells.map((c) => ({
    kind: VAT_TABLE_HEADING.test(c.text)
      ? ('category' as const)
      : (VAT_COLUMNS.find(([, re]) => re.test(c.text))?.[0] ?? null),
    x: c.x,
    x2: c.x2,
  }));
  const columnOf = (cell: Cell): VatColumn | null => {
    let best: (typeof columns)[number] | null = null;
    let bestScore = -Infinity;
    for (const col of columns) {
      const overlap = Math.min(cell.x2, col.x2) - Math.max(cell.x, col.x);
      const score = overlap > 0 ? overlap : -Math.min(Math.abs(cell.x - col.x), Math.abs(cell.x2 - col.x2));
      if (score > bestScore) [best, bestScore] = [col, score];
    }
    return best?.kind ?? null;
  };
  let current: { code: TaxCode; reason: string } | null = null;
  for (let i = start + 1; i < rows.length; i++) {
    const row = rows[i]!;
    const cells = new Map<VatColumn, string>();
    for (const cell of row.cells) {
      const kind = columnOf(cell);
      if (kind) cells.set(kind, cells.has(kind) ? `${cells.get(kind)} ${cell.text}` : cell.text);
    }
    const code = CATEGORY_CODE.exec(cells.get('category') ?? '')?.[1] as TaxCode | undefined;
    if (code && (cells.has('taxable') || cells.has('vat'))) {
      const rate = percentIn(cells.get('rate') ?? '');
      const amount = (k: VatColumn) => (cells.has(k) ? (numbersIn(cells.get(k)!, sep)[0]?.value ?? null) : null);
      entries.push({
        tax_code: code,
        rate: code === 'O' ? null : rate,
        taxable_amount: amount('taxable'),
        amount: amount('vat'),
      });
      current = { code, reason: cells.get('reason') ?? '' };
      if (current.reason) reasons.set(code, current.reason);
      used.add(row);
      continue;
    }
    // A wrapped reason (or category name) continues the entry above; anything else ends the table.
    if (
      current &&
      [...cells.keys()].every((k) => k === 'reason' || k === 'category') &&
      row.y - rows[i - 1]!.y < 2 * (row.cells[0]?.size ?? 9)
    ) {
      if (cells.has('reason')) {
        current.reason = `${current.reason} ${cells.get('reason')}`.trim();
        reasons.set(current.code, current.reason);
      }
      used.add(row);
      continue;
    }
    break;
  }
  return { entries, reasons, used };
}

/** Our allowances-and-charges table: "Allowance | Volume discount [95] | 21% | −150.00". */
function allowanceTable(
  rows: Row[],
  sep: DecimalSeparator,
): { allowances: AllowanceCharge[]; charges: AllowanceCharge[]; used: Set<Row> } {
  const allowances: AllowanceCharge[] = [];
  const charges: AllowanceCharge[] = [];
  const used = new Set<Row>();
  const start = rows.findIndex((r) => r.cells.some((c) => ALLOWANCE_TABLE_HEADING.test(c.text)));
  if (start < 0) return { allowances, charges, used };
  used.add(rows[start]!);
  for (let i = start + 1; i < rows.length; i++) {
    const row = rows[i]!;
    const kind = row.cells[0]?.text;
    if ((kind !== 'Allowance' && kind !== 'Charge') || row.cells.length < 3) break;
    used.add(row);
    const vatCell = row.cells.length >= 4 ? vatCellOf(row.cells[row.cells.length - 2]!.text) : null;
    const reasonText = row.cells
      .slice(1, row.cells.length >= 4 ? -2 : -1)
      .map((c) => c.text)
      .join(' ');
    const ac = allowanceChargeOf(`${reasonText} ${row.cells[row.cells.length - 1]!.text}`, sep);
    if (!ac) continue;
    ac.tax_rate = vatCell?.rate ?? null;
    ac.tax_code = vatCell?.code ?? (vatCell?.rate ? 'S' : null);
    (kind === 'Allowance' ? allowances : charges).push(ac);
  }
  return { allowances, charges, used };
}

const sameVat = (a: string | null, b: string | null): boolean => !!a && !!b && compactId(a) === compactId(b);

/** Seller and buyer: headed blocks first, address blocks otherwise; the hints settle which is which. */
function parties(
  rows: Row[],
  tableTop: number,
  hints: TextHints,
): { seller: PartyBlock | null; buyer: PartyBlock | null; delivery: PartyBlock | null } {
  const headed = headedBlocks(rows);
  let seller = headed.find((b) => b.role === 'seller') ?? null;
  let buyer = headed.find((b) => b.role === 'buyer') ?? null;
  const delivery = headed.find((b) => b.role === 'delivery') ?? null;
  const holds = (b: PartyBlock | null, vat: string | null) => !!b && b.vatNumbers.some((v) => sameVat(v.value, vat));
  if (!seller || !buyer) {
    const extra = unheadedBlocks(rows, headed, tableTop).filter((b) => b.name !== null && b !== seller && b !== buyer);
    const byHint = (vat: string | null) => extra.find((b) => holds(b, vat)) ?? null;
    seller ??= byHint(hints.vendorTaxId) ?? extra.find((b) => b !== buyer && !holds(b, hints.customerTaxId)) ?? null;
    buyer ??= byHint(hints.customerTaxId) ?? extra.find((b) => b !== seller && !holds(b, hints.vendorTaxId)) ?? null;
  }
  // The caller knows its own VAT number better than our reading of the layout.
  if (holds(seller, hints.customerTaxId) || holds(buyer, hints.vendorTaxId)) [seller, buyer] = [buyer, seller];
  return { seller, buyer, delivery };
}

/** Belgian structured communication (+++123/4567/89012+++) with its mod-97 check, or an RF creditor reference. */
function structuredReference(text: string): string | null {
  // Printed text may break the line inside it ("++" / "+020/2024/68165+++").
  const be =
    /\+\s?\+\s?\+\s?(\d{3})\s?\/\s?(\d{4})\s?\/\s?(\d{5})\s?\+\s?\+\s?\+|\*{3}\s?(\d{3})\s?\/\s?(\d{4})\s?\/\s?(\d{5})\s?\*{3}/.exec(
      text,
    );
  if (be) {
    const digits = (be[1] ? be[1] + be[2] + be[3] : be[4]! + be[5] + be[6]) as string;
    const check = Number(digits.slice(0, 10)) % 97 || 97;
    if (check === Number(digits.slice(10)))
      return be[1] ? `+++${be[1]}/${be[2]}/${be[3]}+++` : `***${be[4]}/${be[5]}/${be[6]}***`;
  }
  return null;
}

const vatexOf = (text: string): VatexCode | null => {
  const m = /\bVATEX-[A-Z]{2}-[A-Z0-9]+(?:-[A-Z0-9]+)*\b/.exec(text);
  if (!m) return null;
  return (VATEX_CODES as ReadonlyArray<string>).includes(m[0]) ? (m[0] as VatexCode) : null;
};

/** The document printed on these pages, as far as it can be read. */
export function recoverFromText(pages: TextPage[], hints: TextHints): TextRecovery {
  const warnings: string[] = [];
  const doc = emptyDocument();
  const rows = rowsOfPages(pages);
  const text = rows.map((r) => r.text).join('\n');
  if (text.replace(/\s+/g, '').length < 20) return { document: doc, hasText: false, warnings };
  const sep = decimalSeparatorOf(text);

  doc.document_type = documentTypeOf(rows) ?? 'INVOICE';

  const table = lineTable(rows, sep);
  const vat = vatTable(rows, sep);
  const acTable = allowanceTable(rows, sep);
  const rest = rows.filter((r) => !table.rows.has(r) && !vat.used.has(r) && !acTable.used.has(r));
  const { fields, ibans, bics } = labelledFields(rest);
  const field = (name: FieldName) => fields.get(name)?.value ?? null;

  doc.items = table.items;
  doc.invoice_id = field('number');
  doc.invoice_date = field('issueDate');
  doc.due_date = field('dueDate');
  if (!doc.invoice_date) {
    // Unlabelled: the first date of the first page above the lines that is not the due date.
    const head = rest
      .filter((r) => r.page === 0 && (table.firstRowY === null || r.y < table.firstRowY))
      .map((r) => r.text)
      .join('\n');
    doc.invoice_date =
      datesIn(head)
        .map((d) => d.date)
        .find((d) => d !== doc.due_date) ?? null;
  }
  const period = field('servicePeriod');
  if (period) {
    const [start, end] = datesIn(period);
    doc.service_start_date = start?.date ?? null;
    doc.service_end_date = end?.date ?? null;
  }
  doc.purchase_order = isCreditNote(doc.document_type)
    ? (field('creditedInvoice') ?? field('purchaseOrder'))
    : field('purchaseOrder');
  doc.currency = currencyOf(text, field('currency'), warnings);
  doc.payment_term = field('paymentTerms');
  doc.note = field('note');

  // --- parties
  const tableTop = table.firstRowY ?? Infinity;
  const { seller, buyer, delivery } = parties(rest, tableTop, hints);
  const inBlocks = new Set([...(seller?.vatNumbers ?? []), ...(buyer?.vatNumbers ?? [])].map((v) => v.value));
  const loose = vatNumbersIn(rest.map((r) => r.text).join('\n')).filter((v) => !inBlocks.has(v.value));
  let sellerVat: FoundVatNumber | null = seller?.vatNumbers[0] ?? null;
  let buyerVat: FoundVatNumber | null = buyer?.vatNumbers[0] ?? null;
  for (const v of loose) {
    // Numbers outside the blocks (a footer with the seller's registration, typically) go where the hints say, else to the seller.
    if (sameVat(v.value, hints.customerTaxId) && !buyerVat) buyerVat = v;
    else if (!sellerVat) sellerVat = v;
    else if (!buyerVat && !sameVat(v.value, hints.vendorTaxId)) buyerVat = v;
  }
  const fromHint = (hint: string | null, who: string): string | null => {
    if (!hint) return null;
    warnings.push(`The ${who}'s VAT number is not printed; ${compactId(hint)} from the request is used`);
    return compactId(hint);
  };
  doc.vendor_tax_id = sellerVat?.value ?? fromHint(hints.vendorTaxId, 'seller');
  doc.customer_tax_id = buyerVat?.value ?? fromHint(hints.customerTaxId, 'buyer');
  for (const v of [sellerVat, buyerVat]) {
    if (v?.verdict === 'invalid')
      warnings.push(`The check digits of VAT number ${v.value} do not match: check it against the supplier's records`);
  }
  if (seller) {
    doc.vendor_name = seller.name;
    doc.vendor_address = seller.addressLines.length > 0 ? seller.addressLines.join('\n') : null;
    doc.vendor_email = seller.email;
    doc.vendor_company_id = seller.companyId;
    doc.vendor_peppol_id = seller.peppolId;
    doc.vendor_address_recipient = seller.contact;
  }
  if (buyer) {
    doc.customer_name = buyer.name;
    doc.customer_address = buyer.addressLines.length > 0 ? buyer.addressLines.join('\n') : null;
    doc.customer_email = buyer.email;
    doc.customer_company_id = buyer.companyId;
    doc.customer_peppol_id = buyer.peppolId;
    doc.customer_id = buyer.customerId;
    doc.customer_address_recipient = buyer.contact;
  }
  if (delivery) {
    // Our renderings print the recipient first when there is one; a first line with a house number is the street.
    const lines = [delivery.name, ...delivery.addressLines].filter((l): l is string => l !== null);
    const hasRecipient = lines.length > 1 && !/\d/.test(lines[0]!);
    doc.shipping_address_recipient = hasRecipient ? lines[0]! : null;
    doc.shipping_address = (hasRecipient ? lines.slice(1) : lines).join('\n') || null;
  }

  // --- VAT categories and exemptions
  const vatex = vatexOf(text);
  doc.vatex = vatex;
  const phrase = CATEGORY_PHRASES.find(([, re]) => re.test(text));
  const firstCode = doc.items.find((i) => i.tax_code)?.tax_code ?? vat.entries[0]?.tax_code ?? null;
  doc.tax_code = firstCode ?? phrase?.[0] ?? 'S';
  if (vat.reasons.size > 0) {
    const reason = vat.reasons.get(doc.tax_code) ?? [...vat.reasons.values()][0]!;
    const note = reason.replace(/^VATEX-[A-Z]{2}-[A-Z0-9-]+\s*/, '').trim();
    // Our renderings print the standard wording when a category had no reason of its own.
    doc.vatex_note = note !== '' ? note : null;
  } else if (phrase && doc.tax_code !== 'S') {
    const sentence = text.split('\n').find((l) => phrase[1].test(l));
    doc.vatex_note = sentence?.trim() ?? null;
  }
  // Lines printed without a rate take the only rate of the breakdown, or 0 in a zero-rate category.
  const totals = totalsOf(rest, sep);
  const breakdown = vat.entries.length > 0 ? vat.entries : totals.rates;
  const rates = [...new Set(breakdown.map((b) => b.rate?.toString()).filter((r): r is string => !!r))];
  for (const item of doc.items) {
    if (item.tax_rate !== null || item.tax_code === 'O') continue;
    if (rates.length === 1) item.tax_rate = breakdown.find((b) => b.rate)!.rate;
    else if (
      ['AE', 'K', 'G', 'E', 'O', 'Z'].includes(doc.tax_code) &&
      breakdown.every((b) => b.rate === null || b.rate.isZero())
    )
      item.tax_rate = doc.tax_code === 'O' ? null : ZERO;
  }
  doc.tax_details = breakdown;

  // --- document allowances and charges, totals
  doc.allowances = acTable.allowances.length > 0 ? acTable.allowances : totals.allowances;
  doc.charges = acTable.charges.length > 0 ? acTable.charges : totals.charges;
  doc.subtotal = totals.values.get('subtotal') ?? null;
  doc.total_tax = totals.values.get('vatTotal') ?? null;
  doc.invoice_total = totals.values.get('total') ?? null;
  doc.amount_due = totals.values.get('amountDue') ?? null;
  if (doc.total_tax === null && totals.rates.length > 0) doc.total_tax = sum(totals.rates.map((r) => r.amount ?? ZERO));

  // --- payment
  const iban = ibans.length > 0 ? ibans : ibansIn(text).slice(0, 1);
  const bic = bics.length > 0 ? bics : [bicIn(text)].filter((b): b is string => b !== null);
  const reference = field('paymentReference') ?? structuredReference(text);
  doc.payment_details = iban.map((i, n): PaymentDetail => ({
    iban: i,
    swift: bic[n] ?? null,
    bank_account_number: null,
    payment_reference: n === 0 ? reference : null,
    payment_means_code: null,
    mandate_reference: null,
  }));
  if (doc.payment_details.length === 0 && reference) {
    doc.payment_details = [
      {
        iban: null,
        swift: null,
        bank_account_number: null,
        payment_reference: reference,
        payment_means_code: null,
        mandate_reference: null,
      },
    ];
  }
  return { document: doc, hasText: true, warnings };
}
