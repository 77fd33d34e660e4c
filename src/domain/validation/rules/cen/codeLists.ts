// EN 16931 code list rules BR-CL-*. One firing per offending element or attribute.
import { Ctx, cenChargeIndicator, rule } from '../../context.js';
import { attr, hasAncestor, kid, kids, normSpace, str, type XNode } from '../../../xml/xmlTree.js';

const R = {
  CL01: rule(
    'BR-CL-01',
    'fatal',
    'The document type code MUST be coded by the invoice and credit note related code lists of UNTDID 1001.',
  ),
  CL03: rule('BR-CL-03', 'fatal', 'currencyID MUST be coded using ISO code list 4217 alpha-3.'),
  CL04: rule('BR-CL-04', 'fatal', 'Invoice currency code MUST be coded using ISO code list 4217 alpha-3.'),
  CL05: rule('BR-CL-05', 'fatal', 'Tax currency code MUST be coded using ISO code list 4217 alpha-3.'),
  CL06: rule('BR-CL-06', 'fatal', 'Value added tax point date code MUST be coded using a restriction of UNTDID 2005.'),
  CL07: rule(
    'BR-CL-07',
    'fatal',
    'Object identifier identification scheme identifier MUST be coded using a restriction of UNTDID 1153.',
  ),
  CL08: rule('BR-CL-08', 'fatal', 'Invoiced note subject code shall be coded using UNTDID 4451.'),
  CL10: rule(
    'BR-CL-10',
    'fatal',
    'Any identifier identification scheme identifier MUST be coded using one of the ISO 6523 ICD list.',
  ),
  CL11: rule(
    'BR-CL-11',
    'fatal',
    'Any registration identifier identification scheme identifier MUST be coded using one of the ISO 6523 ICD list.',
  ),
  CL13: rule(
    'BR-CL-13',
    'fatal',
    'Item classification identifier identification scheme identifier MUST be coded using one of the UNTDID 7143 list.',
  ),
  CL14: rule('BR-CL-14', 'fatal', 'Country codes in an invoice MUST be coded using ISO code list 3166-1.'),
  CL15: rule('BR-CL-15', 'fatal', 'Country codes in an invoice MUST be coded using ISO code list 3166-1.'),
  CL16: rule('BR-CL-16', 'fatal', 'Payment means in an invoice MUST be coded using UNCL4461 code list.'),
  CL17: rule('BR-CL-17', 'fatal', 'Invoice tax categories MUST be coded using UNCL5305 code list.'),
  CL18: rule('BR-CL-18', 'fatal', 'Invoice tax categories MUST be coded using UNCL5305 code list.'),
  CL19: rule('BR-CL-19', 'fatal', 'Coded allowance reasons MUST belong to the UNCL 5189 code list.'),
  CL20: rule('BR-CL-20', 'fatal', 'Coded charge reasons MUST belong to the UNCL 7161 code list.'),
  CL21: rule(
    'BR-CL-21',
    'fatal',
    'Item standard identifier scheme identifier MUST belong to the ISO 6523 ICD code list.',
  ),
  CL22: rule(
    'BR-CL-22',
    'fatal',
    'Tax exemption reason code identifier scheme identifier MUST belong to the CEF VATEX code list.',
  ),
  CL23: rule(
    'BR-CL-23',
    'fatal',
    'Unit code MUST be coded according to the UN/ECE Recommendation 20 with Rec 21 extension.',
  ),
  CL24: rule('BR-CL-24', 'fatal', 'For Mime code in attribute use MIMEMediaType.'),
  CL25: rule('BR-CL-25', 'fatal', 'Endpoint identifier scheme identifier MUST belong to the CEF EAS code list.'),
  CL26: rule(
    'BR-CL-26',
    'fatal',
    'Delivery location identifier scheme identifier MUST belong to the ISO 6523 ICD code list.',
  ),
};

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

const inList = (list: ReadonlySet<string>, v: string | undefined) => v !== undefined && list.has(normSpace(v));

