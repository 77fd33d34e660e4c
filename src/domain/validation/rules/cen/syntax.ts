// UBL syntax binding cardinality rules UBL-SR-* (EN 16931 restricts UBL repetitions).
import { Ctx, cenChargeIndicator, rule, type Rule } from '../../context.js';
import { all, attr, has, kid, kids, normSpace, str, type XNode } from '../../../xml/xmlTree.js';
import { anyLines } from './core.js';

const sr = (n: string, what: string) => rule(`UBL-SR-${n}`, 'fatal', what);

/** Simple "at most N of path under node" rules, evaluated on the root. */
const ROOT_MAX_ONE: [Rule, string][] = [
  [sr('01', 'Contract identifier shall occur maximum once.'), 'cac:ContractDocumentReference/cbc:ID'],
  [sr('02', 'Receive advice identifier shall occur maximum once'), 'cac:ReceiptDocumentReference/cbc:ID'],
  [sr('03', 'Despatch advice identifier shall occur maximum once'), 'cac:DespatchDocumentReference/cbc:ID'],
  [sr('05', 'Payment terms shall occur maximum once'), 'cac:PaymentTerms/cbc:Note'],
  [sr('08', 'Invoice period shall occur maximum once'), 'cac:InvoicePeriod'],
  [
    sr('09', 'Seller name shall occur maximum once'),
    'cac:AccountingSupplierParty/cac:Party/cac:PartyLegalEntity/cbc:RegistrationName',
  ],
  [
    sr('10', 'Seller trader name shall occur maximum once'),
    'cac:AccountingSupplierParty/cac:Party/cac:PartyName/cbc:Name',
  ],
  [
    sr('11', 'Seller legal registration identifier shall occur maximum once'),
    'cac:AccountingSupplierParty/cac:Party/cac:PartyLegalEntity/cbc:CompanyID',
  ],
  [
    sr('14', 'Seller additional legal information shall occur maximum once'),
    'cac:AccountingSupplierParty/cac:Party/cac:PartyLegalEntity/cbc:CompanyLegalForm',
  ],
  [
    sr('15', 'Buyer name shall occur maximum once'),
    'cac:AccountingCustomerParty/cac:Party/cac:PartyLegalEntity/cbc:RegistrationName',
  ],
  [
    sr('16', 'Buyer identifier shall occur maximum once'),
    'cac:AccountingCustomerParty/cac:Party/cac:PartyIdentification/cbc:ID',
  ],
  [
    sr('17', 'Buyer legal registration identifier shall occur maximum once'),
    'cac:AccountingCustomerParty/cac:Party/cac:PartyLegalEntity/cbc:CompanyID',
  ],
  [
    sr('22', 'Seller tax representative name shall occur maximum once, if the Seller has a tax representative'),
    'cac:TaxRepresentativeParty/cac:PartyName/cbc:Name',
  ],
  [sr('24', 'Deliver to information shall occur maximum once'), 'cac:Delivery'],
  [sr('39', 'Project reference shall occur maximum once.'), 'cac:ProjectReference/cbc:ID'],
  [
    sr('40', 'Buyer trade name shall occur maximum once'),
    'cac:AccountingCustomerParty/cac:Party/cac:PartyName/cbc:Name',
  ],
  [sr('45', 'Due Date shall occur maximum once'), 'cac:PaymentMeans/cbc:PaymentDueDate'],
  [sr('49', 'Value tax point date shall occur maximum once'), 'cac:InvoicePeriod/cbc:DescriptionCode'],
];

const LINE_MAX_ONE: [Rule, string][] = [
  [sr('34', 'Invoice line note shall occur maximum once'), 'cbc:Note'],
  [sr('35', 'Referenced purchase order line identifier shall occur maximum once'), 'cac:OrderLineReference/cbc:LineID'],
  [sr('36', 'Invoice line period shall occur maximum once'), 'cac:InvoicePeriod'],
  [sr('37', 'Invoice line price discount shall occur maximum once'), 'cac:Price/cac:AllowanceCharge/cbc:Amount'],
  [sr('50', 'Item description shall occur maximum once'), 'cac:Item/cbc:Description'],
  [sr('52', 'Document reference shall occur maximum once'), 'cac:DocumentReference'],
];

