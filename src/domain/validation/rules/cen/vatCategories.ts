// EN 16931 VAT category rules (BR-S, BR-Z, BR-E, BR-AE, BR-IC, BR-G, BR-O, BR-AF, BR-AG, BR-B).
// The categories share one shape (rules -01 … -10); the table below captures how each differs.
import { Ctx, catId, cenChargeIndicator, isVatScheme, rule, vatIds, type Rule } from '../../context.js';
import { Decimal, dec, round2, sum } from '../../decimal.js';
import { all, has, kid, kids, str, type XNode } from '../../../xml/xmlTree.js';
import { shiftedInDouble, untypedNotNegative, untypedPositive } from './untypedNumbers.js';

type Presence = 'atLeastOneIfUsed' | 'exactlyOneIfOccurs';
type SellerIds =
  'anySellerOrRep' | 'anySellerOrRepPlusBuyerIdOrLegal' | 'vatSellerOrRepPlusBuyerVat' | 'vatSellerOrRep' | 'noVatIds';
type RateRule = 'positive' | 'zero' | 'absent' | 'nonNegative';
type Taxable = 'perRateWithin1MustExist' | 'perRateWithin1' | 'exact';
type TaxAmount = 'within1' | 'zero';

interface Category {
  code: string;
  prefix: string;
  name: string;
  presence: Presence;
  ids: SellerIds;
  rate: RateRule;
  taxable: Taxable;
  tax: TaxAmount;
  exemption: 'forbidden' | 'required';
}

const CATEGORIES: Category[] = [
  {
    code: 'S',
    prefix: 'BR-S',
    name: 'Standard rated',
    presence: 'atLeastOneIfUsed',
    ids: 'anySellerOrRep',
    rate: 'positive',
    taxable: 'perRateWithin1MustExist',
    tax: 'within1',
    exemption: 'forbidden',
  },
  {
    code: 'Z',
    prefix: 'BR-Z',
    name: 'Zero rated',
    presence: 'exactlyOneIfOccurs',
    ids: 'anySellerOrRep',
    rate: 'zero',
    taxable: 'exact',
    tax: 'zero',
    exemption: 'forbidden',
  },
  {
    code: 'E',
    prefix: 'BR-E',
    name: 'Exempt from VAT',
    presence: 'exactlyOneIfOccurs',
    ids: 'anySellerOrRep',
    rate: 'zero',
    taxable: 'exact',
    tax: 'zero',
    exemption: 'required',
  },
  {
    code: 'AE',
    prefix: 'BR-AE',
    name: 'Reverse charge',
    presence: 'exactlyOneIfOccurs',
    ids: 'anySellerOrRepPlusBuyerIdOrLegal',
    rate: 'zero',
    taxable: 'exact',
    tax: 'zero',
    exemption: 'required',
  },
  {
    code: 'K',
    prefix: 'BR-IC',
    name: 'Intra-community supply',
    presence: 'exactlyOneIfOccurs',
    ids: 'vatSellerOrRepPlusBuyerVat',
    rate: 'zero',
    taxable: 'exact',
    tax: 'zero',
    exemption: 'required',
  },
  {
    code: 'G',
    prefix: 'BR-G',
    name: 'Export outside the EU',
    presence: 'exactlyOneIfOccurs',
    ids: 'vatSellerOrRep',
    rate: 'zero',
    taxable: 'exact',
    tax: 'zero',
    exemption: 'required',
  },
  {
    code: 'O',
    prefix: 'BR-O',
    name: 'Not subject to VAT',
    presence: 'exactlyOneIfOccurs',
    ids: 'noVatIds',
    rate: 'absent',
    taxable: 'exact',
    tax: 'zero',
    exemption: 'required',
  },
  {
    code: 'L',
    prefix: 'BR-AF',
    name: 'IGIC',
    presence: 'atLeastOneIfUsed',
    ids: 'anySellerOrRep',
    rate: 'nonNegative',
    taxable: 'perRateWithin1',
    tax: 'within1',
    exemption: 'forbidden',
  },
  {
    code: 'M',
    prefix: 'BR-AG',
    name: 'IPSI',
    presence: 'atLeastOneIfUsed',
    ids: 'anySellerOrRep',
    rate: 'nonNegative',
    taxable: 'perRateWithin1',
    tax: 'within1',
    exemption: 'forbidden',
  },
];