export function codeListRules(ctx: Ctx): void {
  const CL = ctx.lists;
  const { root } = ctx;
  // BR-CL-01: the type code is in its release's list for the document kind (CEN 1.3.16 moved 502 and
  // 503 from the invoice codes to the credit note codes: the generated lists say so).
  const typeList = ctx.kind === 'Invoice' ? CL.untdid1001Invoice : CL.untdid1001CreditNote;
  for (const t of kids(root, ctx.typeCodeName)) ctx.check(R.CL01, t, inList(typeList, str(t)));
  for (const n of kids(root, 'cbc:DocumentCurrencyCode')) ctx.check(R.CL04, n, inList(CL.iso4217Cen, str(n)));
  for (const n of kids(root, 'cbc:TaxCurrencyCode')) ctx.check(R.CL05, n, inList(CL.iso4217Cen, str(n)));
  for (const note of kids(root, 'cbc:Note')) {
    const s = str(note);
    const i = s.indexOf('#');
    if (i < 0) continue;
    const rest = s.slice(i + 1);
    const j = rest.indexOf('#');
    if (j === 3) ctx.check(R.CL08, note, CL.untdid4451.has(rest.slice(0, 3)));
  }

  for (const el of ctx.elements()) {
    const name = el.name;
    if (CURRENCY_AMOUNTS.has(name)) {
      const cur = attr(el, 'currencyID');
      // A missing currencyID is not a code of the list either.
      if (cur === undefined) ctx.fail(R.CL03, el);
      if (cur !== undefined) ctx.check(R.CL03, el, inList(CL.iso4217Cen, cur));
      continue;
    }
    switch (name) {
      case 'cbc:DescriptionCode':
        if (el.parent?.name === 'cac:InvoicePeriod') ctx.check(R.CL06, el, inList(CL.untdid2005, str(el)));
        break;
      case 'cbc:ID': {
        const p = el.parent;
        const s = attr(el, 'schemeID');
        if (!p || s === undefined) break;
        if (
          (p.name === 'cac:AdditionalDocumentReference' ||
            (p.name === 'cac:DocumentReference' && p.parent?.name === ctx.lineName)) &&
          normSpace(str(kid(p, 'cbc:DocumentTypeCode'))) === '130'
        )
          ctx.check(R.CL07, el, inList(CL.untdid1153, s));
        else if (p.name === 'cac:PartyIdentification') {
          const sepaOk =
            normSpace(s) === 'SEPA' &&
            (hasAncestor(el, 'cac:AccountingSupplierParty') || hasAncestor(el, 'cac:PayeeParty'));
          ctx.check(R.CL10, el, sepaOk || inList(CL.iso6523Icd, s));
        } else if (p.name === 'cac:StandardItemIdentification') ctx.check(R.CL21, el, inList(CL.iso6523Icd, s));
        else if (p.name === 'cac:DeliveryLocation') ctx.check(R.CL26, el, inList(CL.iso6523Icd, s));
        break;
      }
      case 'cbc:CompanyID':
        if (el.parent?.name === 'cac:PartyLegalEntity' && attr(el, 'schemeID') !== undefined)
          ctx.check(R.CL11, el, inList(CL.iso6523Icd, attr(el, 'schemeID')));
        break;
      case 'cbc:ItemClassificationCode':
        if (attr(el, 'listID') !== undefined) ctx.check(R.CL13, el, inList(CL.untdid7143, attr(el, 'listID')));
        break;
      case 'cbc:IdentificationCode':
        if (el.parent?.name === 'cac:Country') ctx.check(R.CL14, el, inList(CL.iso3166, str(el)));
        else if (el.parent?.name === 'cac:OriginCountry') ctx.check(R.CL15, el, inList(CL.iso3166, str(el)));
        break;
      case 'cbc:PaymentMeansCode':
        if (el.parent?.name === 'cac:PaymentMeans') ctx.check(R.CL16, el, inList(CL.uncl4461, str(el)));
        break;
      case 'cbc:AllowanceChargeReasonCode': {
        const ci = el.parent ? cenChargeIndicator(el.parent) : undefined;
        if (ci === false) ctx.check(R.CL19, el, inList(CL.uncl5189, str(el)));
        else if (ci === true) ctx.check(R.CL20, el, inList(CL.uncl7161, str(el)));
        break;
      }
      case 'cbc:TaxExemptionReasonCode':
        // The catalog calls this comparison case-sensitive, but the official result for the CEN example
        // Invoice-Max_content.xml accepts 'vatex-eu-132-1g', so codes are compared upper-cased.
        ctx.check(R.CL22, el, inList(CL.vatex, str(el).toUpperCase()));
        break;
      case 'cbc:InvoicedQuantity':
      case 'cbc:CreditedQuantity':
      case 'cbc:BaseQuantity':
        if (attr(el, 'unitCode') !== undefined) ctx.check(R.CL23, el, inList(CL.unitCodes, attr(el, 'unitCode')));
        break;
      case 'cbc:EmbeddedDocumentBinaryObject':
        if (attr(el, 'mimeCode') !== undefined) ctx.check(R.CL24, el, CL.mimeTypesCen.has(attr(el, 'mimeCode')!));
        break;
      case 'cbc:EndpointID':
        if (attr(el, 'schemeID') !== undefined) ctx.check(R.CL25, el, inList(CL.easCen, attr(el, 'schemeID')));
        break;
      default:
        break;
    }
    // Category codes live on cbc:ID under the (Classified)TaxCategory.
    if (name === 'cbc:ID') {
      const p = el.parent?.name;
      if (p === 'cac:TaxCategory') ctx.check(R.CL17, el, inList(CL.uncl5305, str(el)));
      else if (p === 'cac:ClassifiedTaxCategory') ctx.check(R.CL18, el, inList(CL.uncl5305, str(el)));
    }
  }
}

export type { XNode };
