// Facts the Peppol rule file derives once per document (its "let" variables).
import type { Ctx } from '../../context.js';
import { all, normSpace, str } from '../../../xml/xmlTree.js';

const PROFILE_RE = /urn:fdc:peppol\.eu:2017:poacc:billing:([0-9]{2}):1\.0/;
const PROFILE_LOOSE_RE = /urn:fdc:peppol.eu:2017:poacc:billing:([0-9]{2}):1.0/;

/** Profile number ('01', …) = 7th colon-separated part of ProfileID when it has the Peppol shape, else 'Unknown'. */
export function profileOf(ctx: Ctx): string {
  const p = all(ctx.root, 'cbc:ProfileID')[0];
  if (!p) return 'Unknown';
  const v = normSpace(str(p));
  if (!PROFILE_LOOSE_RE.test(v)) return 'Unknown';
  return v.split(':')[6] ?? 'Unknown';
}
export { PROFILE_RE, PROFILE_LOOSE_RE };

/** Postal-address country code of seller / buyer (trimmed, upper-cased), as used by R002, P0112 and DE-*. */
export function sellerCountry(ctx: Ctx): string {
  return normSpace(str(all(ctx.seller, 'cac:PostalAddress/cac:Country/cbc:IdentificationCode')[0])).toUpperCase();
}
export function buyerCountry(ctx: Ctx): string {
  return normSpace(str(all(ctx.buyer, 'cac:PostalAddress/cac:Country/cbc:IdentificationCode')[0])).toUpperCase();
}