const R = {
  SR04: sr('04', 'Invoiced object identifier shall occur maximum once'),
  SR06: sr('06', 'Preceding invoice reference shall occur maximum once'),
  SR07: sr('07', 'If there is a preceding invoice reference, the preceding invoice number shall be present'),
  SR12: sr('12', 'Seller VAT identifier shall occur maximum once'),
  SR13: sr('13', 'Seller tax registration shall occur maximum once'),
  SR18: sr('18', 'Buyer VAT identifier shall occur maximum once'),
  SR19: sr('19', 'Payee name shall occur maximum once, if the Payee is different from the Seller'),
  SR20: sr('20', 'Payee identifier shall occur maximum once, if the Payee is different from the Seller'),
  SR21: sr(
    '21',
    'Payee legal registration identifier shall occur maximum once, if the Payee is different from the Seller',
  ),
  SR23: sr(
    '23',
    'Seller tax representative VAT identifier shall occur maximum once, if the Seller has a tax representative',
  ),
  SR25: sr('25', 'Deliver to party name shall occur maximum once'),
  SR26: sr('26', 'Payment reference shall occur maximum once'),
  SR27: sr('27', 'Payment means text shall occur maximum once'),
  SR28: sr('28', 'Mandate reference identifier shall occur maximum once'),
  SR29: sr('29', 'Bank creditor reference shall occur maximum once'),
  SR30: sr('30', 'Document level allowance reason shall occur maximum once'),
  SR31: sr('31', 'Document level charge reason shall occur maximum once'),
  SR32: sr('32', 'VAT exemption reason text shall occur maximum once'),
  SR33: sr('33', 'Supporting document description shall occur maximum once'),
  SR42: sr('42', 'Party tax scheme shall occur maximum twice in accounting supplier party'),
  SR43: sr('43', 'Scheme identifier shall only be used for invoiced object (document type code with value 130 or 50)'),
  SR44: sr(
    '44',
    'An Invoice may only have one unique PaymentID, but the PaymentID may be used for multiple PaymentMeans',
  ),
  SR46: sr('46', 'Payment means text shall occur maximum once'),
  SR47: sr('47', 'When there are more than one payment means code, they shall be equal'),
  SR48: sr('48', 'Invoice lines shall have one and only one classified tax category.'),
  SR51: sr('51', 'An address can only have one third line.'),
  SR53: sr('53', 'A party tax scheme shall contain both the tax scheme identifier and the company identifier'),
  // CEN 1.3.15: BR-66/BR-67 became these two (same checks).
  SR54: sr('54', 'An Invoice shall contain at most one Payment Card account (BG-18).'),
  SR55: sr('55', 'An Invoice shall contain at most one Payment Mandate (BG-19).'),
  // CEN 1.3.16.
  SR56: sr('56', 'An Invoice shall contain at most one Originator document reference identifier (BT-17).'),
};

function payeeNameDiffers(ctx: Ctx, payee: XNode): boolean {
  const names = all(payee, 'cac:PartyName/cbc:Name');
  const seller = all(ctx.seller, 'cac:PartyLegalEntity/cbc:RegistrationName');
  if (names.length === 0 || seller.length === 0) return false;
  return normSpace(str(names[0])) !== normSpace(str(seller[0]));
}