function rulesOf(c: Category): Rule[] {
  const n = (i: number) => `${c.prefix}-${String(i).padStart(2, '0')}`;
  const msg: Record<number, string> = {
    1: `An Invoice that uses VAT category "${c.name}" (${c.code}) shall contain ${c.presence === 'atLeastOneIfUsed' ? 'at least one' : 'exactly one'} VAT breakdown (BG-23) with that category code; one that does not use it shall contain none.`,
    2: `An Invoice line with VAT category "${c.name}" (${c.code}) requires the seller/buyer VAT identifiers of that category.`,
    3: `A Document level allowance with VAT category "${c.name}" (${c.code}) requires the seller/buyer VAT identifiers of that category.`,
    4: `A Document level charge with VAT category "${c.name}" (${c.code}) requires the seller/buyer VAT identifiers of that category.`,
    5: `In an Invoice line where the Invoiced item VAT category code (BT-151) is "${c.name}" the VAT rate (BT-152) is not valid for that category.`,
    6: `In a Document level allowance where the VAT category code (BT-95) is "${c.name}" the VAT rate (BT-96) is not valid for that category.`,
    7: `In a Document level charge where the VAT category code (BT-102) is "${c.name}" the VAT rate (BT-103) is not valid for that category.`,
    8: `The VAT category taxable amount (BT-116) of the "${c.name}" VAT breakdown does not match the line net amounts plus charges minus allowances of that category.`,
    9: `The VAT category tax amount (BT-117) of the "${c.name}" VAT breakdown is not valid for that category.`,
    10: `A VAT breakdown with VAT category "${c.name}" ${c.exemption === 'required' ? 'shall have a VAT exemption reason code (BT-121) or reason text (BT-120)' : 'shall not have a VAT exemption reason code (BT-121) or reason text (BT-120)'}.`,
  };
  return Array.from({ length: 10 }, (_, i) => rule(n(i + 1), 'fatal', msg[i + 1]!));
}

const O_EXTRA = {
  O11: rule(
    'BR-O-11',
    'fatal',
    'An Invoice that contains a VAT breakdown group with category "Not subject to VAT" shall not contain other VAT breakdown groups.',
  ),
  O12: rule(
    'BR-O-12',
    'fatal',
    'An Invoice that contains a VAT breakdown group with category "Not subject to VAT" shall not contain an Invoice line with another Invoiced item VAT category code.',
  ),
  O13: rule(
    'BR-O-13',
    'fatal',
    'An Invoice that contains a VAT breakdown group with category "Not subject to VAT" shall not contain Document level allowances with another VAT category code.',
  ),
  O14: rule(
    'BR-O-14',
    'fatal',
    'An Invoice that contains a VAT breakdown group with category "Not subject to VAT" shall not contain Document level charges with another VAT category code.',
  ),
};
const IC11 = rule(
  'BR-IC-11',
  'fatal',
  'In an Invoice with a VAT breakdown (BG-23) where the VAT category code (BT-118) is "Intra-community supply" the Actual delivery date (BT-72) or the Invoicing period (BG-14) shall not be blank.',
);
const IC12 = rule(
  'BR-IC-12',
  'fatal',
  'In an Invoice with a VAT breakdown (BG-23) where the VAT category code (BT-118) is "Intra-community supply" the Deliver to country code (BT-80) shall not be blank.',
);
const B01 = rule(
  'BR-B-01',
  'fatal',
  'An Invoice where the VAT category code (BT-151, BT-95 or BT-102) is "Split payment" shall be a domestic Italian invoice.',
);
const B02 = rule(
  'BR-B-02',
  'fatal',
  'An Invoice that contains an item, an allowance, or a charge at document level, where the VAT category code is "Split payment" shall not contain an item, an allowance, or a charge at document level where the VAT category code is "Standard rated".',
);

interface Facts {
  lineCats: { line: XNode; tc: XNode }[]; // line ClassifiedTaxCategory with VAT scheme
  acCats: { ac: XNode; tc: XNode; charge: boolean | undefined }[]; // any-level AllowanceCharge/TaxCategory with VAT scheme
  subtotalCats: { st: XNode; tc: XNode }[]; // breakdown TaxCategory with VAT scheme
  allTaxCats: XNode[]; // every cac:TaxCategory with VAT scheme
  allClassified: XNode[]; // every cac:ClassifiedTaxCategory with VAT scheme
  anySellerId: boolean;
  sellerVat: boolean;
  repVat: boolean;
  buyerVat: boolean;
  buyerLegal: boolean;
}

