// Dutch national rules (NL-R-*): seller postal country NL.
import { Ctx, rule } from '../../../context.js';
import { dec } from '../../../decimal.js';
import { all, attr, has, kids, normSpace, str, type XNode } from '../../../../xml/xmlTree.js';

const R = {
  R001: rule(
    'NL-R-001',
    'fatal',
    'For suppliers in the Netherlands, if the document is a creditnote, the document MUST contain an invoice reference (cac:BillingReference/cac:InvoiceDocumentReference/cbc:ID)',
  ),
  R002: rule(
    'NL-R-002',
    'fatal',
    "For suppliers in the Netherlands the supplier's address MUST contain street name, city and post code",
  ),
  R003: rule(
    'NL-R-003',
    'fatal',
    'For suppliers in the Netherlands, the legal entity identifier MUST be either a KVK or OIN number (schemeID 0106 or 0190)',
  ),
  R004: rule(
    'NL-R-004',
    'fatal',
    'For suppliers in the Netherlands, if the customer is in the Netherlands, the customer address MUST contain the street name, the city and post code',
  ),
  R005: rule(
    'NL-R-005',
    'fatal',
    "For suppliers in the Netherlands, if the customer is in the Netherlands, the customer's legal entity identifier MUST be either a KVK or OIN number (schemeID 0106 or 0190)",
  ),
  R006: rule(
    'NL-R-006',
    'fatal',
    "For suppliers in the Netherlands, if the fiscal representative is in the Netherlands, the representative's address MUST contain street name, city and post code",
  ),
  R007: rule(
    'NL-R-007',
    'fatal',
    'For suppliers in the Netherlands, the supplier MUST provide a means of payment (cac:PaymentMeans) if the payment is from customer to supplier',
  ),
  R008: rule(
    'NL-R-008',
    'fatal',
    'For suppliers in the Netherlands, the payment means code (cac:PaymentMeans/cbc:PaymentMeansCode) MUST be one of 30, 48, 49, 57, 58 or 59',
  ),
  R009: rule(
    'NL-R-009',
    'fatal',
    'For suppliers in the Netherlands, if an order line reference (cac:OrderLineReference/cbc:LineID) is used, there must be an order reference on the document level (cac:OrderReference/cbc:ID)',
  ),
};

const country = (n: XNode | undefined) =>
  normSpace(str(all(n, 'cac:PostalAddress/cac:Country/cbc:IdentificationCode')[0])).toUpperCase();
const addressOk = (a: XNode) => has(a, 'cbc:StreetName') && has(a, 'cbc:CityName') && has(a, 'cbc:PostalZone');
const kvkOrOin = (id: XNode) => ['0106', '0190'].includes(attr(id, 'schemeID') ?? '') && normSpace(str(id)) !== '';
const NL_MEANS = new Set(['30', '48', '49', '57', '58', '59']);

export function nlRules(ctx: Ctx): void {
  const { root, seller, buyer, taxRep } = ctx;
  if (country(seller) !== 'NL') return;
  const customerNL = country(buyer) === 'NL';
  for (const t of kids(root, 'cbc:CreditNoteTypeCode'))
    ctx.check(R.R001, t, has(root, 'cac:BillingReference/cac:InvoiceDocumentReference/cbc:ID'));
  for (const a of kids(seller, 'cac:PostalAddress')) ctx.check(R.R002, a, addressOk(a));
  for (const id of all(seller, 'cac:PartyLegalEntity/cbc:CompanyID')) ctx.check(R.R003, id, kvkOrOin(id));
  if (customerNL) {
    for (const a of kids(buyer, 'cac:PostalAddress')) ctx.check(R.R004, a, addressOk(a));
    for (const id of all(buyer, 'cac:PartyLegalEntity/cbc:CompanyID')) ctx.check(R.R005, id, kvkOrOin(id));
  }
  if (country(taxRep) === 'NL') for (const a of kids(taxRep, 'cac:PostalAddress')) ctx.check(R.R006, a, addressOk(a));
  // Payment means are needed unless nothing is paid by the customer: an amount due of zero or less on
  // an invoice, zero or more on a credit note. Without an amount due, they are needed.
  for (const totals of kids(root, 'cac:LegalMonetaryTotal')) {
    const payable = kids(totals, 'cbc:PayableAmount');
    const v = dec(payable[0]);
    // Two amounts, or one that is not a number, stop the official artefacts: no verdict to follow.
    if (payable.length > 1 || (payable.length === 1 && v === null)) continue;
    const nothingToPay = v !== null && (ctx.kind === 'Invoice' ? v.lte(0) : v.gte(0));
    if (!nothingToPay) ctx.check(R.R007, payable[0] ?? totals, has(root, 'cac:PaymentMeans'));
  }
  // Each payment means is checked, one without a code too (its code is then the empty string).
  if (customerNL)
    for (const pm of ctx.desc('cac:PaymentMeans')) {
      const codes = kids(pm, 'cbc:PaymentMeansCode');
      if (codes.length <= 1) ctx.check(R.R008, codes[0] ?? pm, NL_MEANS.has(normSpace(str(codes[0]))));
    }
  for (const line of ctx.lines)
    for (const l of all(line, 'cac:OrderLineReference/cbc:LineID'))
      ctx.check(R.R009, l, has(root, 'cac:OrderReference/cbc:ID'));
}
