// UBL data type rules UBL-DT-*: amount precision, binary object attributes, attributes outside the subset.
import { Ctx, rule, type Rule } from '../../context.js';
import { decimalsInText } from '../../decimal.js';
import { attr, type XNode } from '../../../xml/xmlTree.js';

const DT01 = rule('UBL-DT-01', 'fatal', 'Amount shall be decimal up to two fraction digits');
const DT06 = rule('UBL-DT-06', 'fatal', 'Binary object elements shall contain the mime code attribute');
const DT07 = rule('UBL-DT-07', 'fatal', 'Binary object elements shall contain the file name attribute');

/** Attributes that should not appear anywhere (one warning per document each). */
const FORBIDDEN_ATTRS: [Rule, string][] = [
  ['08', 'schemeName'],
  ['09', 'schemeAgencyName'],
  ['10', 'schemeDataURI'],
  ['11', 'schemeURI'],
  ['12', 'format'],
  ['13', 'unitCodeListIdentifier'],
  ['14', 'unitCodeListAgencyIdentifier'],
  ['15', 'unitCodeListAgencyName'],
  ['16', 'listAgencyName'],
  ['17', 'listName'],
  ['18', 'name'],
  ['19', 'languageID'],
  ['20', 'listURI'],
  ['21', 'listSchemeURI'],
  ['22', 'languageLocaleID'],
  ['23', 'uri'],
  ['24', 'currencyCodeListVersionID'],
  ['25', 'characterSetCode'],
  ['26', 'encodingCode'],
  ['27', 'schemeAgencyID'],
  ['28', 'listAgencyID'],
].map(([n, a]) => [rule(`UBL-DT-${n}`, 'warning', `Attribute '${a}' should not be present`), a!] as [Rule, string]);

function inPriceAllowance(n: XNode): boolean {
  const p = n.parent;
  return p?.name === 'cac:AllowanceCharge' && p.parent?.name === 'cac:Price';
}

export function dataTypeRules(ctx: Ctx): void {
  const seen = new Set<string>();
  for (const el of ctx.elements()) {
    const local = el.local;
    if (el.name.startsWith('cbc:')) {
      if (local.endsWith('Amount') && local !== 'PriceAmount' && !inPriceAllowance(el))
        ctx.check(DT01, el, decimalsInText(el) <= 2);
      if (local.endsWith('BinaryObject')) {
        ctx.check(DT06, el, attr(el, 'mimeCode') !== undefined);
        ctx.check(DT07, el, attr(el, 'filename') !== undefined);
      }
    }
    for (const a in el.attrs) {
      if (a === 'name' && el.name === 'cbc:PaymentMeansCode') continue;
      seen.add(a);
    }
  }
  for (const [r, a] of FORBIDDEN_ATTRS) if (seen.has(a)) ctx.fail(r, ctx.root);
}
