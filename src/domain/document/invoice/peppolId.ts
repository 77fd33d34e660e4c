import { PEPPOL_EAS } from './codeLists.js';
import { ownEntry } from '../../ownEntry.js';
import {
  belgianEnterpriseNumber,
  compactId,
  isValidBelgianEnterpriseNumber,
  isValidBelgianVat,
  isValidDutchKvk,
  isValidSiret,
  luhnValid,
  vatCountry,
} from './vatNumber.js';

/** Peppol participant identifier `<scheme>:<identifier>` (scheme = ISO 6523 ICD / EAS code). */
export interface PeppolId {
  readonly scheme: string;
  readonly identifier: string;
}

/** Schemes the spec names that are not (or no longer) in the Peppol EAS list. */
const EXTRA_SCHEMES = new Set(['9956', '9999']);

export const isKnownScheme = (scheme: string): boolean => PEPPOL_EAS.has(scheme) || EXTRA_SCHEMES.has(scheme);

/** ICD codes (4 digits starting with 0) may also be used as PartyIdentification/@schemeID (BR-CL-10). */
export const isIcdScheme = (scheme: string): boolean => /^0\d{3}$/.test(scheme);

/** GS1 check digit (GLN, scheme 0088), as PEPPOL-COMMON-R040 computes it. */
export const gs1CheckDigitValid = (digits: string): boolean => {
  if (!/^\d{2,}$/.test(digits)) return false;
  const body = digits.slice(0, -1);
  let total = 0;
  for (let i = 0; i < body.length; i++) {
    const d = Number(body[body.length - 1 - i]);
    total += d * (i % 2 === 0 ? 3 : 1);
  }
  return (10 - (total % 10)) % 10 === Number(digits[digits.length - 1]);
};

/** The identifier checks the Peppol rules (PEPPOL-COMMON-R04x) and the spec apply per scheme; null when fine. */
export const identifierProblem = (scheme: string, identifier: string): string | null => {
  const id = identifier.trim();
  if (id.length === 0) return 'identifier is empty';
  switch (scheme) {
    case '0208':
    case '9956':
      return isValidBelgianEnterpriseNumber(id) && /^\d{10}$/.test(id)
        ? null
        : 'a Belgian enterprise number is 10 digits with a valid mod-97 check';
    case '0088':
      return gs1CheckDigitValid(id) ? null : 'a GLN is digits with a valid GS1 check digit';
    case '0106':
      return isValidDutchKvk(id) ? null : 'a Dutch KvK number is 8 digits';
    case '0184':
      return /^(DK)?\d{8}$/.test(id) ? null : 'a Danish CVR number is 8 digits, optionally prefixed by DK';
    case '0009':
      return isValidSiret(id) ? null : 'a SIRET is 14 digits with a valid Luhn check';
    case '0007':
      return /^\d{10}$/.test(id) && luhnValid(id)
        ? null
        : 'a Swedish organisation number is 10 digits with a Luhn check';
    case '9925':
      return isValidBelgianVat(id) ? null : 'a Belgian VAT number is BE + 10 digits with a valid mod-97 check';
    case '9944':
      return /^NL\d{9}B\d{2}$/.test(id) ? null : 'a Dutch VAT number is NL + 9 digits + B + 2 digits';
    case '9930':
      return /^DE\d{9}$/.test(id) ? null : 'a German VAT number is DE + 9 digits';
    case '9957':
      return /^FR[0-9A-Z]{2}\d{9}$/.test(id) ? null : 'a French VAT number is FR + 2 characters + 9 digits';
    default:
      return /^[\x21-\x7e]{1,135}$/.test(id) ? null : 'identifier contains invalid characters';
  }
};

export type PeppolIdResult = { ok: true; value: PeppolId } | { ok: false; message: string };

/** Parses `<scheme>:<identifier>` (an `iso6523-actorid-upis::` prefix is tolerated). */
export const parsePeppolId = (text: string): PeppolIdResult => {
  const t = text.trim().replace(/^iso6523-actorid-upis::/i, '');
  const m = /^(\d{4}):(.+)$/.exec(t);
  if (!m)
    return { ok: false, message: 'Peppol identifier must have the form <scheme>:<identifier>, e.g. 0208:0123456749' };
  const scheme = m[1]!;
  const identifier = m[2]!.trim();
  if (!isKnownScheme(scheme)) return { ok: false, message: `unknown Peppol identifier scheme ${scheme}` };
  const problem = identifierProblem(scheme, identifier);
  if (problem) return { ok: false, message: problem };
  return { ok: true, value: { scheme, identifier } };
};

