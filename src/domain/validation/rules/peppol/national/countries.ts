// Country triggers used by the national rules of the Peppol 3.0.19 rule file.
import type { Ctx } from '../../../context.js';
import { all, kids, normSpace, str, type XNode } from '../../../../xml/xmlTree.js';

/** PartyTaxScheme with TaxScheme/ID exactly 'VAT' (the Peppol file compares without trimming). */
function vatCompanyIds(party: XNode | undefined): XNode[] {
  return kids(party, 'cac:PartyTaxScheme')
    .filter((p) => all(p, 'cac:TaxScheme/cbc:ID').some((id) => str(id) === 'VAT'))
    .flatMap((p) => kids(p, 'cbc:CompanyID'));
}

/**
 * Seller country for NO/IT/GR: first two letters of the seller VAT identifier, else of the tax
 * representative's VAT identifier, else the seller postal country; 'XX' when none is known.
 */
export function supplierCountryByVat(ctx: Ctx): string {
  const seller = vatCompanyIds(ctx.seller)[0];
  if (seller && str(seller).slice(0, 2) !== '') return normSpace(str(seller).slice(0, 2)).toUpperCase();
  const rep = vatCompanyIds(ctx.taxRep)[0];
  if (rep && str(rep).slice(0, 2) !== '') return normSpace(str(rep).slice(0, 2)).toUpperCase();
  const postal = all(ctx.seller, 'cac:PostalAddress/cac:Country/cbc:IdentificationCode')[0];
  if (postal) return normSpace(str(postal)).toUpperCase();
  return 'XX';
}

/** Seller country for the Greek endpoint rule: the seller's VAT identifier, else its postal country (no tax representative). */
export function accountingSupplierCountry(ctx: Ctx): string {
  const seller = vatCompanyIds(ctx.seller)[0];
  if (seller && str(seller).slice(0, 2) !== '') return normSpace(str(seller).slice(0, 2)).toUpperCase();
  const postal = all(ctx.seller, 'cac:PostalAddress/cac:Country/cbc:IdentificationCode')[0];
  if (postal) return normSpace(str(postal)).toUpperCase();
  return 'XX';
}

export function customerCountryByVat(ctx: Ctx): string {
  const buyer = vatCompanyIds(ctx.buyer)[0];
  if (buyer && str(buyer).slice(0, 2) !== '') return normSpace(str(buyer).slice(0, 2)).toUpperCase();
  const postal = all(ctx.buyer, 'cac:PostalAddress/cac:Country/cbc:IdentificationCode')[0];
  if (postal) return normSpace(str(postal)).toUpperCase();
  return 'XX';
}

/** Postal-address country code (raw text of the first one) of a party. */
export function postalCountry(party: XNode | undefined): string {
  return str(all(party, 'cac:PostalAddress/cac:Country/cbc:IdentificationCode')[0]);
}

/**
 * Postal country of the seller or buyer as the DK and IS rules read it: the concatenation of every such
 * code in the document. Undefined when there is more than one: the official rule file's patterns then
 * fail to match (a type error, which the XSLT processor reports as a warning), so those rules do not apply.
 */
export function concatPostalCountry(
  ctx: Ctx,
  party: 'cac:AccountingSupplierParty' | 'cac:AccountingCustomerParty',
): string | undefined {
  const codes = all(ctx.root, `${party}/cac:Party/cac:PostalAddress/cac:Country/cbc:IdentificationCode`);
  return codes.length > 1 ? undefined : str(codes[0]);
}

export { vatCompanyIds };
