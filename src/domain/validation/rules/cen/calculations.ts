// EN 16931 calculation and consistency rules BR-CO-*.
import { Ctx, cenChargeIndicator, isVatScheme, rule, vatIds } from '../../context.js';
import { Decimal, dec, round0, round2, sum } from '../../decimal.js';
import { all, attr, has, kid, kids, str, type XNode } from '../../../xml/xmlTree.js';
import { anyLines, hasReason } from './core.js';
import { untypedPositive } from './untypedNumbers.js';

const R = {
  CO03: rule(
    'BR-CO-03',
    'fatal',
    'Value added tax point date (BT-7) and Value added tax point date code (BT-8) are mutually exclusive.',
  ),
  CO04: rule(
    'BR-CO-04',
    'fatal',
    'Each Invoice line (BG-25) shall be categorized with an Invoiced item VAT category code (BT-151).',
  ),
  CO09: rule(
    'BR-CO-09',
    'fatal',
    'The Seller VAT identifier (BT-31), the Seller tax representative VAT identifier (BT-63) and the Buyer VAT identifier (BT-48) shall have a prefix in accordance with ISO code ISO 3166-1 alpha-2 by which the country of issue may be identified. Nevertheless, Greece may use the prefix ‘EL’.',
  ),
  CO10: rule('BR-CO-10', 'fatal', 'Sum of Invoice line net amount (BT-106) = Σ Invoice line net amount (BT-131).'),
  CO11: rule(
    'BR-CO-11',
    'fatal',
    'Sum of allowances on document level (BT-107) = Σ Document level allowance amount (BT-92).',
  ),
  CO12: rule(
    'BR-CO-12',
    'fatal',
    'Sum of charges on document level (BT-108) = Σ Document level charge amount (BT-99).',
  ),
  CO13: rule(
    'BR-CO-13',
    'fatal',
    'Invoice total amount without VAT (BT-109) = Σ Invoice line net amount (BT-131) - Sum of allowances on document level (BT-107) + Sum of charges on document level (BT-108).',
  ),
  CO14: rule('BR-CO-14', 'fatal', 'Invoice total VAT amount (BT-110) = Σ VAT category tax amount (BT-117).'),
  CO15: rule(
    'BR-CO-15',
    'fatal',
    'Invoice total amount with VAT (BT-112) = Invoice total amount without VAT (BT-109) + Invoice total VAT amount (BT-110).',
  ),
  CO16: rule(
    'BR-CO-16',
    'fatal',
    'Amount due for payment (BT-115) = Invoice total amount with VAT (BT-112) - Paid amount (BT-113) + Rounding amount (BT-114).',
  ),
  CO17: rule(
    'BR-CO-17',
    'fatal',
    'VAT category tax amount (BT-117) = VAT category taxable amount (BT-116) x (VAT category rate (BT-119) / 100), rounded to two decimals.',
  ),
  CO18: rule('BR-CO-18', 'fatal', 'An Invoice shall at least have one VAT breakdown group (BG-23).'),
  CO19: rule(
    'BR-CO-19',
    'fatal',
    'If Invoicing period (BG-14) is used, the Invoicing period start date (BT-73) or the Invoicing period end date (BT-74) shall be filled, or both.',
  ),
  CO20: rule(
    'BR-CO-20',
    'fatal',
    'If Invoice line period (BG-26) is used, the Invoice line period start date (BT-134) or the Invoice line period end date (BT-135) shall be filled, or both.',
  ),
  CO21: rule(
    'BR-CO-21',
    'fatal',
    'Each Document level allowance (BG-20) shall contain a Document level allowance reason (BT-97) or a Document level allowance reason code (BT-98), or both.',
  ),
  CO22: rule(
    'BR-CO-22',
    'fatal',
    'Each Document level charge (BG-21) shall contain a Document level charge reason (BT-104) or a Document level charge reason code (BT-105), or both.',
  ),
  CO23: rule(
    'BR-CO-23',
    'fatal',
    'Each Invoice line allowance (BG-27) shall contain an Invoice line allowance reason (BT-139) or an Invoice line allowance reason code (BT-140), or both.',
  ),
  CO24: rule(
    'BR-CO-24',
    'fatal',
    'Each Invoice line charge (BG-28) shall contain an Invoice line charge reason (BT-144) or an Invoice line charge reason code (BT-145), or both.',
  ),
  CO25: rule(
    'BR-CO-25',
    'fatal',
    'In case the Amount due for payment (BT-115) is positive, either the Payment due date (BT-9) or the Payment terms (BT-20) shall be present.',
  ),
  CO26: rule(
    'BR-CO-26',
    'fatal',
    'In order for the buyer to automatically identify a supplier, the Seller identifier (BT-29), the Seller legal registration identifier (BT-30) and/or the Seller VAT identifier (BT-31) shall be present.',
  ),
};

/** `a` is present and equals the computed `b` (a comparison with a missing value is false). */
function eq(a: Decimal | null, b: Decimal): boolean {
  return a !== null && a.eq(b);
}

