import { compactId, isValidBelgianVat, luhnValid, vatCountry } from './vatNumber.js';

/*
 * Check digits of VAT numbers, for the countries whose algorithm is public and stable. A number
 * read from a PDF's text layer is printed, not OCR'd, so a failing check means the document
 * itself carries a wrong number: worth telling the user, not worth silently dropping.
 */

export type CheckDigitVerdict = 'valid' | 'invalid' | 'unchecked';

/** ISO 7064 MOD 11,10 (German USt-IdNr). */
const mod11_10 = (digits: string): boolean => {
  let product = 10;
  for (const d of digits.slice(0, -1)) {
    let s = (Number(d) + product) % 10;
    if (s === 0) s = 10;
    product = (2 * s) % 11;
  }
  const check = (11 - product) % 10;
  return check === Number(digits[digits.length - 1]);
};

/** ISO 7064 MOD 97-10 over letters and digits (A=10 … Z=35): the IBAN check, also used by new Dutch VAT numbers. */
export const mod97 = (text: string): number => {
  let rest = 0;
  for (const ch of text) {
    const v = /[0-9]/.test(ch) ? ch : String(ch.charCodeAt(0) - 55);
    for (const d of v) rest = (rest * 10 + Number(d)) % 97;
  }
  return rest;
};

const dutch = (c: string): boolean => {
  const digits = c.slice(2, 11);
  // Legal entities: the "elfproef" on the 9 digits (weights 9..2, minus the last digit).
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += Number(digits[i]) * (9 - i);
  if ((sum - Number(digits[8])) % 11 === 0) return true;
  // Sole proprietors since 2020: MOD 97-10 over the whole number.
  return mod97(c) === 1;
};

const french = (c: string): CheckDigitVerdict => {
  const key = c.slice(2, 4);
  const siren = c.slice(4);
  if (!/^\d{2}$/.test(key)) return 'unchecked'; // the newer alphanumeric keys have no published formula
  return Number(key) === (12 + 3 * (Number(siren) % 97)) % 97 ? 'valid' : 'invalid';
};

const weighted = (digits: string, weights: number[], modulus: number): number =>
  weights.reduce((s, w, i) => s + w * Number(digits[i]), 0) % modulus;

/** Whether a VAT number's check digits hold (format errors are vatNumberProblem's business). */
export const checkVatDigits = (value: string): CheckDigitVerdict => {
  const c = compactId(value);
  const country = vatCountry(c);
  const body = c.slice(2);
  switch (country) {
    case 'BE':
      return isValidBelgianVat(c) ? 'valid' : 'invalid';
    case 'DE':
      return /^\d{9}$/.test(body) ? (mod11_10(body) ? 'valid' : 'invalid') : 'unchecked';
    case 'NL':
      return /^NL\d{9}B\d{2}$/.test(c) ? (dutch(c) ? 'valid' : 'invalid') : 'unchecked';
    case 'FR':
      return /^[0-9A-Z]{2}\d{9}$/.test(body) ? french(c) : 'unchecked';
    case 'IT':
      return /^\d{11}$/.test(body) ? (luhnValid(body) ? 'valid' : 'invalid') : 'unchecked';
    case 'LU':
      return /^\d{8}$/.test(body)
        ? Number(body.slice(0, 6)) % 89 === Number(body.slice(6))
          ? 'valid'
          : 'invalid'
        : 'unchecked';
    case 'DK':
      return /^\d{8}$/.test(body)
        ? weighted(body, [2, 7, 6, 5, 4, 3, 2, 1], 11) === 0
          ? 'valid'
          : 'invalid'
        : 'unchecked';
    case 'PL':
      return /^\d{10}$/.test(body)
        ? weighted(body, [6, 5, 7, 2, 3, 4, 5, 6, 7], 11) === Number(body[9])
          ? 'valid'
          : 'invalid'
        : 'unchecked';
    default:
      return 'unchecked';
  }
};
