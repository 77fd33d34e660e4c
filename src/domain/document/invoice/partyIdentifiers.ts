import { isIcdScheme, parsePeppolId } from './peppolId.js';
import { compactId, isValidBelgianEnterpriseNumber, isValidDutchKvk, isValidSiret, vatCountry } from './vatNumber.js';

// How the identifiers of the model map onto UBL party identifiers, in both directions.

/** A VAT number for PartyTaxScheme: VAT form as given, or the Belgian VAT behind a 0208/9925 participant id. */
export const vatIdentifierOf = (taxId: string | null): string | null => {
  if (!taxId) return null;
  if (/^\s*\d{4}:/.test(taxId)) {
    const p = parsePeppolId(taxId);
    if (!p.ok) return null;
    if (p.value.scheme === '0208' || p.value.scheme === '9956') return `BE${p.value.identifier}`;
    if (/^99\d\d$/.test(p.value.scheme) && vatCountry(p.value.identifier)) return compactId(p.value.identifier);
    return null;
  }
  // Written as given: the create codec already normalised it, and a received document keeps its own form.
  return taxId.trim();
};

/** Legal registration id (BT-30/BT-47) with the scheme we can tell from its shape. */
export const legalIdOf = (
  companyId: string | null,
  taxId: string | null,
): { id: string; scheme: string | null } | null => {
  if (!companyId || companyId.trim() === '') return null;
  // "<scheme>:<id>" keeps a scheme we could not infer (a received document's own choice).
  const explicit = /^\s*(\d{4}):(.+)$/.exec(companyId);
  if (explicit) return { id: explicit[2]!.trim(), scheme: isIcdScheme(explicit[1]!) ? explicit[1]! : null };
  const c = compactId(companyId);
  const country = taxId ? vatCountry(taxId) : null;
  const digits = c.replace(/^BE/, '');
  if ((country === 'BE' || country === null || c.startsWith('BE')) && isValidBelgianEnterpriseNumber(digits)) {
    return { id: digits, scheme: '0208' };
  }
  if (country === 'NL' && isValidDutchKvk(c)) return { id: c, scheme: '0106' };
  if (country === 'FR' && isValidSiret(c)) return { id: c, scheme: '0009' };
  if (country === 'FR' && /^\d{9}$/.test(c)) return { id: c, scheme: '0002' };
  return { id: companyId.trim(), scheme: null };
};

/** customer_id "0088:5790000435975" carries a scheme; anything else is a plain identifier. */
export const buyerIdentificationOf = (customerId: string | null): { id: string; scheme: string | null } | null => {
  if (!customerId || customerId.trim() === '') return null;
  const m = /^(0\d{3}):(.+)$/.exec(customerId.trim());
  if (m) return { id: m[2]!, scheme: m[1]! };
  return { id: customerId.trim(), scheme: null };
};

/** The inverse of legalIdOf for a received CompanyID: the text, prefixed by its scheme when we would not infer it. */
export const companyIdText = (id: string, scheme: string | null, taxId: string | null): string => {
  if (!scheme) return id;
  return legalIdOf(id, taxId)?.scheme === scheme ? id : `${scheme}:${id}`;
};