/** Document-level allowances (false) or charges (true), ChargeIndicator read as xs:boolean. */
export function docAllowanceCharges(ctx: Ctx, charge: boolean): XNode[] {
  return kids(ctx.root, 'cac:AllowanceCharge').filter((ac) => cenChargeIndicator(ac) === charge);
}

/** BR-CO-10 … 13, inside cac:LegalMonetaryTotal (`lmt`). */
function monetaryTotalRules(ctx: Ctx, lmt: XNode): void {
  // Every invoice and credit note line of the document counts.
  const allLines = [...ctx.desc('cac:InvoiceLine'), ...ctx.desc('cac:CreditNoteLine')];
  const lea = dec(kid(lmt, 'cbc:LineExtensionAmount'));
  ctx.check(R.CO10, lmt, eq(lea, round2(sum(allLines.map((l) => kid(l, 'cbc:LineExtensionAmount'))))));

  const allowances = docAllowanceCharges(ctx, false);
  const charges = docAllowanceCharges(ctx, true);
  const allowTotalNode = kid(lmt, 'cbc:AllowanceTotalAmount');
  const chargeTotalNode = kid(lmt, 'cbc:ChargeTotalAmount');
  const allowTotal = dec(allowTotalNode);
  const chargeTotal = dec(chargeTotalNode);
  ctx.check(
    R.CO11,
    lmt,
    allowTotalNode ? eq(allowTotal, round2(sum(allowances.map((a) => kid(a, 'cbc:Amount'))))) : allowances.length === 0,
  );
  ctx.check(
    R.CO12,
    lmt,
    chargeTotalNode ? eq(chargeTotal, round2(sum(charges.map((a) => kid(a, 'cbc:Amount'))))) : charges.length === 0,
  );

  const taxExcl = dec(kid(lmt, 'cbc:TaxExclusiveAmount'));
  let co13 = false;
  if (lea && taxExcl) {
    if (!chargeTotalNode && !allowTotalNode) co13 = taxExcl.eq(lea);
    else {
      let expected = lea;
      if (chargeTotal) expected = expected.plus(chargeTotal);
      if (allowTotal) expected = expected.minus(allowTotal);
      co13 =
        (!chargeTotalNode || chargeTotal !== null) &&
        (!allowTotalNode || allowTotal !== null) &&
        taxExcl.eq(round2(expected));
    }
  }
  ctx.check(R.CO13, lmt, co13);
}

/** BR-CO-16, inside cac:LegalMonetaryTotal (`lmt`). */
function amountDueRule(ctx: Ctx, lmt: XNode): void {
  {
    const payable = dec(kid(lmt, 'cbc:PayableAmount'));
    const taxIncl = dec(kid(lmt, 'cbc:TaxInclusiveAmount'));
    const prepaidNode = kid(lmt, 'cbc:PrepaidAmount');
    const roundingNode = kid(lmt, 'cbc:PayableRoundingAmount');
    let ok = false;
    if (payable && taxIncl) {
      // With neither PrepaidAmount nor PayableRoundingAmount this is payable = taxIncl, unrounded.
      const prepaid = dec(prepaidNode);
      const rounding = dec(roundingNode);
      if ((!prepaidNode || prepaid) && (!roundingNode || rounding)) {
        const left = rounding ? round2(payable.minus(rounding)) : payable;
        const right = prepaid ? round2(taxIncl.minus(prepaid)) : taxIncl;
        ok = left.eq(right);
      }
    }
    ctx.check(R.CO16, lmt, ok);
  }
}

/**
 * BR-CO-09 as the official artefacts test it: the first two characters of the identifier are looked
 * for in the space-separated list of prefixes as text, so an empty or one-character identifier is
 * found in it (BR-CO-09 is not what refuses it).
 */
function vatPrefixListed(prefixes: ReadonlySet<string>, prefix: string): boolean {
  if (prefix.length === 2 && !prefix.includes(' ')) return prefixes.has(prefix);
  return ` ${[...prefixes].join(' ')} `.includes(prefix);
}

