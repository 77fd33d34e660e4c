import type { Decimal } from 'decimal.js';
import { EXEMPT_TAX_CODES, SINGLE_SUBTOTAL_TAX_CODES } from './codeLists.js';
import type { TaxCode } from './codeLists.js';
import type { AllowanceCharge, Document, LineItem, TaxDetail } from './documentModel.js';
import { Dec, ZERO, round2, sum } from './money.js';

/** A field-level problem ({field, message} in the spec), field being a path like items[0].amount. */
export interface FieldProblem {
  field: string;
  message: string;
  type: 'mismatch' | 'missing' | 'invalid';
  /** The EN 16931 rule this problem is (the rule engine's report of it is then redundant). */
  rule_id?: string;
}

/** One VAT breakdown entry (BG-23) as it goes into UBL. */
export interface VatBreakdownEntry {
  tax_code: TaxCode;
  /** Null only for category O, which has no rate. */
  rate: Decimal | null;
  taxable_amount: Decimal;
  tax_amount: Decimal;
  exemption_reason_code: string | null;
  exemption_reason: string | null;
}

export interface LineTotals {
  net: Decimal;
  tax_code: TaxCode;
  rate: Decimal | null;
  allowances: Decimal[];
  charges: Decimal[];
}

export interface DocumentAllowanceChargeTotals {
  amount: Decimal;
  tax_code: TaxCode;
  rate: Decimal | null;
}

export interface DocumentTotals {
  lines: LineTotals[];
  allowances: DocumentAllowanceChargeTotals[];
  charges: DocumentAllowanceChargeTotals[];
  /** BT-106 */ line_total: Decimal;
  /** BT-107 */ allowance_total: Decimal;
  /** BT-108 */ charge_total: Decimal;
  /** BT-109 */ tax_exclusive: Decimal;
  /** BT-110 */ tax_total: Decimal;
  /** BT-112 */ tax_inclusive: Decimal;
  /** BT-113; negative when a previous unpaid balance is carried into the amount due. */ prepaid: Decimal;
  /** BT-114 */ rounding: Decimal;
  /** BT-115 */ payable: Decimal;
  breakdown: VatBreakdownEntry[];
}

/**
 * 'strict' is for what callers send us: amounts they give must agree with ours to the cent (per-line
 * rounding tolerated). 'rules' accepts whatever the EN 16931 rules accept (e.g. a VAT amount within
 * 1.00 of the computed one), so documents read from UBL keep their own figures.
 */
export type ToleranceMode = 'strict' | 'rules';

const hundred = new Dec(100);
const isZeroRateCategory = (c: TaxCode): boolean => SINGLE_SUBTOTAL_TAX_CODES.includes(c);

/**
 * Category of a line or allowance when the caller gave only a rate. The document tax_code applies,
 * except that a 0% line in a standard-rated document is zero rated (Z) and a rated line in an
 * exempt document is standard rated (S): S with 0% and E with 21% would both break the rules.
 */
export const effectiveTaxCode = (docCode: TaxCode, own: TaxCode | null, rate: Decimal | null): TaxCode => {
  if (own) return own;
  if (rate === null) return docCode;
  if (rate.isZero()) return docCode === 'S' ? 'Z' : docCode;
  return isZeroRateCategory(docCode) ? 'S' : docCode;
};

/** Rate as the breakdown uses it: none for O, 0 for the other zero-rate categories. */
const effectiveRate = (code: TaxCode, rate: Decimal | null): Decimal | null => {
  if (code === 'O') return null;
  if (isZeroRateCategory(code)) return ZERO;
  return rate;
};

/** Amount of an allowance/charge: given, else base x factor / 100 (BT-92 = BT-93 x BT-94 / 100). */
export const allowanceChargeAmount = (a: AllowanceCharge): Decimal | null => {
  if (a.amount !== null) return a.amount;
  if (a.base_amount !== null && a.multiplier_factor !== null) {
    return round2(a.base_amount.times(a.multiplier_factor).div(hundred));
  }
  return null;
};

