// Facts the Peppol rule file derives once per document (its "let" variables).
import type { Ctx } from '../../context.js';
import { all, normSpace, str } from '../../../xml/xmlTree.js';

const PROFILE_RE = /urn:fdc:peppol\.eu:2017:poacc:billing:([0-9]{2}):1\.0/;
const PROFILE_LOOSE_RE = /urn:fdc:peppol.eu:2017:poacc:billing:([0-9]{2}):1.0/;

/** From 3.0.21 a profile is one of the listed identifiers, each naming its process number. */
const BILLING_PROFILES_3_0_21: ReadonlyMap<string, string> = new Map([
  ['urn:fdc:peppol.eu:2017:poacc:billing:01:1.0', '01'],
  // France's two transitional profiles are read as profile 01.
  ['urn:peppol:france:billing:regulated', '01'],
  ['urn:peppol:france:billing:non-regulated', '01'],
  // Profile 02: billing with invoice response.
  ['urn:peppol:bis:billing_with_response', '02'],
]);
const SELFBILLING_PROFILES_3_0_21: ReadonlyMap<string, string> = new Map([
  ['urn:fdc:peppol.eu:2017:poacc:selfbilling:01:1.0', '01'],
  ['urn:peppol:france:billing:regulated', '01'],
  ['urn:peppol:france:billing:non-regulated', '01'],
  ['urn:peppol:bis:billing_with_response', '02'],
]);

/**
 * Profile number ('01', …) of the document, 'Unknown' when it names no accepted profile. Up to 3.0.19:
 * the 7th colon-separated part of a ProfileID of the Peppol shape; from 3.0.21 only the listed
 * identifiers (self-billing: its own list).
 */
export function profileOf(ctx: Ctx, selfBilling = false): string {
  const p = all(ctx.root, 'cbc:ProfileID')[0];
  if (!p) return 'Unknown';
  const v = normSpace(str(p));
  if (ctx.peppolFrom('3.0.21'))
    return (selfBilling ? SELFBILLING_PROFILES_3_0_21 : BILLING_PROFILES_3_0_21).get(v) ?? 'Unknown';
  if (!PROFILE_LOOSE_RE.test(v)) return 'Unknown';
  return v.split(':')[6] ?? 'Unknown';
}
export { PROFILE_RE, PROFILE_LOOSE_RE };

export const SELFBILLING_CUSTOMIZATION_PREFIX =
  'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:selfbilling:3.0';

/** The document declares Peppol BIS Self-Billing: it has a CustomizationID and every one starts with its identifier. */
export function declaresSelfBilling(ctx: Ctx): boolean {
  const customizations = all(ctx.root, 'cbc:CustomizationID').map((c) => normSpace(str(c)));
  return customizations.length > 0 && customizations.every((c) => c.startsWith(SELFBILLING_CUSTOMIZATION_PREFIX));
}

/** Postal-address country code of seller / buyer (trimmed, upper-cased), as used by R002, P0112 and DE-*. */
export function sellerCountry(ctx: Ctx): string {
  return normSpace(str(all(ctx.seller, 'cac:PostalAddress/cac:Country/cbc:IdentificationCode')[0])).toUpperCase();
}
export function buyerCountry(ctx: Ctx): string {
  return normSpace(str(all(ctx.buyer, 'cac:PostalAddress/cac:Country/cbc:IdentificationCode')[0])).toUpperCase();
}
