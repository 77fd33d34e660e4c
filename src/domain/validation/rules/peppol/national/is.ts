// Icelandic national rules (IS-R-*): apply when the seller's postal country is exactly 'IS'
// (IS-R-004/005 also need an Icelandic buyer). The same in Peppol 3.0.19 and 3.0.21.
import { Ctx, rule } from '../../../context.js';
import { all, attr, kids, str, type XNode } from '../../../../xml/xmlTree.js';
import { isCalendarDate } from '../codes.js';
import { concatPostalCountry } from './countries.js';

const R = {
  R001: rule(
    'IS-R-001',
    'warning',
    'An Icelandic seller should use invoice type code 380 or credit note type code 381',
  ),
  R002: rule(
    'IS-R-002',
    'fatal',
    "An Icelandic seller must give its Icelandic legal registration number (kennitala, BT-30) with scheme '0196'",
  ),
  R003: rule(
    'IS-R-003',
    'fatal',
    "An Icelandic seller's postal address must include the street name (BT-35) and the post code (BT-38)",
  ),
  R004: rule(
    'IS-R-004',
    'fatal',
    "When seller and buyer are both Icelandic, the buyer's Icelandic legal registration number (kennitala, BT-47) with scheme '0196' is required",
  ),
  R005: rule(
    'IS-R-005',
    'fatal',
    "When seller and buyer are both Icelandic, the buyer's postal address must include the street name (BT-50) and the post code (BT-53)",
  ),
  R006: rule(
    'IS-R-006',
    'fatal',
    'An Icelandic seller using payment means 9 (claim) must give a 12-character account identifier (BT-84: bank, ledger 66 and account number)',
  ),
  R007: rule(
    'IS-R-007',
    'fatal',
    'An Icelandic seller using payment means 42 (transfer to an account) must give a 12-character account identifier (BT-84)',
  ),
  R008: rule(
    'IS-R-008',
    'fatal',
    "The final due date (eindagi) given as a supporting document with description 'EINDAGI' (BT-122) must be a date written YYYY-MM-DD",
  ),
  R009: rule(
    'IS-R-009',
    'fatal',
    "A document with a final due date (supporting document described 'EINDAGI') must also have a payment due date (BT-9)",
  ),
  R010: rule(
    'IS-R-010',
    'fatal',
    "The final due date (supporting document described 'EINDAGI') must be on or after the payment due date (BT-9)",
  ),
};

/** XPath normalize-space: only space, tab, CR and LF count as white space. */
function xpathNormalize(s: string): string {
  return s.replace(/[ \t\r\n]+/g, ' ').replace(/^ | $/g, '');
}

/** Length in characters (code points), as XPath string-length counts. */
function charLength(s: string): number {
  return [...s].length;
}

/** Codepoint order of two strings (XPath's default collation); negative when a < b. */
function codepointCompare(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/** Payment means codes are compared as written (no trimming). */
function accountIdsOfPaymentMeans(root: XNode, code: string): { present: boolean; ids: XNode[] } {
  const means = kids(root, 'cac:PaymentMeans').filter((pm) =>
    kids(pm, 'cbc:PaymentMeansCode').some((c) => str(c) === code),
  );
  return { present: means.length > 0, ids: means.flatMap((pm) => all(pm, 'cac:PayeeFinancialAccount/cbc:ID')) };
}

function hasLegalId0196(party: XNode | undefined): boolean {
  return all(party, 'cac:PartyLegalEntity/cbc:CompanyID').some((c) => attr(c, 'schemeID') === '0196');
}

export function isRules(ctx: Ctx): void {
  const { root } = ctx;
  if (concatPostalCountry(ctx, 'cac:AccountingSupplierParty') !== 'IS') return;

  // The type code is read whichever document kind it belongs to: a credit note may carry 380 too.
  const typeCodes = [...kids(root, 'cbc:InvoiceTypeCode'), ...kids(root, 'cbc:CreditNoteTypeCode')];
  ctx.check(
    R.R001,
    root,
    typeCodes.some((c) => ['380', '381'].includes(xpathNormalize(str(c)))),
  );

  const suppliers = all(root, 'cac:AccountingSupplierParty/cac:Party');
  ctx.check(
    R.R002,
    root,
    suppliers.some((p) => hasLegalId0196(p)),
  );
  ctx.check(
    R.R003,
    root,
    suppliers.some((p) => all(p, 'cac:PostalAddress/cbc:StreetName').length > 0) &&
      suppliers.some((p) => all(p, 'cac:PostalAddress/cbc:PostalZone').length > 0),
  );

  // A claim (9) or a transfer (42) needs the 12-character account of the payee. With several such
  // payment means, every account given must have that length.
  for (const [r, code] of [
    [R.R006, '9'],
    [R.R007, '42'],
  ] as const) {
    const { present, ids } = accountIdsOfPaymentMeans(root, code);
    if (!present) continue;
    ctx.check(r, root, ids.length > 0 && ids.every((id) => charLength(xpathNormalize(str(id))) === 12));
  }

  // The final due date (eindagi) travels as a supporting document whose description is exactly
  // 'EINDAGI'. With two of them the official XSLT stops with an error; we require each to be a date.
  const eindagi = kids(root, 'cac:AdditionalDocumentReference').filter((d) =>
    kids(d, 'cbc:DocumentDescription').some((desc) => str(desc) === 'EINDAGI'),
  );
  if (eindagi.length > 0) {
    const ids = eindagi.flatMap((d) => kids(d, 'cbc:ID')).map(str);
    ctx.check(R.R008, root, ids.length > 0 && ids.every((id) => isCalendarDate(id)));
    // Only an Invoice has BT-9 at this place; the dates are compared as written, character by character.
    const dueDates = kids(root, 'cbc:DueDate').map(str);
    ctx.check(R.R009, root, dueDates.length > 0);
    ctx.check(
      R.R010,
      root,
      dueDates.some((due) => ids.some((id) => codepointCompare(due, id) <= 0)),
    );
  }

  if (concatPostalCountry(ctx, 'cac:AccountingCustomerParty') !== 'IS') return;
  for (const customer of kids(root, 'cac:AccountingCustomerParty')) {
    const parties = kids(customer, 'cac:Party');
    ctx.check(
      R.R004,
      customer,
      parties.some((p) => hasLegalId0196(p)),
    );
    ctx.check(
      R.R005,
      customer,
      parties.some((p) => all(p, 'cac:PostalAddress/cbc:StreetName').length > 0) &&
        parties.some((p) => all(p, 'cac:PostalAddress/cbc:PostalZone').length > 0),
    );
  }
}
