// EN 16931 core business rules BR-01 … BR-67 (presence and basic consistency).
import { Ctx, cenChargeIndicator, dateOf, isVatScheme, normSpaceEq, rule } from '../../context.js';
import { untypedNotNegative } from './untypedNumbers.js';
import { all, attr, has, kid, kids, nonBlank, norm, str, type XNode } from '../../../xml/xmlTree.js';

const R = {
  BR01: rule('BR-01', 'fatal', 'An Invoice shall have a Specification identifier (BT-24).'),
  BR02: rule('BR-02', 'fatal', 'An Invoice shall have an Invoice number (BT-1).'),
  BR03: rule('BR-03', 'fatal', 'An Invoice shall have an Invoice issue date (BT-2).'),
  BR04: rule('BR-04', 'fatal', 'An Invoice shall have an Invoice type code (BT-3).'),
  BR05: rule('BR-05', 'fatal', 'An Invoice shall have an Invoice currency code (BT-5).'),
  BR06: rule('BR-06', 'fatal', 'An Invoice shall contain the Seller name (BT-27).'),
  BR07: rule('BR-07', 'fatal', 'An Invoice shall contain the Buyer name (BT-44).'),
  BR08: rule('BR-08', 'fatal', 'An Invoice shall contain the Seller postal address (BG-5).'),
  BR09: rule('BR-09', 'fatal', 'The Seller postal address (BG-5) shall contain a Seller country code (BT-40).'),
  BR10: rule('BR-10', 'fatal', 'An Invoice shall contain the Buyer postal address (BG-8).'),
  BR11: rule('BR-11', 'fatal', 'The Buyer postal address shall contain a Buyer country code (BT-55).'),
  BR12: rule('BR-12', 'fatal', 'An Invoice shall have the Sum of Invoice line net amount (BT-106).'),
  BR13: rule('BR-13', 'fatal', 'An Invoice shall have the Invoice total amount without VAT (BT-109).'),
  BR14: rule('BR-14', 'fatal', 'An Invoice shall have the Invoice total amount with VAT (BT-112).'),
  BR15: rule('BR-15', 'fatal', 'An Invoice shall have the Amount due for payment (BT-115).'),
  BR16: rule('BR-16', 'fatal', 'An Invoice shall have at least one Invoice line (BG-25).'),
  BR17: rule(
    'BR-17',
    'fatal',
    'The Payee name (BT-59) shall be provided if the Payee (BG-10) is different from the Seller (BG-4).',
  ),
  BR18: rule(
    'BR-18',
    'fatal',
    'The Seller tax representative name (BT-62) shall be provided if the Seller has a tax representative (BG-11).',
  ),
  BR19: rule(
    'BR-19',
    'fatal',
    'The Seller tax representative postal address (BG-12) shall be provided if the Seller has a tax representative (BG-11).',
  ),
  BR20: rule(
    'BR-20',
    'fatal',
    'The Seller tax representative postal address (BG-12) shall contain a Tax representative country code (BT-69).',
  ),
  BR21: rule('BR-21', 'fatal', 'Each Invoice line (BG-25) shall have an Invoice line identifier (BT-126).'),
  BR22: rule('BR-22', 'fatal', 'Each Invoice line (BG-25) shall have an Invoiced quantity (BT-129).'),
  BR23: rule(
    'BR-23',
    'fatal',
    'An Invoice line (BG-25) shall have an Invoiced quantity unit of measure code (BT-130).',
  ),
  BR24: rule('BR-24', 'fatal', 'Each Invoice line (BG-25) shall have an Invoice line net amount (BT-131).'),
  BR25: rule('BR-25', 'fatal', 'Each Invoice line (BG-25) shall contain the Item name (BT-153).'),
  BR26: rule('BR-26', 'fatal', 'Each Invoice line (BG-25) shall contain the Item net price (BT-146).'),
  BR27: rule('BR-27', 'fatal', 'The Item net price (BT-146) shall NOT be negative.'),
  BR28: rule('BR-28', 'fatal', 'The Item gross price (BT-148) shall NOT be negative.'),
  BR29: rule(
    'BR-29',
    'fatal',
    'If both Invoicing period start date (BT-73) and end date (BT-74) are given, the end date shall be later or equal to the start date.',
  ),
  BR30: rule(
    'BR-30',
    'fatal',
    'If both Invoice line period start date (BT-134) and end date (BT-135) are given, the end date shall be later or equal to the start date.',
  ),
  BR31: rule(
    'BR-31',
    'fatal',
    'Each Document level allowance (BG-20) shall have a Document level allowance amount (BT-92).',
  ),
  BR32: rule(
    'BR-32',
    'fatal',
    'Each Document level allowance (BG-20) shall have a Document level allowance VAT category code (BT-95).',
  ),
  BR33: rule(
    'BR-33',
    'fatal',
    'Each Document level allowance (BG-20) shall have a Document level allowance reason (BT-97) or reason code (BT-98).',
  ),
  BR36: rule('BR-36', 'fatal', 'Each Document level charge (BG-21) shall have a Document level charge amount (BT-99).'),
  BR37: rule(
    'BR-37',
    'fatal',
    'Each Document level charge (BG-21) shall have a Document level charge VAT category code (BT-102).',
  ),
  BR38: rule(
    'BR-38',
    'fatal',
    'Each Document level charge (BG-21) shall have a Document level charge reason (BT-104) or reason code (BT-105).',
  ),
  BR41: rule(
    'BR-41',
    'fatal',
    'Each Invoice line allowance (BG-27) shall have an Invoice line allowance amount (BT-136).',
  ),
  BR42: rule(
    'BR-42',
    'fatal',
    'Each Invoice line allowance (BG-27) shall have an allowance reason (BT-139) or reason code (BT-140).',
  ),
  BR43: rule('BR-43', 'fatal', 'Each Invoice line charge (BG-28) shall have an Invoice line charge amount (BT-141).'),
  BR44: rule('BR-44', 'fatal', 'Each Invoice line charge shall have a charge reason (BT-144) or reason code (BT-145).'),
  BR45: rule('BR-45', 'fatal', 'Each VAT breakdown (BG-23) shall have a VAT category taxable amount (BT-116).'),
  BR46: rule('BR-46', 'fatal', 'Each VAT breakdown (BG-23) shall have a VAT category tax amount (BT-117).'),
  BR47: rule('BR-47', 'fatal', 'Each VAT breakdown (BG-23) shall be defined through a VAT category code (BT-118).'),
  BR48: rule(
    'BR-48',
    'fatal',
    'Each VAT breakdown (BG-23) shall have a VAT category rate (BT-119), except if the Invoice is not subject to VAT.',
  ),
  BR49: rule('BR-49', 'fatal', 'A Payment instruction (BG-16) shall specify the Payment means type code (BT-81).'),
  BR50: rule(
    'BR-50',
    'fatal',
    'A Payment account identifier (BT-84) shall be present if Credit transfer (BG-17) information is provided.',
  ),
  BR51: rule(
    'BR-51',
    'warning',
    'In accordance with card payments security standards an invoice should never include a full card primary account number (BT-87); at most 10 characters should be shown.',
  ),
  BR52: rule(
    'BR-52',
    'fatal',
    'Each Additional supporting document (BG-24) shall contain a Supporting document reference (BT-122).',
  ),
  BR53: rule(
    'BR-53',
    'fatal',
    'If the VAT accounting currency code (BT-6) is present, then the Invoice total VAT amount in accounting currency (BT-111) shall be provided.',
  ),
  BR54: rule(
    'BR-54',
    'fatal',
    'Each Item attribute (BG-32) shall contain an Item attribute name (BT-160) and an Item attribute value (BT-161).',
  ),
  BR55: rule(
    'BR-55',
    'fatal',
    'Each Preceding Invoice reference (BG-3) shall contain a Preceding Invoice reference (BT-25).',
  ),
  BR56: rule(
    'BR-56',
    'fatal',
    'Each Seller tax representative party (BG-11) shall have a Seller tax representative VAT identifier (BT-63).',
  ),
  BR57: rule('BR-57', 'fatal', 'Each Deliver to address (BG-15) shall contain a Deliver to country code (BT-80).'),
  BR61: rule(
    'BR-61',
    'fatal',
    'If the Payment means type code (BT-81) means SEPA credit transfer, Local credit transfer or Non-SEPA international credit transfer, the Payment account identifier (BT-84) shall be present.',
  ),
  BR62: rule('BR-62', 'fatal', 'The Seller electronic address (BT-34) shall have a Scheme identifier.'),
  BR63: rule('BR-63', 'fatal', 'The Buyer electronic address (BT-49) shall have a Scheme identifier.'),
  BR64: rule('BR-64', 'fatal', 'The Item standard identifier (BT-157) shall have a Scheme identifier.'),
  BR65: rule('BR-65', 'fatal', 'The Item classification identifier (BT-158) shall have a Scheme identifier.'),
  BR66: rule('BR-66', 'fatal', 'An Invoice shall contain maximum one Payment Card account (BG-18).'),
  BR67: rule('BR-67', 'fatal', 'An Invoice shall contain maximum one Payment Mandate (BG-19).'),
};

