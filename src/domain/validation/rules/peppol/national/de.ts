// German national rules (DE-R-*, the XRechnung CIUS within Peppol): only when seller and buyer
// postal countries are both DE.
import { Ctx, catId, rule } from '../../../context.js';
import { all, attr, has, kid, kids, nonBlank, normSpace, str, type XNode } from '../../../../xml/xmlTree.js';
import { buyerCountry, sellerCountry } from '../shared.js';

const r = (id: string, flag: 'fatal' | 'warning', m: string) => rule(id, flag, m);
const R = {
  R001: r('DE-R-001', 'fatal', 'An invoice shall contain information on "PAYMENT INSTRUCTIONS" (BG-16).'),
  R002: r('DE-R-002', 'fatal', 'The group "SELLER CONTACT" (BG-6) shall be provided.'),
  R003: r('DE-R-003', 'fatal', 'The element "Seller city" (BT-37) shall be provided.'),
  R004: r('DE-R-004', 'fatal', 'The element "Seller post code" (BT-38) shall be provided.'),
  R005: r('DE-R-005', 'fatal', 'The element "Seller contact point" (BT-41) shall be provided.'),
  R006: r('DE-R-006', 'fatal', 'The element "Seller contact telephone number" (BT-42) shall be provided.'),
  R007: r('DE-R-007', 'fatal', 'The element "Seller contact email address" (BT-43) shall be provided.'),
  R008: r('DE-R-008', 'fatal', 'The element "Buyer city" (BT-52) shall be provided.'),
  R009: r('DE-R-009', 'fatal', 'The element "Buyer post code" (BT-53) shall be provided.'),
  R010: r(
    'DE-R-010',
    'fatal',
    'The element "Deliver to city" (BT-77) shall be provided if the group "DELIVER TO ADDRESS" (BG-15) is delivered.',
  ),
  R011: r(
    'DE-R-011',
    'fatal',
    'The element "Deliver to post code" (BT-78) shall be provided if the group "DELIVER TO ADDRESS" (BG-15) is delivered.',
  ),
  R014: r('DE-R-014', 'fatal', 'The element "VAT category rate" (BT-119) shall be provided.'),
  R015: r('DE-R-015', 'fatal', 'The element "Buyer reference" (BT-10) shall be provided.'),
  R016: r(
    'DE-R-016',
    'fatal',
    'If one of the VAT codes S, Z, E, AE, K, G, L, or M is used, an invoice shall contain at least one of the following elements: "Seller VAT identifier" (BT-31) or "Seller tax registration identifier" (BT-32) or "SELLER TAX REPRESENTATIVE PARTY" (BG-11).',
  ),
  R017: r(
    'DE-R-017',
    'warning',
    'The element "Invoice type code" (BT-3) should only contain the following values from code list UNTDID 1001: 326, 380, 384, 389, 381, 875, 876, 877.',
  ),
  R018: r(
    'DE-R-018',
    'fatal',
    'Information on cash discounts for prompt payment (Skonto) shall be provided within the element "Payment terms" BT-20 in the format #SKONTO#TAGE=n#PROZENT=n.nn#[BASISBETRAG=n.nn#].',
  ),
  R019: r(
    'DE-R-019',
    'warning',
    'The element "Payment account identifier" (BT-84) should contain a valid IBAN if code 58 SEPA is provided in "Payment means type code" (BT-81).',
  ),
  R020: r(
    'DE-R-020',
    'warning',
    'The element "Debited account identifier" (BT-91) should contain a valid IBAN if code 59 SEPA is provided in "Payment means type code" (BT-81).',
  ),
  R022: r(
    'DE-R-022',
    'fatal',
    'Attached documents provided with an invoice in "ADDITIONAL SUPPORTING DOCUMENTS" (BG-24) shall have a unique filename (non case-sensitive) within the element "Attached document" (BT-125).',
  ),
  R023_1: r(
    'DE-R-023-1',
    'fatal',
    'If "Payment means type code" (BT-81) contains a code for credit transfer (30, 58), "CREDIT TRANSFER" (BG-17) shall be provided.',
  ),
  R023_2: r(
    'DE-R-023-2',
    'fatal',
    'If "Payment means type code" (BT-81) contains a code for credit transfer (30, 58), BG-18 and BG-19 shall not be provided.',
  ),
  R024_1: r(
    'DE-R-024-1',
    'fatal',
    'If "Payment means type code" (BT-81) contains a code for payment card (48, 54, 55), "PAYMENT CARD INFORMATION" (BG-18) shall be provided.',
  ),
  R024_2: r(
    'DE-R-024-2',
    'fatal',
    'If "Payment means type code" (BT-81) contains a code for payment card (48, 54, 55), BG-17 and BG-19 shall not be provided.',
  ),
  R025_1: r(
    'DE-R-025-1',
    'fatal',
    'If "Payment means type code" (BT-81) contains a code for direct debit (59), "DIRECT DEBIT" (BG-19) shall be provided.',
  ),
  R025_2: r(
    'DE-R-025-2',
    'fatal',
    'If "Payment means type code" (BT-81) contains a code for direct debit (59), BG-17 and BG-18 shall not be provided.',
  ),
  R026: r(
    'DE-R-026',
    'warning',
    'If "Invoice type code" (BT-3) contains the code 384 (Corrected invoice), "PRECEDING INVOICE REFERENCE" (BG-3) should be provided at least once.',
  ),
  R027: r(
    'DE-R-027',
    'warning',
    '"Seller contact telephone number" (BT-42) should contain a valid telephone number (at least 3 digits).',
  ),
  R028: r(
    'DE-R-028',
    'warning',
    '"Seller contact email address" (BT-43) should contain exactly one @-sign, framed by at least two characters on each side that are neither whitespace nor a dot; a dot should not be the first or last character.',
  ),
  R030: r(
    'DE-R-030',
    'fatal',
    'If the group "DIRECT DEBIT" (BG-19) is delivered, the element "Bank assigned creditor identifier" (BT-90) shall be provided.',
  ),
  R031: r(
    'DE-R-031',
    'fatal',
    'If the group "DIRECT DEBIT" (BG-19) is delivered, the element "Debited account identifier" (BT-91) shall be provided.',
  ),
  T02: r(
    'DE-R-T02',
    'warning',
    'The "External document location" (BT-124) should be an absolute URL, starting with a scheme such as https:.',
  ),
};