/**
 * A line's net amount from its parts: round2(qty x price) - round2(allowances) + round2(charges);
 * `unrounded` is the one PEPPOL-EN16931-R120 holds a given line amount to (within 0.02).
 */
const lineNets = (line: LineItem): { net: Decimal; unrounded: Decimal } => {
  const gross = (line.quantity ?? new Dec(1)).times(line.unit_price ?? ZERO);
  const allowances = round2(sum(line.allowances.map((a) => allowanceChargeAmount(a) ?? ZERO)));
  const charges = round2(sum(line.charges.map((a) => allowanceChargeAmount(a) ?? ZERO)));
  return { net: round2(gross).minus(allowances).plus(charges), unrounded: gross.minus(allowances).plus(charges) };
};

export const computeLineNet = (line: LineItem): Decimal => lineNets(line).net;

const keyOf = (code: TaxCode, rate: Decimal | null): string =>
  isZeroRateCategory(code) ? code : `${code}|${rate === null ? '-' : rate.toFixed(4)}`;

/** The rule that requires an exemption reason in each exempt category's VAT breakdown entry. */
export const EXEMPTION_REASON_RULE: Partial<Record<TaxCode, string>> = {
  E: 'BR-E-10',
  AE: 'BR-AE-10',
  K: 'BR-IC-10',
  G: 'BR-G-10',
  O: 'BR-O-10',
};

/** The category a vatex code belongs to (the Peppol P0104-P0111 mapping; everything else is an E code). */
export const vatexCategory = (vatex: string): TaxCode => {
  switch (vatex.toUpperCase()) {
    case 'VATEX-EU-G':
      return 'G';
    case 'VATEX-EU-O':
      return 'O';
    case 'VATEX-EU-IC':
      return 'K';
    case 'VATEX-EU-AE':
    case 'VATEX-FR-AE':
      return 'AE';
    default:
      return 'E';
  }
};

interface Group {
  code: TaxCode;
  rate: Decimal | null;
  taxable: Decimal;
  lines: number;
}

const tolerance = (mode: ToleranceMode, lines: number): Decimal =>
  mode === 'rules'
    ? new Dec('0.99')
    : Dec.min(new Dec('0.99'), Dec.max(new Dec('0.02'), new Dec(lines).times('0.005')));

const absDiff = (a: Decimal, b: Decimal): Decimal => a.minus(b).abs();

/**
 * Whether a VAT breakdown entry's amount involves no rounding at all, so a caller's figure must be
 * ours exactly: the zero-rate categories, and in strict mode any 0% entry (L and M may be at 0%).
 */
const noVatRounding = (mode: ToleranceMode, code: TaxCode, rate: Decimal | null): boolean =>
  isZeroRateCategory(code) || (mode === 'strict' && rate !== null && rate.isZero());

export interface CompletedDocument {
  document: Document;
  totals: DocumentTotals;
  problems: FieldProblem[];
}

/**
 * Computes every total of the document the way EN 16931 defines them and checks the totals the
 * caller gave. Returns the document with all computed fields filled in, the totals as UBL needs
 * them, and the disagreements as field-level problems.
 */
