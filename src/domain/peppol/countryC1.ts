import { countryOfScheme } from './schemeCountry.js';

const PARTY = {
  supplier: /<(?:[\w.-]+:)?AccountingSupplierParty[\s>][\s\S]*?<\/(?:[\w.-]+:)?AccountingSupplierParty>/,
  customer: /<(?:[\w.-]+:)?AccountingCustomerParty[\s>][\s\S]*?<\/(?:[\w.-]+:)?AccountingCustomerParty>/,
};
const COUNTRY = /<(?:[\w.-]+:)?Country[\s>][\s\S]*?<(?:[\w.-]+:)?IdentificationCode(?:\s[^>]*)?>\s*([A-Z]{2})\s*</;

/**
 * The SBDH COUNTRY_C1 of a UBL business document: its sender's country (the postal address of the
 * invoice's `sender` party: the supplier for an invoice, the customer for the answer to one), else
 * the country of the sender's participant id scheme; null when neither says. The UBL is one we
 * validated and wrote (or stored as received), so a text scan of it suffices.
 */
export function countryC1Of(
  ubl: string,
  senderParticipant: string | null,
  sender: keyof typeof PARTY = 'supplier',
): string | null {
  const party = PARTY[sender].exec(ubl)?.[0];
  const country = party ? COUNTRY.exec(party)?.[1] : undefined;
  if (country) return country;
  const scheme = senderParticipant?.split(':')[0];
  return scheme ? countryOfScheme(scheme) : null;
}