/** An absolute URL: a scheme (a letter, then at least one letter, digit, '+', '.' or '-') and a colon. */
const ABSOLUTE_URL_RE = /^[a-zA-Z][a-zA-Z0-9+.-]+:/;

const TYPE_CODES = new Set(['326', '380', '384', '389', '381', '875', '876', '877']);
const VAT_CODES = new Set(['S', 'Z', 'E', 'AE', 'K', 'G', 'L', 'M']);

/** A code compared as a number: its value in canonical form ('058' → '58'), or the text when not a number. */
function numericCode(raw: string): string {
  const t = raw.trim();
  if (t === '' || !/^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$/.test(t)) return normSpace(raw);
  return String(Number(t));
}

function numberIs(raw: string, n: number): boolean {
  return numericCode(raw) === String(n);
}

/** IBAN: shape check plus ISO 7064 mod 97-10. */
export function ibanOk(raw: string): boolean {
  const v = raw.replace(/\s/g, '');
  if (!/^[A-Z]{2}[0-9]{2}[a-zA-Z0-9]{0,30}$/.test(v)) return false;
  const rearranged = (v.slice(4) + v.slice(0, 4)).toUpperCase();
  let rem = 0;
  for (const ch of rearranged) {
    const code = ch.charCodeAt(0);
    const digits = code > 64 ? String(code - 55) : String(code - 48);
    for (const d of digits) rem = (rem * 10 + Number(d)) % 97;
  }
  return rem === 1;
}

/** One '@' framed by 2+ characters that are not whitespace or '.', no leading/trailing '.', a dotted domain. */
const EMAIL_RE = /^[^@\s.][^@\s]*[^@\s.]@[^@\s.][^@\s]*\.[^@\s]*[^@\s.]$/;
const SKONTO_RE = /^#SKONTO#TAGE=([0-9]+)#PROZENT=([0-9]+\.[0-9]{2})(#BASISBETRAG=-?[0-9]+\.[0-9]{2})?#$/;