export function syntaxRules(ctx: Ctx): void {
  const { root, seller, buyer } = ctx;
  for (const [r, path] of ROOT_MAX_ONE) ctx.check(r, root, all(root, path).length <= 1);
  for (const line of anyLines(ctx)) {
    for (const [r, path] of LINE_MAX_ONE) ctx.check(r, line, all(line, path).length <= 1);
    // Counted over every cac:Item of the line, and also on a line without an item (count 0).
    ctx.check(R.SR48, line, all(line, 'cac:Item/cac:ClassifiedTaxCategory').length === 1);
  }
  if (ctx.cenFrom('1.3.15')) {
    ctx.check(R.SR54, root, all(root, 'cac:PaymentMeans/cac:CardAccount').length <= 1);
    ctx.check(R.SR55, root, all(root, 'cac:PaymentMeans/cac:PaymentMandate').length <= 1);
  }
  if (ctx.cenFrom('1.3.16')) ctx.check(R.SR56, root, all(root, 'cac:OriginatorDocumentReference/cbc:ID').length <= 1);

  ctx.check(
    R.SR04,
    root,
    kids(root, 'cac:AdditionalDocumentReference')
      .filter((a) => normSpace(str(kid(a, 'cbc:DocumentTypeCode'))) === '130')
      .flatMap((a) => kids(a, 'cbc:ID')).length <= 1,
  );
  for (const br of kids(root, 'cac:BillingReference')) {
    ctx.check(R.SR06, br, kids(br, 'cac:InvoiceDocumentReference').length <= 1);
    ctx.check(R.SR07, br, has(br, 'cac:InvoiceDocumentReference/cbc:ID'));
  }
  const sellerSchemes = kids(seller, 'cac:PartyTaxScheme');
  const upperScheme = (p: XNode) => all(p, 'cac:TaxScheme/cbc:ID').some((id) => str(id).toUpperCase() === 'VAT');
  ctx.check(R.SR12, root, sellerSchemes.filter(upperScheme).flatMap((p) => kids(p, 'cbc:CompanyID')).length <= 1);
  ctx.check(
    R.SR13,
    root,
    sellerSchemes.filter((p) => !upperScheme(p)).flatMap((p) => kids(p, 'cbc:CompanyID')).length <= 1,
  );
  ctx.check(
    R.SR18,
    root,
    kids(buyer, 'cac:PartyTaxScheme')
      .filter(upperScheme)
      .flatMap((p) => kids(p, 'cbc:CompanyID')).length <= 1,
  );
  ctx.check(R.SR42, root, sellerSchemes.length <= 2);

  for (const payee of kids(root, 'cac:PayeeParty')) {
    const differs = payeeNameDiffers(ctx, payee);
    ctx.check(R.SR19, payee, all(payee, 'cac:PartyName/cbc:Name').length <= 1 && differs);
    const nonSepa = all(payee, 'cac:PartyIdentification/cbc:ID').filter(
      (id) => attr(id, 'schemeID') !== undefined && attr(id, 'schemeID')!.toUpperCase() !== 'SEPA',
    );
    ctx.check(R.SR20, payee, nonSepa.length <= 1 && differs);
    ctx.check(R.SR21, payee, all(payee, 'cac:PartyLegalEntity/cbc:CompanyID').length <= 1 && differs);
  }
  // UBL-SR-23: until CEN 1.3.15 the check counted one level too deep and never fired; 1.3.16 counts the
  // representative's own tax schemes.
  if (ctx.cenFrom('1.3.16'))
    for (const rep of ctx.desc('cac:TaxRepresentativeParty'))
      ctx.check(R.SR23, rep, all(rep, 'cac:PartyTaxScheme/cbc:CompanyID').length <= 1);

  for (const d of kids(root, 'cac:Delivery'))
    ctx.check(R.SR25, d, all(d, 'cac:DeliveryParty/cac:PartyName/cbc:Name').length <= 1);
  const paymentIds = new Set<string>();
  const meansCodes = new Set<string>();
  let codeNames = 0;
  for (const pm of kids(root, 'cac:PaymentMeans')) {
    ctx.check(R.SR26, pm, kids(pm, 'cbc:PaymentID').length <= 1);
    ctx.check(R.SR27, pm, kids(pm, 'cbc:PaymentMeansCode').length <= 1);
    ctx.check(R.SR28, pm, all(pm, 'cac:PaymentMandate/cbc:ID').length <= 1);
    for (const p of kids(pm, 'cbc:PaymentID')) paymentIds.add(str(p));
    for (const c of kids(pm, 'cbc:PaymentMeansCode')) {
      meansCodes.add(str(c));
      if (attr(c, 'name') !== undefined) codeNames++;
    }
  }
  ctx.check(R.SR44, root, paymentIds.size <= 1);
  ctx.check(R.SR46, root, codeNames <= 1);
  ctx.check(R.SR47, root, meansCodes.size <= 1);
  ctx.check(
    R.SR29,
    root,
    ctx
      .desc('cbc:ID')
      .filter(
        (id) => id.parent?.name === 'cac:PartyIdentification' && (attr(id, 'schemeID') ?? '').toUpperCase() === 'SEPA',
      ).length <= 1,
  );

  for (const ac of ctx.desc('cac:AllowanceCharge')) {
    const ci = cenChargeIndicator(ac);
    if (ci === false) ctx.check(R.SR30, ac, kids(ac, 'cbc:AllowanceChargeReason').length <= 1);
    else if (ci === true) ctx.check(R.SR31, ac, kids(ac, 'cbc:AllowanceChargeReason').length <= 1);
  }
  for (const st of all(root, 'cac:TaxTotal/cac:TaxSubtotal'))
    ctx.check(R.SR32, st, all(st, 'cac:TaxCategory/cbc:TaxExemptionReason').length <= 1);
  for (const adr of ctx.desc('cac:AdditionalDocumentReference')) {
    ctx.check(R.SR33, adr, kids(adr, 'cbc:DocumentDescription').length <= 1);
    const code = kids(adr, 'cbc:DocumentTypeCode').map(str);
    const ok =
      code.includes('130') ||
      (ctx.kind === 'CreditNote' && code.includes('50')) ||
      (!kids(adr, 'cbc:ID').some((id) => attr(id, 'schemeID') !== undefined) && code.length === 0);
    ctx.check(R.SR43, adr, ok);
  }
  for (const el of ctx.elements()) {
    if ((el.name === 'cac:PostalAddress' || el.name === 'cac:Address') && kids(el, 'cac:AddressLine').length > 1)
      ctx.fail(R.SR51, el);
  }
  for (const pts of ctx.desc('cac:PartyTaxScheme'))
    ctx.check(R.SR53, pts, has(pts, 'cac:TaxScheme/cbc:ID') && has(pts, 'cbc:CompanyID'));
}
