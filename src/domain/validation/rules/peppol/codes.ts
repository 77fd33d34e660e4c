// Peppol code-list, date-format and profile/type-code rules (CL*, F001, P01xx).
import { Ctx, rule } from '../../context.js';
import { attr, kid, kids, normSpace, str } from '../../../xml/xmlTree.js';
import { buyerCountry, profileOf, sellerCountry } from './shared.js';

const R = {
  CL001: rule('PEPPOL-EN16931-CL001', 'fatal', 'Mime code must be according to subset of IANA code list.'),
  CL002: rule('PEPPOL-EN16931-CL002', 'fatal', 'Reason code MUST be according to subset of UNCL 5189 D.16B.'),
  CL003: rule('PEPPOL-EN16931-CL003', 'fatal', 'Reason code MUST be according to UNCL 7161 D.16B.'),
  CL006: rule('PEPPOL-EN16931-CL006', 'fatal', 'Invoice period description code must be according to UNCL 2005 D.16B.'),
  CL007: rule('PEPPOL-EN16931-CL007', 'fatal', 'Currency code must be according to ISO 4217:2005'),
  CL008: rule(
    'PEPPOL-EN16931-CL008',
    'fatal',
    'Electronic address identifier scheme must be from the codelist "Electronic Address Identifier Scheme"',
  ),
  F001: rule('PEPPOL-EN16931-F001', 'fatal', 'A date MUST be formatted YYYY-MM-DD.'),
  P0100: rule('PEPPOL-EN16931-P0100', 'fatal', 'Invoice type code MUST be set according to the profile.'),
  P0101: rule('PEPPOL-EN16931-P0101', 'fatal', 'Credit note type code MUST be set according to the profile.'),
  R051: rule(
    'PEPPOL-EN16931-R051',
    'fatal',
    'All currencyID attributes MUST have the same value as the invoice currency code (BT-5), except for the invoice total VAT amount in accounting currency (BT-111).',
  ),
  P0112: rule(
    'PEPPOL-EN16931-P0112',
    'fatal',
    'Invoice type code 326 or 384 are only allowed when both buyer and seller are German organizations',
  ),
};

/** P0104-P0111: VATEX code → required TaxCategory id. */
const EXEMPTION_CATEGORY: [string, string, string][] = [
  ['P0104', 'VATEX-EU-G', 'G'],
  ['P0105', 'VATEX-EU-O', 'O'],
  ['P0106', 'VATEX-EU-IC', 'K'],
  ['P0107', 'VATEX-EU-AE', 'AE'],
  ['P0108', 'VATEX-EU-D', 'E'],
  ['P0109', 'VATEX-EU-F', 'E'],
  ['P0110', 'VATEX-EU-I', 'E'],
  ['P0111', 'VATEX-EU-J', 'E'],
];
const EXEMPTION_RULES = EXEMPTION_CATEGORY.map(([p, code, cat]) => ({
  rule: rule(
    `PEPPOL-EN16931-${p}`,
    'fatal',
    `Tax exemption reason code ${code} is only allowed with VAT category code ${cat}.`,
  ),
  code,
  cat,
}));

const CURRENCY_AMOUNTS = new Set([
  'cbc:Amount',
  'cbc:BaseAmount',
  'cbc:PriceAmount',
  'cbc:TaxAmount',
  'cbc:TaxableAmount',
  'cbc:LineExtensionAmount',
  'cbc:TaxExclusiveAmount',
  'cbc:TaxInclusiveAmount',
  'cbc:AllowanceTotalAmount',
  'cbc:ChargeTotalAmount',
  'cbc:PrepaidAmount',
  'cbc:PayableRoundingAmount',
  'cbc:PayableAmount',
]);
const DATES = new Set([
  'cbc:IssueDate',
  'cbc:DueDate',
  'cbc:TaxPointDate',
  'cbc:StartDate',
  'cbc:EndDate',
  'cbc:ActualDeliveryDate',
]);

export function isCalendarDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1]!;
  return d <= days;
}