export const completeDocument = (input: Document, mode: ToleranceMode = 'strict'): CompletedDocument => {
  const problems: FieldProblem[] = [];
  const problem = (field: string, type: FieldProblem['type'], message: string) =>
    problems.push({ field, type, message });

  // --- lines (BG-25)
  const lines: LineTotals[] = input.items.map((line, i) => {
    const code = effectiveTaxCode(input.tax_code, line.tax_code, line.tax_rate);
    if (line.tax_rate !== null && isZeroRateCategory(code) && !line.tax_rate.isZero()) {
      problem(`items[${i}].tax_rate`, 'invalid', `category ${code} requires a 0.00 tax rate`);
    }
    if (line.tax_rate === null && !isZeroRateCategory(code)) {
      problem(`items[${i}].tax_rate`, 'missing', `tax_rate is required for VAT category ${code}`);
    }
    const { net: computed, unrounded } = lineNets(line);
    let net = computed;
    if (line.amount !== null) {
      if (line.unit_price !== null && absDiff(line.amount, unrounded).gt('0.02')) {
        problem(
          `items[${i}].amount`,
          'mismatch',
          `line amount ${line.amount.toFixed(2)} does not equal quantity x unit_price - allowances + charges = ${computed.toFixed(2)}`,
        );
      }
      net = line.amount;
    } else if (line.unit_price === null) {
      problem(`items[${i}].unit_price`, 'missing', 'unit_price or amount is required');
    }
    const checkAc = (a: AllowanceCharge, field: string): Decimal => {
      const amt = allowanceChargeAmount(a);
      if (amt === null) {
        problem(`${field}.amount`, 'missing', 'amount, or base_amount with multiplier_factor, is required');
        return ZERO;
      }
      checkMultiplier(a, field, problem);
      return amt;
    };
    return {
      net,
      tax_code: code,
      rate: effectiveRate(code, line.tax_rate),
      allowances: line.allowances.map((a, j) => checkAc(a, `items[${i}].allowances[${j}]`)),
      charges: line.charges.map((a, j) => checkAc(a, `items[${i}].charges[${j}]`)),
    };
  });

  // The only (category, rate) of the lines, used for document allowances that do not name theirs.
  const lineKeys = new Map(lines.map((l) => [keyOf(l.tax_code, l.rate), l] as const));
  const single = lineKeys.size === 1 ? [...lineKeys.values()][0]! : null;

  const docAc = (list: AllowanceCharge[], kind: 'allowances' | 'charges'): DocumentAllowanceChargeTotals[] =>
    list.map((a, i) => {
      const field = `${kind}[${i}]`;
      const amt = allowanceChargeAmount(a);
      if (amt === null)
        problem(`${field}.amount`, 'missing', 'amount, or base_amount with multiplier_factor, is required');
      checkMultiplier(a, field, problem);
      let code: TaxCode;
      let rate: Decimal | null;
      if (a.tax_code === null && a.tax_rate === null) {
        if (single) {
          code = single.tax_code;
          rate = single.rate;
        } else {
          problem(`${field}.tax_rate`, 'missing', 'tax_rate is required when the lines have more than one VAT rate');
          code = input.tax_code;
          rate = effectiveRate(code, ZERO);
        }
      } else {
        code = effectiveTaxCode(input.tax_code, a.tax_code, a.tax_rate);
        rate = effectiveRate(code, a.tax_rate ?? (isZeroRateCategory(code) ? ZERO : null));
        if (rate === null && code !== 'O')
          problem(`${field}.tax_rate`, 'missing', `tax_rate is required for VAT category ${code}`);
      }
      return { amount: amt ?? ZERO, tax_code: code, rate };
    });
  const allowances = docAc(input.allowances, 'allowances');
  const charges = docAc(input.charges, 'charges');

  // --- VAT breakdown (BG-23): one entry per (category, rate), one per category for zero-rate ones.
  const groups = new Map<string, Group>();
  const group = (code: TaxCode, rate: Decimal | null): Group => {
    const k = keyOf(code, rate);
    let g = groups.get(k);
    if (!g) {
      g = { code, rate: effectiveRate(code, rate), taxable: ZERO, lines: 0 };
      groups.set(k, g);
    }
    return g;
  };
  for (const l of lines) {
    const g = group(l.tax_code, l.rate);
    g.taxable = g.taxable.plus(l.net);
    g.lines += 1;
  }
  for (const c of charges) group(c.tax_code, c.rate).taxable = group(c.tax_code, c.rate).taxable.plus(c.amount);
  for (const a of allowances) group(a.tax_code, a.rate).taxable = group(a.tax_code, a.rate).taxable.minus(a.amount);

  const given = input.tax_details.map((t, i) => ({ t, i, used: false }));
  const findGiven = (g: Group): { t: TaxDetail; i: number; used: boolean } | undefined =>
    given.find(
      (x) =>
        !x.used &&
        (x.t.tax_code === null || x.t.tax_code === g.code) &&
        (g.rate === null ? x.t.rate === null || x.t.rate.isZero() : x.t.rate !== null && x.t.rate.eq(g.rate)),
    );

  const breakdown: VatBreakdownEntry[] = [];
  const order = new Map<number, number>();
  for (const g of groups.values()) {
    let taxable = round2(g.taxable);
    let tax = g.rate === null || isZeroRateCategory(g.code) ? ZERO : round2(taxable.times(g.rate).div(hundred));
    const match = findGiven(g);
    if (match) {
      match.used = true;
      const field = `tax_details[${match.i}]`;
      if (match.t.taxable_amount !== null) {
        const ok = isZeroRateCategory(g.code)
          ? match.t.taxable_amount.eq(taxable)
          : absDiff(match.t.taxable_amount, taxable).lte(mode === 'rules' ? '0.99' : '0');
        if (ok) taxable = match.t.taxable_amount;
        else
          problem(
            `${field}.taxable_amount`,
            'mismatch',
            `taxable amount ${match.t.taxable_amount.toFixed(2)} does not equal the sum of the lines ${taxable.toFixed(2)}`,
          );
      }
      if (match.t.amount !== null) {
        if (absDiff(match.t.amount, tax).lte(noVatRounding(mode, g.code, g.rate) ? ZERO : tolerance(mode, g.lines))) {
          tax = match.t.amount;
        } else {
          problem(
            `${field}.amount`,
            'mismatch',
            `VAT amount ${match.t.amount.toFixed(2)} does not match ${tax.toFixed(2)} computed for rate ${g.rate?.toFixed(2) ?? 'none'}`,
          );
        }
      }
    }
    order.set(breakdown.length, match ? match.i : given.length + breakdown.length);
    breakdown.push({
      tax_code: g.code,
      rate: g.rate,
      taxable_amount: taxable,
      tax_amount: tax,
      exemption_reason_code: null,
      exemption_reason: null,
    });
  }
  for (const x of given) {
    if (x.used) continue;
    // An entry with nothing in it (e.g. an E entry of 0.00 in a received document) is harmless; keep it.
    const empty = (x.t.taxable_amount?.isZero() ?? false) && (x.t.amount?.isZero() ?? true) && x.t.tax_code !== null;
    if (mode === 'rules' && empty) {
      order.set(breakdown.length, x.i);
      breakdown.push({
        tax_code: x.t.tax_code!,
        rate: effectiveRate(x.t.tax_code!, x.t.rate),
        taxable_amount: ZERO,
        tax_amount: ZERO,
        exemption_reason_code: null,
        exemption_reason: null,
      });
    } else {
      problem(
        `tax_details[${x.i}]`,
        'mismatch',
        `no line or allowance/charge has VAT rate ${x.t.rate?.toFixed(2) ?? 'none'}${x.t.tax_code ? ` in category ${x.t.tax_code}` : ''}`,
      );
    }
  }
  // Keep the caller's order of the breakdown; entries they did not give follow in line order.
  const sorted = breakdown
    .map((b, i) => ({ b, k: order.get(i)! }))
    .sort((x, y) => x.k - y.k)
    .map((x) => x.b);
  breakdown.splice(0, breakdown.length, ...sorted);

  // A total VAT amount given without a breakdown: accept the caller's figure within the per-line
  // rounding tolerance and carry the difference on the largest rated entry, so the breakdown still adds up.
  const computedTax = sum(breakdown.map((b) => b.tax_amount));
  if (input.total_tax !== null && !input.total_tax.eq(computedTax)) {
    const rated = breakdown.filter((b) => !noVatRounding(mode, b.tax_code, b.rate) && b.rate !== null);
    const largest = rated.sort((a, b) => b.taxable_amount.comparedTo(a.taxable_amount))[0];
    const diff = input.total_tax.minus(computedTax);
    if (largest && input.tax_details.length === 0 && diff.abs().lte(tolerance(mode, lines.length))) {
      largest.tax_amount = largest.tax_amount.plus(diff);
    } else {
      problem(
        'total_tax',
        'mismatch',
        `total_tax ${input.total_tax.toFixed(2)} does not equal the VAT breakdown total ${computedTax.toFixed(2)}`,
      );
    }
  }

  assignExemptionReasons(input, breakdown, lines, allowances, charges, mode === 'strict' ? problems : []);

  // --- document totals (BG-22)
  const line_total = sum(lines.map((l) => l.net));
  const allowance_total = sum(allowances.map((a) => a.amount));
  const charge_total = sum(charges.map((c) => c.amount));
  const tax_exclusive = line_total.minus(allowance_total).plus(charge_total);
  const tax_total = sum(breakdown.map((b) => b.tax_amount));
  const tax_inclusive = tax_exclusive.plus(tax_total);
  const rounding = ZERO;
  let payable: Decimal;
  if (input.amount_due !== null) payable = input.amount_due;
  else payable = tax_inclusive.plus(input.previous_unpaid_balance ?? ZERO);
  const prepaid = tax_inclusive.plus(rounding).minus(payable);

  if (input.subtotal !== null && !input.subtotal.eq(tax_exclusive)) {
    problem(
      'subtotal',
      'mismatch',
      `subtotal ${input.subtotal.toFixed(2)} does not equal lines - allowances + charges = ${tax_exclusive.toFixed(2)}`,
    );
  }
  if (input.total_discount !== null && !input.total_discount.isZero()) {
    problem(
      'total_discount',
      'invalid',
      'EN 16931 has no allowances or charges outside VAT: give them in allowances/charges with a tax_code',
    );
  }
  if (input.invoice_total !== null && !input.invoice_total.eq(tax_inclusive)) {
    problem(
      'invoice_total',
      'mismatch',
      `invoice_total ${input.invoice_total.toFixed(2)} does not equal subtotal + total_tax = ${tax_inclusive.toFixed(2)}`,
    );
  }

  const totals: DocumentTotals = {
    lines,
    allowances,
    charges,
    line_total,
    allowance_total,
    charge_total,
    tax_exclusive,
    tax_total,
    tax_inclusive,
    prepaid,
    rounding,
    payable,
    breakdown,
  };

  const document: Document = {
    ...input,
    items: input.items.map((line, i) => {
      const l = lines[i]!;
      const lineTax = l.rate === null ? ZERO : round2(l.net.times(l.rate).div(hundred));
      if (line.tax !== null && absDiff(line.tax, lineTax).gt('0.01')) {
        problem(
          `items[${i}].tax`,
          'mismatch',
          `line tax ${line.tax.toFixed(2)} does not equal amount x tax_rate = ${lineTax.toFixed(2)}`,
        );
      }
      return {
        ...line,
        amount: l.net,
        tax: line.tax ?? lineTax,
        allowances: line.allowances.map((a, j) => ({ ...a, amount: l.allowances[j]! })),
        charges: line.charges.map((a, j) => ({ ...a, amount: l.charges[j]! })),
      };
    }),
    allowances: input.allowances.map((a, i) => ({ ...a, amount: allowances[i]!.amount })),
    charges: input.charges.map((a, i) => ({ ...a, amount: charges[i]!.amount })),
    subtotal: tax_exclusive,
    total_discount: input.total_discount ?? ZERO,
    total_tax: tax_total,
    invoice_total: tax_inclusive,
    amount_due: payable,
    tax_details: breakdown.map((b) => ({
      amount: b.tax_amount,
      rate: b.rate,
      tax_code: b.tax_code,
      taxable_amount: b.taxable_amount,
    })),
  };
  return { document, totals, problems };
};