export function deRules(ctx: Ctx): void {
  if (!(sellerCountry(ctx) === 'DE' && buyerCountry(ctx) === 'DE')) return;
  const { root, seller, buyer } = ctx;
  ctx.check(R.R001, root, has(root, 'cac:PaymentMeans'));
  ctx.check(R.R002, root, has(seller, 'cac:Contact'));
  ctx.check(R.R003, root, all(seller, 'cac:PostalAddress/cbc:CityName').some(nonBlank));
  ctx.check(R.R004, root, all(seller, 'cac:PostalAddress/cbc:PostalZone').some(nonBlank));
  // Checked on each seller contact (DE-R-002 reports a seller without one).
  for (const contact of kids(seller, 'cac:Contact')) {
    ctx.check(R.R005, contact, kids(contact, 'cbc:Name').some(nonBlank));
    ctx.check(R.R006, contact, kids(contact, 'cbc:Telephone').some(nonBlank));
    ctx.check(R.R007, contact, kids(contact, 'cbc:ElectronicMail').some(nonBlank));
  }
  ctx.check(R.R008, root, all(buyer, 'cac:PostalAddress/cbc:CityName').some(nonBlank));
  ctx.check(R.R009, root, all(buyer, 'cac:PostalAddress/cbc:PostalZone').some(nonBlank));
  for (const a of all(root, 'cac:Delivery/cac:DeliveryLocation/cac:Address')) {
    ctx.check(R.R010, a, kids(a, 'cbc:CityName').some(nonBlank));
    ctx.check(R.R011, a, kids(a, 'cbc:PostalZone').some(nonBlank));
  }
  for (const tc of all(root, 'cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory'))
    ctx.check(R.R014, tc, kids(tc, 'cbc:Percent').some(nonBlank));
  ctx.check(R.R015, root, kids(root, 'cbc:BuyerReference').some(nonBlank));

  const cats = [...ctx.desc('cac:TaxCategory'), ...ctx.desc('cac:ClassifiedTaxCategory')];
  if (cats.some((tc) => VAT_CODES.has(catId(tc))))
    ctx.check(R.R016, root, has(seller, 'cac:PartyTaxScheme/cbc:CompanyID') || has(root, 'cac:TaxRepresentativeParty'));

  // From 3.0.21 the type code is read with its whitespace normalised; before, as written (DE-R-017) or
  // as a number (DE-R-026).
  const spaced = ctx.peppolFrom('3.0.21');
  const typeCodes = kids(root, ctx.typeCodeName);
  ctx.check(
    R.R017,
    root,
    typeCodes.some((t) => TYPE_CODES.has(spaced ? normSpace(str(t)) : str(t))),
  );
  if (typeCodes.some((t) => (spaced ? normSpace(str(t)) === '384' : numberIs(str(t), 384))))
    ctx.check(R.R026, root, has(root, 'cac:BillingReference/cac:InvoiceDocumentReference'));
  // Every '#' line must be a well-formed SKONTO statement terminated by a line break (so the text after
  // the last line break must not be a statement).
  for (const note of all(root, 'cac:PaymentTerms/cbc:Note')) {
    const lines = str(note).split(/\r?\n/);
    const last = lines.pop()!;
    const ok =
      lines.every((line) => !line.trim().startsWith('#') || SKONTO_RE.test(line.trim())) &&
      !last.trim().startsWith('#');
    ctx.check(R.R018, note, ok);
  }

  for (const pm of kids(root, 'cac:PaymentMeans')) {
    const codeNode = kid(pm, 'cbc:PaymentMeansCode');
    // Which payment-means group applies: from 3.0.21 by the code with whitespace normalised, before by
    // its numeric value.
    const code = spaced ? normSpace(str(codeNode)) : numericCode(str(codeNode));
    const transfer = has(pm, 'cac:PayeeFinancialAccount');
    const card = has(pm, 'cac:CardAccount');
    const mandate = has(pm, 'cac:PaymentMandate');
    // The IBAN warnings apply to the (first) account of a SEPA payment means: a missing account is no IBAN.
    const codeText = spaced ? normSpace(str(codeNode)) : str(codeNode);
    if ((code === '30' || code === '58') && codeText === '58')
      ctx.check(R.R019, pm, ibanOk(str(all(pm, 'cac:PayeeFinancialAccount/cbc:ID')[0])));
    if (code === '59' && codeText === '59')
      ctx.check(R.R020, pm, ibanOk(str(all(pm, 'cac:PaymentMandate/cac:PayerFinancialAccount/cbc:ID')[0])));
    if (code === '30' || code === '58') {
      ctx.check(R.R023_1, pm, transfer);
      ctx.check(R.R023_2, pm, !card && !mandate);
    }
    if (code === '48' || code === '54' || code === '55') {
      ctx.check(R.R024_1, pm, card);
      ctx.check(R.R024_2, pm, !transfer && !mandate);
    }
    if (code === '59') {
      ctx.check(R.R025_1, pm, mandate);
      ctx.check(R.R025_2, pm, !transfer && !card);
    }
    for (const m of kids(pm, 'cac:PaymentMandate')) {
      const sepa = (party: XNode | undefined) =>
        all(party, 'cac:PartyIdentification/cbc:ID').some((id) => attr(id, 'schemeID') === 'SEPA');
      ctx.check(R.R030, m, sepa(seller) || sepa(kid(root, 'cac:PayeeParty')));
      ctx.check(R.R031, m, has(m, 'cac:PayerFinancialAccount/cbc:ID'));
    }
  }

  const names = all(root, 'cac:AdditionalDocumentReference/cac:Attachment/cbc:EmbeddedDocumentBinaryObject')
    .map((b) => attr(b, 'filename'))
    .filter((f): f is string => f !== undefined);
  ctx.check(R.R022, root, new Set(names.map((n) => n.toLowerCase())).size === names.length);

  if (spaced)
    for (const ext of all(root, 'cac:AdditionalDocumentReference/cac:Attachment/cac:ExternalReference'))
      ctx.check(R.T02, ext, ABSOLUTE_URL_RE.test(str(kid(ext, 'cbc:URI'))));

  // Evaluated per seller contact: a missing telephone / e-mail also fails these checks.
  for (const contact of kids(seller, 'cac:Contact')) {
    const tel = normSpace(str(kid(contact, 'cbc:Telephone')));
    ctx.check(R.R027, contact, (tel.match(/[0-9]/g) ?? []).length >= 3);
    const mail = normSpace(str(kid(contact, 'cbc:ElectronicMail')));
    ctx.check(R.R028, contact, EMAIL_RE.test(mail));
  }
}
