import { countryOfScheme } from './schemeCountry.js';

const SUPPLIER = /<(?:[\w.-]+:)?AccountingSupplierParty[\s>][\s\S]*?<\/(?:[\w.-]+:)?AccountingSupplierParty>/;
const COUNTRY = /<(?:[\w.-]+:)?Country[\s>][\s\S]*?<(?:[\w.-]+:)?IdentificationCode(?:\s[^>]*)?>\s*([A-Z]{2})\s*</;

/**
 * The SBDH COUNTRY_C1 of a UBL business document: its seller's country (the supplier party's
 * postal address), else the country of the sender's participant id scheme; null when neither says.
 * The UBL is one we validated and wrote (or stored as uploaded), so a text scan of it suffices.
 */
export function countryC1Of(ubl: string, senderParticipant: string | null): string | null {
  const supplier = SUPPLIER.exec(ubl)?.[0];
  const country = supplier ? COUNTRY.exec(supplier)?.[1] : undefined;
  if (country) return country;
  const scheme = senderParticipant?.split(':')[0];
  return scheme ? countryOfScheme(scheme) : null;
}