const checkMultiplier = (
  a: AllowanceCharge,
  field: string,
  problem: (field: string, type: FieldProblem['type'], message: string) => void,
): void => {
  if (a.amount !== null && a.base_amount !== null && a.multiplier_factor !== null) {
    const expected = a.base_amount.times(a.multiplier_factor).div(hundred);
    // PEPPOL-EN16931-R040: within 0.02 inclusive, no rounding.
    if (absDiff(a.amount, expected).gt('0.02')) {
      problem(
        `${field}.amount`,
        'mismatch',
        `amount ${a.amount.toFixed(2)} does not equal base_amount x multiplier_factor / 100 = ${round2(expected).toFixed(2)}`,
      );
    }
  }
};

/**
 * Exempt categories need a reason (BR-E-10, BR-AE-10, BR-IC-10, BR-G-10, BR-O-10), and the reason is a
 * legal statement only the seller can make: it is never filled in for them. The document's vatex /
 * vatex_note go on the category they belong to; an exempt category without a stated reason is a
 * problem naming the field to fill (vatex, or the line of a second exempt category, which a document
 * that carries one reason cannot state). A document read from UBL ('rules') keeps what its sender
 * wrote: a missing reason there is the rule engine's to report.
 */
const assignExemptionReasons = (
  doc: Document,
  breakdown: VatBreakdownEntry[],
  lines: LineTotals[],
  allowances: DocumentAllowanceChargeTotals[],
  charges: DocumentAllowanceChargeTotals[],
  problems: FieldProblem[],
): void => {
  const exempt = breakdown.filter((b) => EXEMPT_TAX_CODES.includes(b.tax_code));
  if (exempt.length === 0) return;
  const preferred: TaxCode | null = doc.vatex
    ? vatexCategory(doc.vatex)
    : EXEMPT_TAX_CODES.includes(doc.tax_code)
      ? doc.tax_code
      : null;
  const target =
    exempt.find((b) => b.tax_code === preferred) ?? exempt.find((b) => b.tax_code === doc.tax_code) ?? exempt[0]!;
  const stated = (doc.vatex ?? '').trim() !== '' || (doc.vatex_note ?? '').trim() !== '';
  /** Where the category comes from: its first line, else its first document allowance or charge. */
  const sourceOf = (code: TaxCode): string => {
    const line = lines.findIndex((l) => l.tax_code === code);
    if (line >= 0) return `items[${line}]`;
    const allowance = allowances.findIndex((a) => a.tax_code === code);
    if (allowance >= 0) return `allowances[${allowance}]`;
    const charge = charges.findIndex((c) => c.tax_code === code);
    return charge >= 0 ? `charges[${charge}]` : 'tax_details';
  };
  for (const b of exempt) {
    const rule = EXEMPTION_REASON_RULE[b.tax_code]!;
    if (b === target && stated) {
      b.exemption_reason_code = doc.vatex;
      b.exemption_reason = doc.vatex_note;
    } else if (b === target) {
      problems.push({
        field: 'vatex',
        type: 'missing',
        rule_id: rule,
        message: `VAT category ${b.tax_code} (${sourceOf(b.tax_code)}) requires an exemption reason: give vatex (a VATEX code) or vatex_note (the reason text); none is filled in for you`,
      });
    } else {
      const source = sourceOf(b.tax_code);
      problems.push({
        field: source === 'tax_details' ? 'tax_details' : `${source}.tax_code`,
        type: 'invalid',
        rule_id: rule,
        message: `VAT category ${b.tax_code} requires its own exemption reason, but a document states one (vatex / vatex_note), which is for category ${target.tax_code}: put the category ${b.tax_code} lines in a separate document with their vatex or vatex_note`,
      });
    }
  }
};