function facts(ctx: Ctx): Facts {
  const lineCats: Facts['lineCats'] = [];
  for (const line of ctx.lines)
    for (const tc of all(line, 'cac:Item/cac:ClassifiedTaxCategory')) if (isVatScheme(tc)) lineCats.push({ line, tc });
  const acCats: Facts['acCats'] = [];
  for (const ac of ctx.desc('cac:AllowanceCharge'))
    for (const tc of kids(ac, 'cac:TaxCategory'))
      if (isVatScheme(tc)) acCats.push({ ac, tc, charge: cenChargeIndicator(ac) });
  const subtotalCats: Facts['subtotalCats'] = [];
  for (const st of all(ctx.root, 'cac:TaxTotal/cac:TaxSubtotal'))
    for (const tc of kids(st, 'cac:TaxCategory')) if (isVatScheme(tc)) subtotalCats.push({ st, tc });
  return {
    lineCats,
    acCats,
    subtotalCats,
    allTaxCats: ctx.desc('cac:TaxCategory').filter(isVatScheme),
    allClassified: ctx.desc('cac:ClassifiedTaxCategory').filter(isVatScheme),
    anySellerId: has(ctx.seller, 'cac:PartyTaxScheme/cbc:CompanyID'),
    sellerVat: vatIds(ctx.seller).length > 0,
    repVat: vatIds(ctx.taxRep).length > 0,
    buyerVat: vatIds(ctx.buyer).length > 0,
    buyerLegal: has(ctx.buyer, 'cac:PartyLegalEntity/cbc:CompanyID'),
  };
}

function idsOk(f: Facts, ids: SellerIds): boolean {
  switch (ids) {
    case 'anySellerOrRep':
      return f.anySellerId || f.repVat;
    case 'anySellerOrRepPlusBuyerIdOrLegal':
      return (f.anySellerId || f.repVat) && (f.buyerVat || f.buyerLegal);
    case 'vatSellerOrRepPlusBuyerVat':
      return (f.sellerVat || f.repVat) && f.buyerVat;
    case 'vatSellerOrRep':
      return f.sellerVat || f.repVat;
    case 'noVatIds':
      return !f.sellerVat && !f.repVat && !f.buyerVat;
  }
}

function rateOk(tc: XNode, rr: RateRule): boolean {
  const p = kid(tc, 'cbc:Percent');
  if (rr === 'absent') return p === undefined;
  if (rr === 'zero') return dec(p)?.isZero() ?? false;
  // "Positive" and "not negative" are compared as doubles, as the artefacts do (any rate given will do).
  const rates = kids(tc, 'cbc:Percent').map(str);
  return rates.some(rr === 'positive' ? untypedPositive : untypedNotNegative);
}

/** Percent values of a category node (for per-rate matching). */
function rateOf(tc: XNode): Decimal | null {
  return dec(kid(tc, 'cbc:Percent'));
}

