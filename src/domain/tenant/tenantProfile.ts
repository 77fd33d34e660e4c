import {
  compactId,
  isValidBelgianEnterpriseNumber,
  isValidDutchKvk,
  vatCountry,
  vatNumberProblem,
} from '../document/invoice/vatNumber.js';
import { formatPeppolId, parsePeppolId } from '../document/invoice/peppolId.js';

/** A tenant profile field that can be wrong, with the index inside `peppol_ids` when it is one of those. */
export interface ProfileProblem {
  field: 'company_number' | 'company_tax_id' | 'peppol_ids';
  index?: number;
  message: string;
}

export interface CompanyIdentifiers {
  company_number: string | null;
  company_tax_id: string | null;
  peppol_ids: string[];
}

/**
 * The national register number, checked against the country of the tax id when there is one
 * (a Belgian company has a Belgian enterprise number, a Dutch one a KvK number). Without a tax
 * id the number's own shape tells: 10 digits starting with 0 or 1 are Belgian, 8 digits Dutch.
 */
function companyNumberProblem(number: string, taxId: string | null): string | null {
  const c = compactId(number).replace(/^BE(?=\d{10}$)/, '');
  const country = taxId ? vatCountry(taxId) : null;
  const belgian = country === 'BE' || (country === null && /^\d{10}$/.test(c));
  if (belgian) {
    if (!isValidBelgianEnterpriseNumber(c))
      return 'a Belgian enterprise number is 10 digits starting with 0 or 1 with a valid mod-97 check';
    // The Belgian VAT number is "BE" + the enterprise number: two different numbers are a typo.
    const vatDigits = taxId && country === 'BE' ? compactId(taxId).slice(2).padStart(10, '0') : null;
    if (vatDigits !== null && vatDigits !== c)
      return 'the enterprise number differs from the digits of the Belgian VAT number';
    return null;
  }
  if (country === 'NL' || (country === null && /^\d{8}$/.test(c))) {
    return isValidDutchKvk(c) ? null : 'a Dutch chamber-of-commerce (KvK) number is 8 digits';
  }
  // Other registers (e.g. Luxembourg's RCS "B123456") have no check we can do offline.
  return /^[A-Z0-9]{1,35}$/.test(c) ? null : 'a company number is 1 to 35 letters and digits';
}

/** An empty string means "no number", as null does. */
const blankToNull = (value: string | null) => (value === null || value.trim() === '' ? null : value);

/**
 * Checks the identifiers of a tenant profile and returns them in their canonical, compact form
 * ("BE 0123.456.749" becomes "BE0123456749"), so that equal numbers are stored equally.
 */
export function checkCompanyIdentifiers(
  ids: CompanyIdentifiers,
): { ok: true; value: CompanyIdentifiers } | { ok: false; problems: ProfileProblem[] } {
  const problems: ProfileProblem[] = [];
  const givenTaxId = blankToNull(ids.company_tax_id);
  const taxId = givenTaxId === null ? null : compactId(givenTaxId);
  const taxProblem = taxId === null ? null : vatNumberProblem(taxId);
  if (taxProblem) problems.push({ field: 'company_tax_id', message: taxProblem });
  const givenNumber = blankToNull(ids.company_number);
  // "BE0123456749" given as the company number is the enterprise number with the VAT prefix.
  const number = givenNumber === null ? null : compactId(givenNumber).replace(/^BE(?=\d{10}$)/, '');
  if (number !== null) {
    // A wrong tax id must not make a right company number look wrong: check it on its own then.
    const numberProblem = companyNumberProblem(number, taxProblem ? null : taxId);
    if (numberProblem) problems.push({ field: 'company_number', message: numberProblem });
  }
  const peppolIds: string[] = [];
  if (ids.peppol_ids.length > 1)
    problems.push({ field: 'peppol_ids', message: 'exactly one Peppol identifier is supported' });
  ids.peppol_ids.forEach((text, index) => {
    const parsed = parsePeppolId(text);
    if (parsed.ok) peppolIds.push(formatPeppolId(parsed.value));
    else problems.push({ field: 'peppol_ids', index, message: parsed.message });
  });
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, value: { company_number: number, company_tax_id: taxId, peppol_ids: peppolIds } };
}