/**
 * `selfBilling`: the document declares self-billing and the release has a self-billing Schematron
 * (3.0.21 on): R051 leaves the subtotal tax amounts alone, P0100/P0101 take the self-billing type
 * codes and bind profile 01 only, and P0112 does not apply.
 */
export function codeRules(ctx: Ctx, selfBilling: boolean): void {
  const { root } = ctx;
  const CL = ctx.lists;
  const docCurrency = kid(root, 'cbc:DocumentCurrencyCode');
  const docCur = docCurrency ? str(docCurrency) : undefined;
  for (const el of ctx.elements()) {
    const name = el.name;
    if (CURRENCY_AMOUNTS.has(name)) {
      const cur = attr(el, 'currencyID');
      ctx.check(R.CL007, el, cur !== undefined && CL.iso4217Peppol.has(cur));
      // R051: BT-111 (the TaxAmount of a TaxTotal without subtotals) may be in the tax currency;
      // the self-billing file does not check the subtotals' TaxAmount either.
      const exempt =
        name === 'cbc:TaxAmount' &&
        !(
          (el.parent?.name === 'cac:TaxSubtotal' && !selfBilling) ||
          (el.parent?.name === 'cac:TaxTotal' && kid(el.parent, 'cac:TaxSubtotal') !== undefined)
        );
      if (!exempt) ctx.check(R.R051, el, cur !== undefined && cur === docCur);
    } else if (DATES.has(name)) {
      const t = str(el);
      ctx.check(R.F001, el, t.length === 10 && isCalendarDate(t));
    }
    switch (name) {
      case 'cbc:EmbeddedDocumentBinaryObject': {
        const m = attr(el, 'mimeCode');
        if (m !== undefined) ctx.check(R.CL001, el, CL.mimeTypes.has(m));
        break;
      }
      case 'cbc:AllowanceChargeReasonCode': {
        const ci = el.parent?.name === 'cac:AllowanceCharge' ? str(kid(el.parent, 'cbc:ChargeIndicator')) : '';
        if (ci === 'false') ctx.check(R.CL002, el, CL.uncl5189Peppol.has(normSpace(str(el))));
        else if (ci === 'true') ctx.check(R.CL003, el, CL.uncl7161Peppol.has(normSpace(str(el))));
        break;
      }
      case 'cbc:DescriptionCode':
        if (el.parent?.name === 'cac:InvoicePeriod')
          ctx.check(R.CL006, el, CL.untdid2005Peppol.has(normSpace(str(el))));
        break;
      case 'cbc:EndpointID': {
        const s = attr(el, 'schemeID');
        if (s !== undefined) ctx.check(R.CL008, el, CL.easPeppol.has(s));
        break;
      }
      case 'cac:TaxCategory': {
        const code = kid(el, 'cbc:TaxExemptionReasonCode');
        if (!code) break;
        const upper = str(code).toUpperCase();
        for (const x of EXEMPTION_RULES)
          if (upper === x.code) ctx.check(x.rule, el, normSpace(str(kid(el, 'cbc:ID'))) === x.cat);
        break;
      }
      default:
        break;
    }
  }

  const profile = profileOf(ctx, selfBilling);
  // From 3.0.21 the type-code lists also bind profile 02 (billing with invoice response), but not
  // in self-billing.
  const typed = profile === '01' || (profile === '02' && ctx.peppolFrom('3.0.21') && !selfBilling);
  const invoiceTypes = selfBilling ? CL.peppolSelfBillingInvoiceTypes : CL.peppolInvoiceTypes;
  const creditNoteTypes = selfBilling ? CL.peppolSelfBillingCreditNoteTypes : CL.peppolCreditNoteTypes;
  for (const t of kids(root, 'cbc:InvoiceTypeCode')) {
    const code = normSpace(str(t));
    if (typed) ctx.check(R.P0100, t, invoiceTypes.has(code));
    if ((code === '326' || code === '384') && !selfBilling)
      ctx.check(R.P0112, t, sellerCountry(ctx) === 'DE' && buyerCountry(ctx) === 'DE');
  }
  for (const t of kids(root, 'cbc:CreditNoteTypeCode'))
    if (typed) ctx.check(R.P0101, t, creditNoteTypes.has(normSpace(str(t))));
}