function categoryRules(ctx: Ctx, c: Category, f: Facts): void {
  const [r1, r2, r3, r4, r5, r6, r7, r8, r9, r10] = rulesOf(c) as [
    Rule,
    Rule,
    Rule,
    Rule,
    Rule,
    Rule,
    Rule,
    Rule,
    Rule,
    Rule,
  ];
  const is = (tc: XNode) => catId(tc) === c.code;
  const breakdown = f.subtotalCats.filter((s) => is(s.tc));

  // -01: presence of the category in the breakdown.
  if (c.presence === 'atLeastOneIfUsed') {
    // As the EN 16931 artefacts test it: for S without looking at the tax scheme at all; for L and M
    // the "used" side counts VAT categories only, and the breakdown is matched on the code as written
    // (L: of any scheme) when the category is used, trimmed and of the VAT scheme when it is not.
    const vat = c.code !== 'S';
    const ofCat = (tc: XNode) => is(tc) && (!vat || isVatScheme(tc));
    const used =
      ctx.desc('cac:AllowanceCharge').some((ac) => kids(ac, 'cac:TaxCategory').some(ofCat)) ||
      ctx.desc('cac:ClassifiedTaxCategory').some(ofCat);
    const rootBreakdown = all(ctx.root, 'cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory');
    const asWritten = (tc: XNode) =>
      kids(tc, 'cbc:ID').some((id) => str(id) === c.code) && (c.code !== 'M' || isVatScheme(tc));
    ctx.check(r1, ctx.root, used ? rootBreakdown.some(vat ? asWritten : ofCat) : !rootBreakdown.some(ofCat));
  } else {
    const occurs = f.allTaxCats.some(is) || f.allClassified.some(is);
    if (occurs) ctx.check(r1, ctx.root, breakdown.length === 1);
  }

  // -02 … -04: identifiers required (or forbidden) when the category is used.
  const idsFine = idsOk(f, c.ids);
  for (const l of f.lineCats) if (is(l.tc)) ctx.check(r2, l.line, idsFine);
  // BR-S-02 as the artefacts test it: an S item category outside the VAT scheme, with no S item
  // category of the VAT scheme, fails too.
  if (c.code === 'S' && !f.allClassified.some(is) && ctx.desc('cac:ClassifiedTaxCategory').some(is))
    ctx.fail(r2, ctx.root);
  // BR-AF-04 as the artefacts test it: only an L charge category written exactly 'L' requires the identifiers.
  const chargeIdsFine =
    idsFine ||
    (c.code === 'L' && !f.acCats.some((a) => a.charge === true && kids(a.tc, 'cbc:ID').some((id) => str(id) === 'L')));
  for (const a of f.acCats) {
    if (!is(a.tc)) continue;
    if (a.charge === false) ctx.check(r3, a.ac, idsFine);
    else if (a.charge === true) ctx.check(r4, a.ac, chargeIdsFine);
  }

  // -05 … -07: the rate.
  for (const l of f.lineCats) if (is(l.tc)) ctx.check(r5, l.tc, rateOk(l.tc, c.rate));
  for (const a of f.acCats) {
    if (!is(a.tc)) continue;
    if (a.charge === false) ctx.check(r6, a.tc, rateOk(a.tc, c.rate));
    else if (a.charge === true) ctx.check(r7, a.tc, rateOk(a.tc, c.rate));
  }

  // -08 … -10: each breakdown of this category.
  const docAcs = kids(ctx.root, 'cac:AllowanceCharge');
  const lineCat = (line: XNode) => all(line, 'cac:Item/cac:ClassifiedTaxCategory');
  const acCat = (ac: XNode) => kids(ac, 'cac:TaxCategory');
  for (const { st, tc } of breakdown) {
    const taxable = dec(kid(st, 'cbc:TaxableAmount'));
    // The artefacts compare with the invoice lines, and failing that with the credit note lines (each
    // alternative only when the document has such lines): a document matching either passes.
    const lineNames = ['cac:InvoiceLine', 'cac:CreditNoteLine'] as const;
    const expectedFor = (lineName: string, match: (t: XNode) => boolean): Decimal => {
      const lines = kids(ctx.root, lineName).filter((l) => lineCat(l).some(match));
      const charges = docAcs.filter((ac) => cenChargeIndicator(ac) === true && acCat(ac).some(match));
      const allowances = docAcs.filter((ac) => cenChargeIndicator(ac) === false && acCat(ac).some(match));
      return sum(lines.map((l) => kid(l, 'cbc:LineExtensionAmount')))
        .plus(sum(charges.map((a) => kid(a, 'cbc:Amount'))))
        .minus(sum(allowances.map((a) => kid(a, 'cbc:Amount'))));
    };
    if (c.taxable === 'exact') {
      const ofCat = (t: XNode) => catId(t) === c.code;
      ctx.check(
        r8,
        st,
        taxable !== null && lineNames.some((name) => ctx.desc(name).length > 0 && taxable.eq(expectedFor(name, ofCat))),
      );
    } else {
      const pn = kid(tc, 'cbc:Percent');
      if (pn) {
        const rate = rateOf(tc);
        const atRate = (t: XNode) => catId(t) === c.code && rate !== null && (rateOf(t)?.eq(rate) ?? false);
        // Within 1 of the expected amount, the taxable amount ± 1 computed in double precision as the
        // artefacts do: at the boundary (a difference of exactly 1) the official verdict depends on it.
        const text = str(kid(st, 'cbc:TaxableAmount'));
        const low = taxable === null ? null : shiftedInDouble(text, -1);
        const high = taxable === null ? null : shiftedInDouble(text, 1);
        const within = (expected: Decimal) => low !== null && high !== null && low.lt(expected) && high.gt(expected);
        const anyAtRate = ctx.desc('cac:AllowanceCharge').some((ac) => acCat(ac).some(atRate));
        const applies = (name: string) =>
          c.taxable === 'perRateWithin1MustExist'
            ? ctx.desc(name).some((l) => lineCat(l).some(atRate)) || anyAtRate
            : ctx.desc(name).length > 0;
        ctx.check(
          r8,
          st,
          rate !== null && lineNames.some((name) => applies(name) && within(expectedFor(name, atRate))),
        );
      }
    }

    const taxAmount = dec(kid(st, 'cbc:TaxAmount'));
    if (c.tax === 'zero') ctx.check(r9, st, taxAmount !== null && taxAmount.isZero());
    else {
      const rate = rateOf(tc);
      let ok = false;
      if (rate !== null && taxAmount !== null && taxable !== null) {
        const expected = round2(taxable.abs().times(rate).div(100));
        ok = taxAmount.abs().minus(expected).abs().lt(1);
      }
      ctx.check(r9, st, ok);
    }

    const hasExemption = has(tc, 'cbc:TaxExemptionReason') || has(tc, 'cbc:TaxExemptionReasonCode');
    ctx.check(r10, st, c.exemption === 'required' ? hasExemption : !hasExemption);
  }

  if (c.code === 'O' && breakdown.length > 0) {
    // Only categories of the VAT scheme count against O.
    ctx.check(
      O_EXTRA.O11,
      ctx.root,
      f.subtotalCats.every((s) => is(s.tc)),
    );
    ctx.check(O_EXTRA.O12, ctx.root, f.allClassified.every(is));
    const acsO = (charge: boolean) => f.acCats.filter((a) => a.charge === charge).every((a) => is(a.tc));
    ctx.check(O_EXTRA.O13, ctx.root, acsO(false));
    ctx.check(O_EXTRA.O14, ctx.root, acsO(true));
  }
  if (c.code === 'K' && breakdown.length > 0) {
    const deliveryDate = ctx
      .desc('cbc:ActualDeliveryDate')
      .some((d) => d.parent?.name === 'cac:Delivery' && str(d).length > 1);
    const period = kids(ctx.root, 'cac:InvoicePeriod').some((p) => p.children.length > 0);
    ctx.check(IC11, ctx.root, deliveryDate || period);
    const country = all(
      ctx.root,
      'cac:Delivery/cac:DeliveryLocation/cac:Address/cac:Country/cbc:IdentificationCode',
    ).some((n) => str(n).length > 1);
    ctx.check(IC12, ctx.root, country);
  }
}