export function calculationRules(ctx: Ctx): void {
  const { root, lmt } = ctx;
  ctx.check(R.CO03, root, !(has(root, 'cbc:TaxPointDate') && has(root, 'cac:InvoicePeriod/cbc:DescriptionCode')));
  for (const line of anyLines(ctx)) {
    ctx.check(
      R.CO04,
      line,
      all(line, 'cac:Item/cac:ClassifiedTaxCategory').some((c) => isVatScheme(c) && has(c, 'cbc:ID')),
    );
    for (const p of kids(line, 'cac:InvoicePeriod'))
      ctx.check(R.CO20, p, has(p, 'cbc:StartDate') || has(p, 'cbc:EndDate'));
    for (const ac of kids(line, 'cac:AllowanceCharge')) {
      const ci = cenChargeIndicator(ac);
      if (ci === false) ctx.check(R.CO23, ac, hasReason(ac));
      else if (ci === true) ctx.check(R.CO24, ac, hasReason(ac));
    }
  }
  for (const pts of ctx.desc('cac:PartyTaxScheme')) {
    if (!isVatScheme(pts)) continue;
    for (const id of kids(pts, 'cbc:CompanyID'))
      ctx.check(R.CO09, id, vatPrefixListed(ctx.lists.vatIdPrefixes, str(id).slice(0, 2)));
  }

  // BR-CO-10 … 13 (and 16 below) are checks of the monetary totals: without them there is nothing to check
  // (BR-12 … BR-15 report what is missing).
  for (const totals of ctx.desc('cac:LegalMonetaryTotal')) monetaryTotalRules(ctx, totals);

  const taxExcl = dec(kid(lmt, 'cbc:TaxExclusiveAmount'));
  for (const tt of ctx.desc('cac:TaxTotal')) {
    const subs = kids(tt, 'cac:TaxSubtotal');
    if (subs.length === 0) continue;
    ctx.check(R.CO14, tt, eq(dec(kid(tt, 'cbc:TaxAmount')), round2(sum(subs.map((s) => kid(s, 'cbc:TaxAmount'))))));
  }

  for (const cur of kids(root, 'cbc:DocumentCurrencyCode')) {
    const c = str(cur);
    const amounts = kids(root, 'cac:TaxTotal').flatMap((tt) =>
      kids(tt, 'cbc:TaxAmount').filter((a) => attr(a, 'currencyID') === c),
    );
    const taxIncl = dec(kid(lmt, 'cbc:TaxInclusiveAmount'));
    const ta = amounts.length === 1 ? dec(amounts[0]) : null;
    ctx.check(R.CO15, root, taxExcl !== null && ta !== null && eq(taxIncl, round2(taxExcl.plus(ta))));
  }

  for (const totals of ctx.desc('cac:LegalMonetaryTotal')) amountDueRule(ctx, totals);

  for (const st of ctx.desc('cac:TaxSubtotal')) {
    if (st.parent?.name !== 'cac:TaxTotal') continue;
    // The rate of the VAT category only: a category without the VAT scheme has none here.
    const rateNode = kids(st, 'cac:TaxCategory')
      .filter(isVatScheme)
      .flatMap((c) => kids(c, 'cbc:Percent'))[0];
    const rate = dec(rateNode);
    const taxAmount = dec(kid(st, 'cbc:TaxAmount'));
    const taxable = dec(kid(st, 'cbc:TaxableAmount'));
    let ok: boolean;
    if (!rateNode) ok = taxAmount !== null && round0(taxAmount).isZero();
    else if (rate === null) ok = false;
    else if (round0(rate).isZero()) ok = taxAmount !== null && round0(taxAmount).isZero();
    else if (taxAmount === null || taxable === null) ok = false;
    else {
      const expected = round2(taxable.abs().times(rate.div(100)));
      const diff = taxAmount.abs().minus(expected);
      ok = diff.abs().lt(1);
    }
    ctx.check(R.CO17, st, ok);
  }

  ctx.check(R.CO18, root, has(root, 'cac:TaxTotal/cac:TaxSubtotal'));
  for (const p of kids(root, 'cac:InvoicePeriod'))
    ctx.check(R.CO19, p, has(p, 'cbc:StartDate') || has(p, 'cbc:EndDate') || has(p, 'cbc:DescriptionCode'));
  for (const ac of docAllowanceCharges(ctx, false)) ctx.check(R.CO21, ac, hasReason(ac));
  for (const ac of docAllowanceCharges(ctx, true)) ctx.check(R.CO22, ac, hasReason(ac));

  // BR-CO-25 (a positive amount due needs a due date or payment terms) was withdrawn in CEN 1.3.16.
  // Until then: a due date or a payment terms note anywhere in the invoice, even an empty one.
  if (ctx.kind === 'Invoice' && !ctx.cenFrom('1.3.16')) {
    const dueOrTerms =
      ctx.desc('cbc:DueDate').length > 0 || ctx.desc('cbc:Note').some((n) => n.parent?.name === 'cac:PaymentTerms');
    for (const payable of kids(lmt, 'cbc:PayableAmount'))
      if (untypedPositive(str(payable))) ctx.check(R.CO25, payable, dueOrTerms);
  }

  for (const asp of kids(root, 'cac:AccountingSupplierParty')) {
    const party = kid(asp, 'cac:Party');
    ctx.check(
      R.CO26,
      asp,
      vatIds(party).length > 0 ||
        // From CEN 1.3.16 a SEPA creditor identifier is not a seller identifier.
        all(party, 'cac:PartyIdentification/cbc:ID').some(
          (id) => !ctx.cenFrom('1.3.16') || attr(id, 'schemeID') !== 'SEPA',
        ) ||
        has(party, 'cac:PartyLegalEntity/cbc:CompanyID'),
    );
  }
}
