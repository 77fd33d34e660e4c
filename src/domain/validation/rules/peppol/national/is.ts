// Icelandic national rules (IS-R-*): apply when the seller's postal country is IS (IS-R-004/005 also
// need an Icelandic buyer). The same in 3.0.19 and 3.0.21.
import { Ctx, rule } from '../../../context.js';
import { all, attr, has, kid, kids, normSpace, str, type XNode } from '../../../../xml/xmlTree.js';
import { isCalendarDate } from '../codes.js';

const R = {
  R001: rule('IS-R-001', 'warning', 'An Icelandic seller should use document type 380 (invoice) or 381 (credit note).'),
  R002: rule(
    'IS-R-002',
    'fatal',
    'An Icelandic seller must state its Icelandic national identifier (kennitala, scheme 0196) as legal registration identifier (BT-30).',
  ),
  R003: rule(
    'IS-R-003',
    'fatal',
    'An Icelandic seller must state a street name and a post code in its address (BT-35, BT-38).',
  ),
  R004: rule(
    'IS-R-004',
    'fatal',
    "When seller and buyer are Icelandic, the buyer's legal registration identifier (BT-47) must be its kennitala (scheme 0196).",
  ),
  R005: rule(
    'IS-R-005',
    'fatal',
    "When seller and buyer are Icelandic, the buyer's address must have a street name and a post code (BT-50, BT-53).",
  ),
  R006: rule(
    'IS-R-006',
    'fatal',
    'An Icelandic seller using payment means 9 must give a 12-character payment account identifier (BT-84).',
  ),
  R007: rule(
    'IS-R-007',
    'fatal',
    'An Icelandic seller using payment means 42 must give a 12-character payment account identifier (BT-84).',
  ),
  R008: rule(
    'IS-R-008',
    'fatal',
    'The final due date (supporting document described EINDAGI, its identifier) must be a date written YYYY-MM-DD.',
  ),
  R009: rule(
    'IS-R-009',
    'fatal',
    'An invoice with a final due date (EINDAGI) must also have a payment due date (BT-9).',
  ),
  R010: rule(
    'IS-R-010',
    'fatal',
    'The final due date (EINDAGI) must be the same as or later than the payment due date (BT-9).',
  ),
};

const TYPES = new Set(['380', '381']);

/** Postal country of a party as the Icelandic rules read it: the codes written, joined. */
function country(party: XNode | undefined): string {
  return all(party, 'cac:PostalAddress/cac:Country/cbc:IdentificationCode')
    .map((c) => str(c))
    .join('');
}

const hasKennitala = (party: XNode | undefined) => {
  const ids = all(party, 'cac:PartyLegalEntity/cbc:CompanyID');
  return ids.length > 0 && ids.some((c) => attr(c, 'schemeID') === '0196');
};
const hasStreetAndZone = (party: XNode | undefined) =>
  has(party, 'cac:PostalAddress/cbc:StreetName') && has(party, 'cac:PostalAddress/cbc:PostalZone');

export function isRules(ctx: Ctx): void {
  if (country(ctx.seller) !== 'IS') return;
  const { root } = ctx;
  const typeCodes = [...kids(root, 'cbc:InvoiceTypeCode'), ...kids(root, 'cbc:CreditNoteTypeCode')];
  ctx.check(
    R.R001,
    root,
    typeCodes.some((t) => TYPES.has(normSpace(str(t)))),
  );
  ctx.check(R.R002, root, hasKennitala(ctx.seller));
  ctx.check(R.R003, root, hasStreetAndZone(ctx.seller));
  if (country(ctx.buyer) === 'IS')
    for (const acp of kids(root, 'cac:AccountingCustomerParty')) {
      const party = kid(acp, 'cac:Party');
      ctx.check(R.R004, acp, hasKennitala(party));
      ctx.check(R.R005, acp, hasStreetAndZone(party));
    }
  // Payment means 9 / 42: the (first) payee account identifier has 12 characters.
  const accountOk = (code: string) => {
    const means = kids(root, 'cac:PaymentMeans').filter((pm) =>
      kids(pm, 'cbc:PaymentMeansCode').some((c) => str(c) === code),
    );
    if (means.length === 0) return true;
    const account = means.flatMap((pm) => all(pm, 'cac:PayeeFinancialAccount/cbc:ID'))[0];
    return account !== undefined && normSpace(str(account)).length === 12;
  };
  ctx.check(R.R006, root, accountOk('9'));
  ctx.check(R.R007, root, accountOk('42'));

  const finalDue = kids(root, 'cac:AdditionalDocumentReference').filter((a) =>
    kids(a, 'cbc:DocumentDescription').some((d) => str(d) === 'EINDAGI'),
  );
  if (finalDue.length === 0) return;
  const finalDueIds = finalDue.flatMap((a) => kids(a, 'cbc:ID'));
  const first = str(finalDueIds[0]);
  ctx.check(R.R008, root, first.length === 10 && isCalendarDate(first));
  const dueDates = kids(root, 'cbc:DueDate');
  ctx.check(R.R009, root, dueDates.length > 0);
  // Compared as text: a due date written the same way sorts before a later final due date.
  ctx.check(
    R.R010,
    root,
    dueDates.some((d) => finalDueIds.some((id) => str(d) <= str(id))),
  );
}
