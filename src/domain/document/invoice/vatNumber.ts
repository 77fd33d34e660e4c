// VAT numbers and national company numbers as value objects. Only the checks we can do offline
// are here: format, and the check digits of the schemes that have them (Belgium).

/** Removes the separators people type (spaces, dots, dashes, slashes) and upper-cases. */
export const compactId = (value: string): string => value.replace(/[\s.\-/]/g, '').toUpperCase();

/** Belgian enterprise (CBE) number: 10 digits, 97 - (first 8 digits mod 97) == last 2 digits. */
export const isValidBelgianEnterpriseNumber = (value: string): boolean => {
  const digits = compactId(value);
  if (!/^[01]\d{9}$/.test(digits)) return false;
  const check = 97 - (Number(digits.slice(0, 8)) % 97);
  return check === Number(digits.slice(8));
};

/** BE + 10 digits with a valid mod-97 check. The old 9-digit form is accepted with a leading 0. */
export const isValidBelgianVat = (value: string): boolean => {
  const c = compactId(value);
  const m = /^BE(\d{9,10})$/.exec(c);
  if (!m) return false;
  return isValidBelgianEnterpriseNumber(m[1]!.padStart(10, '0'));
};

/** The 10-digit enterprise number inside a Belgian VAT number ("BE0123.456.749" -> "0123456749"). */
export const belgianEnterpriseNumber = (taxId: string): string | null => {
  const m = /^BE(\d{9,10})$/.exec(compactId(taxId));
  return m ? m[1]!.padStart(10, '0') : null;
};

/** Dutch chamber-of-commerce (KvK) number: exactly 8 digits. */
export const isValidDutchKvk = (value: string): boolean => /^\d{8}$/.test(compactId(value));

/** Dutch VAT (btw-id): NL + 9 digits + B + 2 digits. */
export const isValidDutchVat = (value: string): boolean => /^NL\d{9}B\d{2}$/.test(compactId(value));

/** German USt-IdNr: DE + 9 digits. */
export const isValidGermanVat = (value: string): boolean => /^DE\d{9}$/.test(compactId(value));

/** French TVA intracommunautaire: FR + 2 key characters + 9-digit SIREN. */
export const isValidFrenchVat = (value: string): boolean => /^FR[0-9A-HJ-NP-Z]{2}\d{9}$/.test(compactId(value));

/** Luhn check, used by French SIREN/SIRET and Swedish organisation numbers. */
export const luhnValid = (digits: string): boolean => {
  if (!/^\d+$/.test(digits)) return false;
  let total = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    total += d;
  }
  return total % 10 === 0;
};

/** French SIRET: 14 digits, Luhn. */
export const isValidSiret = (value: string): boolean => {
  const c = compactId(value);
  return /^\d{14}$/.test(c) && luhnValid(c);
};

/** Two-letter country prefix of a VAT number; Greek EL maps to GR. */
export const vatCountry = (taxId: string): string | null => {
  const m = /^([A-Z]{2})/.exec(compactId(taxId));
  if (!m) return null;
  return m[1] === 'EL' ? 'GR' : m[1]!;
};

/** Looks like `<scheme>:<identifier>` rather than a VAT number. */
export const isSchemeForm = (value: string): boolean => /^\s*\d{4}\s*:/.test(value);

/**
 * Checks a VAT number (or returns null when it is acceptable). Countries we know get their exact
 * format (Belgium also its mod-97 check); others need a 2-letter prefix and 2-12 characters.
 */
export const vatNumberProblem = (value: string): string | null => {
  const c = compactId(value);
  const country = vatCountry(c);
  if (!country) return 'must start with a two-letter country prefix, e.g. BE0123456749';
  switch (country) {
    case 'BE':
      if (!/^BE\d{9,10}$/.test(c))
        return 'a Belgian VAT number is BE followed by the 10 digits of the enterprise number';
      return isValidBelgianVat(c) ? null : 'Belgian VAT number fails the mod-97 check';
    case 'NL':
      return isValidDutchVat(c) ? null : 'a Dutch VAT number is NL + 9 digits + B + 2 digits';
    case 'DE':
      return isValidGermanVat(c) ? null : 'a German VAT number is DE followed by 9 digits';
    case 'FR':
      return isValidFrenchVat(c) ? null : 'a French VAT number is FR + 2 key characters + 9-digit SIREN';
    default:
      return /^[A-Z]{2}[0-9A-Z+*]{2,12}$/.test(c) ? null : 'not a VAT number';
  }
};