/**
 * Invoice and credit note lines at any depth, whatever the document kind: the EN 16931 line rules apply
 * to either element (a credit note with invoice lines is checked line by line, not reported as lineless).
 */
export function anyLines(ctx: Ctx): XNode[] {
  const inv = ctx.desc('cac:InvoiceLine');
  const cn = ctx.desc('cac:CreditNoteLine');
  return cn.length === 0 ? inv : inv.length === 0 ? cn : [...inv, ...cn];
}

/** A reason text or reason code is present (BR-33/38/42/44 and BR-CO-21…24). */
export function hasReason(ac: XNode): boolean {
  return has(ac, 'cbc:AllowanceChargeReason') || has(ac, 'cbc:AllowanceChargeReasonCode');
}

function anyNonBlank(nodes: XNode[]): boolean {
  return nodes.some((n) => norm(n) !== '');
}

function periodOrder(ctx: Ctx, r: typeof R.BR29, period: XNode): void {
  const s = dateOf(kid(period, 'cbc:StartDate'));
  const e = dateOf(kid(period, 'cbc:EndDate'));
  if (s !== undefined && e !== undefined) ctx.check(r, period, e >= s);
}

export function coreRules(ctx: Ctx): void {
  const { root, seller, buyer, taxRep } = ctx;
  ctx.check(R.BR01, root, anyNonBlank(kids(root, 'cbc:CustomizationID')));
  ctx.check(R.BR02, root, anyNonBlank(kids(root, 'cbc:ID')));
  ctx.check(R.BR03, root, anyNonBlank(kids(root, 'cbc:IssueDate')));
  ctx.check(R.BR04, root, anyNonBlank(kids(root, ctx.typeCodeName)));
  ctx.check(R.BR05, root, anyNonBlank(kids(root, 'cbc:DocumentCurrencyCode')));
  ctx.check(R.BR06, root, anyNonBlank(all(seller, 'cac:PartyLegalEntity/cbc:RegistrationName')));
  ctx.check(R.BR07, root, anyNonBlank(all(buyer, 'cac:PartyLegalEntity/cbc:RegistrationName')));
  ctx.check(R.BR08, root, has(seller, 'cac:PostalAddress'));
  for (const a of kids(seller, 'cac:PostalAddress'))
    ctx.check(R.BR09, a, anyNonBlank(all(a, 'cac:Country/cbc:IdentificationCode')));
  ctx.check(R.BR10, root, has(buyer, 'cac:PostalAddress'));
  for (const a of kids(buyer, 'cac:PostalAddress'))
    ctx.check(R.BR11, a, anyNonBlank(all(a, 'cac:Country/cbc:IdentificationCode')));
  for (const lmt of kids(root, 'cac:LegalMonetaryTotal')) {
    ctx.check(R.BR12, lmt, has(lmt, 'cbc:LineExtensionAmount'));
    ctx.check(R.BR13, lmt, has(lmt, 'cbc:TaxExclusiveAmount'));
    ctx.check(R.BR14, lmt, has(lmt, 'cbc:TaxInclusiveAmount'));
    ctx.check(R.BR15, lmt, has(lmt, 'cbc:PayableAmount'));
  }
  ctx.check(R.BR16, root, has(root, 'cac:InvoiceLine') || has(root, 'cac:CreditNoteLine'));

  const sellerNames = all(seller, 'cac:PartyName/cbc:Name').map(str);
  const sellerIds = all(seller, 'cac:PartyIdentification/cbc:ID').map(str);
  for (const payee of kids(root, 'cac:PayeeParty')) {
    const names = all(payee, 'cac:PartyName/cbc:Name').map(str);
    const ids = all(payee, 'cac:PartyIdentification/cbc:ID').map(str);
    const ok =
      names.length > 0 && !names.some((n) => sellerNames.includes(n)) && !ids.some((i) => sellerIds.includes(i));
    ctx.check(R.BR17, payee, ok);
  }
  if (taxRep) {
    ctx.check(R.BR18, taxRep, anyNonBlank(all(taxRep, 'cac:PartyName/cbc:Name')));
    ctx.check(R.BR19, taxRep, has(taxRep, 'cac:PostalAddress'));
    for (const a of kids(taxRep, 'cac:PostalAddress'))
      ctx.check(R.BR20, a, anyNonBlank(all(a, 'cac:Country/cbc:IdentificationCode')));
    ctx.check(
      R.BR56,
      taxRep,
      kids(taxRep, 'cac:PartyTaxScheme').some((p) => isVatScheme(p) && has(p, 'cbc:CompanyID')),
    );
  }

  for (const line of anyLines(ctx)) {
    ctx.check(R.BR21, line, anyNonBlank(kids(line, 'cbc:ID')));
    ctx.check(R.BR22, line, has(line, 'cbc:InvoicedQuantity') || has(line, 'cbc:CreditedQuantity'));
    // The unit code is required on the line as such: a line without a quantity lacks it too.
    ctx.check(
      R.BR23,
      line,
      [...kids(line, 'cbc:InvoicedQuantity'), ...kids(line, 'cbc:CreditedQuantity')].some(
        (q) => attr(q, 'unitCode') !== undefined,
      ),
    );
    ctx.check(R.BR24, line, has(line, 'cbc:LineExtensionAmount'));
    ctx.check(R.BR25, line, anyNonBlank(all(line, 'cac:Item/cbc:Name')));
    ctx.check(R.BR26, line, has(line, 'cac:Price/cbc:PriceAmount'));
    // Compared as doubles, as the artefacts do: one price not below zero is enough.
    const notNegative = (n: XNode) => untypedNotNegative(str(n));
    ctx.check(R.BR27, line, all(line, 'cac:Price/cbc:PriceAmount').some(notNegative));
    const bases = all(line, 'cac:Price/cac:AllowanceCharge/cbc:BaseAmount');
    ctx.check(R.BR28, line, bases.length === 0 || bases.some(notNegative));
    for (const p of kids(line, 'cac:InvoicePeriod')) periodOrder(ctx, R.BR30, p);
    for (const ac of kids(line, 'cac:AllowanceCharge')) {
      const ci = cenChargeIndicator(ac);
      if (ci === false) {
        ctx.check(R.BR41, ac, has(ac, 'cbc:Amount'));
        ctx.check(R.BR42, ac, hasReason(ac));
      } else if (ci === true) {
        ctx.check(R.BR43, ac, has(ac, 'cbc:Amount'));
        ctx.check(R.BR44, ac, hasReason(ac));
      }
    }
    for (const id of all(line, 'cac:Item/cac:StandardItemIdentification/cbc:ID'))
      ctx.check(R.BR64, id, attr(id, 'schemeID') !== undefined);
    for (const c of all(line, 'cac:Item/cac:CommodityClassification/cbc:ItemClassificationCode'))
      ctx.check(R.BR65, c, attr(c, 'listID') !== undefined);
  }
  for (const p of kids(root, 'cac:InvoicePeriod')) periodOrder(ctx, R.BR29, p);

  for (const ac of kids(root, 'cac:AllowanceCharge')) {
    const ci = cenChargeIndicator(ac);
    const vatCat = kids(ac, 'cac:TaxCategory').some((tc) => isVatScheme(tc) && has(tc, 'cbc:ID'));
    if (ci === false) {
      ctx.check(R.BR31, ac, has(ac, 'cbc:Amount'));
      ctx.check(R.BR32, ac, vatCat);
      ctx.check(R.BR33, ac, hasReason(ac));
    } else if (ci === true) {
      ctx.check(R.BR36, ac, has(ac, 'cbc:Amount'));
      ctx.check(R.BR37, ac, vatCat);
      ctx.check(R.BR38, ac, hasReason(ac));
    }
  }

  for (const st of ctx.desc('cac:TaxSubtotal')) {
    if (st.parent?.name !== 'cac:TaxTotal') continue;
    ctx.check(R.BR45, st, has(st, 'cbc:TaxableAmount'));
    ctx.check(R.BR46, st, has(st, 'cbc:TaxAmount'));
    const vatCats = kids(st, 'cac:TaxCategory').filter(isVatScheme);
    ctx.check(
      R.BR47,
      st,
      vatCats.some((tc) => has(tc, 'cbc:ID')),
    );
    ctx.check(
      R.BR48,
      st,
      vatCats.some((tc) => has(tc, 'cbc:Percent')) || vatCats.some((tc) => normSpaceEq(kid(tc, 'cbc:ID'), 'O')),
    );
  }

  for (const pm of ctx.desc('cac:PaymentMeans')) {
    ctx.check(R.BR49, pm, has(pm, 'cbc:PaymentMeansCode'));
    const codes = kids(pm, 'cbc:PaymentMeansCode');
    if (codes.some((c) => str(c) === '30' || str(c) === '58')) {
      for (const fa of kids(pm, 'cac:PayeeFinancialAccount')) ctx.check(R.BR50, fa, nonBlank(kid(fa, 'cbc:ID')));
    }
    if (codes.some((c) => normSpaceEq(c, '30') || normSpaceEq(c, '58')))
      ctx.check(R.BR61, pm, has(pm, 'cac:PayeeFinancialAccount/cbc:ID'));
  }
  for (const ca of ctx.desc('cac:CardAccount'))
    ctx.check(R.BR51, ca, norm(kid(ca, 'cbc:PrimaryAccountNumberID')).length <= 10);
  for (const adr of ctx.desc('cac:AdditionalDocumentReference')) ctx.check(R.BR52, adr, nonBlank(kid(adr, 'cbc:ID')));
  for (const tcc of kids(root, 'cbc:TaxCurrencyCode')) {
    const cur = str(tcc);
    ctx.check(
      R.BR53,
      root,
      ctx.desc('cac:TaxTotal').some((tt) => kids(tt, 'cbc:TaxAmount').some((a) => attr(a, 'currencyID') === cur)),
    );
  }
  for (const p of ctx.desc('cac:AdditionalItemProperty'))
    ctx.check(R.BR54, p, has(p, 'cbc:Name') && has(p, 'cbc:Value'));
  for (const br of ctx.desc('cac:BillingReference'))
    ctx.check(R.BR55, br, has(br, 'cac:InvoiceDocumentReference/cbc:ID'));
  for (const a of ctx.desc('cac:Address'))
    if (a.parent?.name === 'cac:DeliveryLocation' && a.parent.parent?.name === 'cac:Delivery')
      ctx.check(R.BR57, a, has(a, 'cac:Country/cbc:IdentificationCode'));
  for (const e of kids(seller, 'cbc:EndpointID')) ctx.check(R.BR62, e, attr(e, 'schemeID') !== undefined);
  for (const e of kids(buyer, 'cbc:EndpointID')) ctx.check(R.BR63, e, attr(e, 'schemeID') !== undefined);
  // CEN 1.3.15 moved these two to UBL-SR-54/55 (syntax.ts).
  if (!ctx.cenFrom('1.3.15')) {
    ctx.check(R.BR66, root, all(root, 'cac:PaymentMeans/cac:CardAccount').length <= 1);
    ctx.check(R.BR67, root, all(root, 'cac:PaymentMeans/cac:PaymentMandate').length <= 1);
  }
}