function splitPayment(ctx: Ctx): void {
  // Codes compared as written (no whitespace trimming), as the EN 16931 artefacts do.
  const raw = (code: string) => (tc: XNode) => kids(tc, 'cbc:ID').some((id) => str(id) === code);
  const usesB = ctx.desc('cac:TaxCategory').some(raw('B')) || ctx.desc('cac:ClassifiedTaxCategory').some(raw('B'));
  if (usesB)
    ctx.check(
      B01,
      ctx.root,
      ctx.desc('cbc:IdentificationCode').every((n) => str(n) === 'IT'),
    );
  // BR-B-02 looks at the breakdown, the document allowances and charges and every item category.
  // Until CEN 1.3.15 the breakdown side of the S test named a path that does not exist (no S was seen there).
  const breakdown = all(ctx.root, 'cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory');
  const docAc = all(ctx.root, 'cac:AllowanceCharge/cac:TaxCategory');
  const classified = ctx.desc('cac:ClassifiedTaxCategory');
  const b = breakdown.some(raw('B')) || docAc.some(raw('B')) || classified.some(raw('B'));
  const s = (ctx.cenFrom('1.3.16') && breakdown.some(raw('S'))) || docAc.some(raw('S')) || classified.some(raw('S'));
  ctx.check(B02, ctx.root, !(b && s));
}

export function vatCategoryRules(ctx: Ctx): void {
  const f = facts(ctx);
  for (const c of CATEGORIES) categoryRules(ctx, c, f);
  splitPayment(ctx);
}