export const formatPeppolId = (id: PeppolId): string => `${id.scheme}:${id.identifier}`;

export const peppolIdProblem = (text: string): string | null => {
  const r = parsePeppolId(text);
  return r.ok ? null : r.message;
};

/** EAS schemes for VAT numbers per country prefix. */
const VAT_EAS: Readonly<Record<string, string>> = {
  AT: '9914',
  BE: '9925',
  BG: '9926',
  CY: '9928',
  CZ: '9929',
  DE: '9930',
  EE: '9931',
  GB: '9932',
  GR: '9933',
  HR: '9934',
  IE: '9935',
  LI: '9936',
  LT: '9937',
  LU: '9938',
  LV: '9939',
  MC: '9940',
  ME: '9941',
  MK: '9942',
  MT: '9943',
  NL: '9944',
  PL: '9945',
  PT: '9946',
  RO: '9947',
  RS: '9948',
  SI: '9949',
  SK: '9950',
  SM: '9951',
  TR: '9952',
  VA: '9953',
  FR: '9957',
  ES: '9920',
  HU: '9910',
  IT: '0211',
};

/**
 * The participant id of a party when none is given explicitly. The spec's rule comes first: a Belgian
 * tax id BE<digits> becomes 0208:<digits>. Then national company numbers (KvK 0106, SIRET 0009), then the
 * EAS scheme of the VAT number's country. A tax id already in `<scheme>:<id>` form is used as it is.
 */
export const derivePeppolId = (taxId: string | null, companyId: string | null): PeppolId | null => {
  for (const candidate of [taxId, companyId]) {
    if (candidate && /^\s*\d{4}:/.test(candidate)) {
      const r = parsePeppolId(candidate);
      if (r.ok) return r.value;
    }
  }
  if (taxId) {
    const be = belgianEnterpriseNumber(taxId);
    if (be && isValidBelgianEnterpriseNumber(be)) return { scheme: '0208', identifier: be };
  }
  if (companyId) {
    const c = compactId(companyId);
    if (/^BE\d{10}$/.test(c) || /^[01]\d{9}$/.test(c)) {
      const digits = c.replace(/^BE/, '');
      if (isValidBelgianEnterpriseNumber(digits)) return { scheme: '0208', identifier: digits };
    }
    const country = taxId ? vatCountry(taxId) : null;
    if (country === 'NL' && isValidDutchKvk(c)) return { scheme: '0106', identifier: c };
    if (country === 'FR' && isValidSiret(c)) return { scheme: '0009', identifier: c };
  }
  if (taxId) {
    const c = compactId(taxId);
    const country = vatCountry(c);
    const scheme = country ? ownEntry(VAT_EAS, country) : undefined;
    if (scheme) return { scheme, identifier: c };
  }
  return null;
};

/**
 * The participant id a party's EndpointID carries, as the UBL writer writes it (before
 * endpointIdFor): the one given, else the one its tax or company id implies. A given id is taken
 * as it is, not re-validated: it was checked when the document was accepted, and a document read
 * from UBL keeps whatever its sender used (the rules report it).
 */
export const partyPeppolId = (
  peppolId: string | null,
  taxId: string | null,
  companyId: string | null,
): PeppolId | null => {
  const given = peppolId ? /^\s*(?:iso6523-actorid-upis::)?([^:\s]+):(.+)$/i.exec(peppolId) : null;
  return given ? { scheme: given[1]!, identifier: given[2]!.trim() } : derivePeppolId(taxId, companyId);
};

/**
 * The id as it goes into an EndpointID. 9956 carries the same enterprise number as 0208 but is not
 * in the Peppol EAS list, so it is written as 0208. Other schemes are written as they are: dropping
 * them would lose data, and the rule layer (PEPPOL-EN16931-CL008) reports the ones Peppol refuses.
 */
export const endpointIdFor = (id: PeppolId): PeppolId => {
  if (id.scheme === '9956') return { scheme: '0208', identifier: id.identifier };
  return id;
};
