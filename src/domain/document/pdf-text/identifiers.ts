import { checkVatDigits, mod97 } from '../invoice/vatCheckDigits.js';
import type { CheckDigitVerdict } from '../invoice/vatCheckDigits.js';
import { compactId, vatNumberProblem } from '../invoice/vatNumber.js';

/** IBAN length per country (SWIFT registry); an IBAN is only accepted with its country's length and a valid MOD 97. */
const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24,
  AE: 23,
  AL: 28,
  AT: 20,
  AZ: 28,
  BA: 20,
  BE: 16,
  BG: 22,
  BH: 22,
  BR: 29,
  CH: 21,
  CR: 22,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  DO: 28,
  EE: 20,
  EG: 29,
  ES: 24,
  FI: 18,
  FO: 18,
  FR: 27,
  GB: 22,
  GE: 22,
  GI: 23,
  GL: 18,
  GR: 27,
  GT: 28,
  HR: 21,
  HU: 28,
  IE: 22,
  IL: 23,
  IS: 26,
  IT: 27,
  JO: 30,
  KW: 30,
  KZ: 20,
  LB: 28,
  LC: 32,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  MC: 27,
  MD: 24,
  ME: 22,
  MK: 19,
  MR: 27,
  MT: 31,
  MU: 30,
  NL: 18,
  NO: 15,
  PK: 24,
  PL: 28,
  PS: 29,
  PT: 25,
  QA: 29,
  RO: 24,
  RS: 22,
  SA: 24,
  SC: 31,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  ST: 25,
  SV: 28,
  TL: 23,
  TN: 24,
  TR: 26,
  UA: 29,
  VA: 22,
  VG: 24,
  XK: 20,
};

export const isValidIban = (value: string): boolean => {
  const c = compactId(value);
  const length = IBAN_LENGTHS[c.slice(0, 2)];
  return (
    length !== undefined &&
    c.length === length &&
    /^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(c) &&
    mod97(c.slice(4) + c.slice(0, 4)) === 1
  );
};

/** Every valid IBAN in a text, compact ("BE68 5390 0754 7034" → "BE68539007547034"). */
export const ibansIn = (text: string): string[] => {
  const out: string[] = [];
  for (const m of text.matchAll(/\b([A-Z]{2})(\d{2})((?:[ -]?[A-Z0-9]){10,32})/g)) {
    const length = IBAN_LENGTHS[m[1]!];
    if (!length) continue;
    const compact = compactId(m[0]).replace(/-/g, '');
    // The pattern may run into the next word: take exactly the country's length.
    const candidate = compact.slice(0, length);
    if (candidate.length === length && isValidIban(candidate) && !out.includes(candidate)) out.push(candidate);
  }
  return out;
};

const BIC = /\b([A-Z]{4}[A-Z]{2}[A-Z0-9]{2}(?:[A-Z0-9]{3})?)\b/;
/** A BIC after a BIC/SWIFT label. */
export const bicIn = (text: string): string | null => {
  const m = /\b(?:BIC|SWIFT|BIC\/SWIFT|SWIFT\/BIC)\b[\s:.-]*([A-Z0-9 ]{8,14})/i.exec(text);
  if (!m) return null;
  const b = BIC.exec(m[1]!.replace(/\s+/g, ''));
  return b ? b[1]! : null;
};

export interface FoundVatNumber {
  /** As the model keeps it: country prefix and digits, without separators. */
  value: string;
  verdict: CheckDigitVerdict;
  index: number;
}

/*
 * Country-specific shapes first (they allow the separators people print: "BE 0403.013.026",
 * "NL 8537.46.221.B.01"), then the generic EU shape, which needs a VAT label before it so that
 * an order number such as "PO 123456" is not taken for a VAT number.
 */
const SHAPES: ReadonlyArray<RegExp> = [
  /\bBE\s?[.:]?\s?[01]\d{3}[.\s]?\d{3}[.\s]?\d{3}\b/g,
  /\bNL\s?\d{4}[.\s]?\d{2}[.\s]?\d{3}[.\s]?B[.\s]?\d{2}\b/g,
  /\bDE\s?\d{3}\s?\d{3}\s?\d{3}\b/g,
  /\bFR\s?[0-9A-Z]{2}\s?\d{3}\s?\d{3}\s?\d{3}\b/g,
  /\bATU\s?\d{8}\b/g,
  /\bLU\s?\d{8}\b/g,
  /\bIT\s?\d{11}\b/g,
  /\bES\s?[0-9A-Z]\d{7}[0-9A-Z]\b/g,
];
const GENERIC =
  /\b(?:VAT|BTW|TVA|USt|MwSt|IVA|MOMS|MVA|ALV|DIČ|NIP)[^:\n]{0,25}?[:\s]\s*((?:AT|BG|CY|CZ|DK|EE|EL|GR|FI|HR|HU|IE|LT|LV|MT|PL|PT|RO|SE|SI|SK|XI|NO|GB|CH)[ .-]?[0-9A-Z][0-9A-Z .-]{1,14}[0-9A-Z])\b/gi;

/** Every VAT number in a text that has a valid format for its country (Belgian ones also their mod-97). */
export const vatNumbersIn = (text: string): FoundVatNumber[] => {
  const out: FoundVatNumber[] = [];
  const take = (raw: string, index: number) => {
    const value = compactId(raw).replace(/^(BE)[:.]?/, '$1');
    const normalised = /^BE\d{9}$/.test(value) ? `BE0${value.slice(2)}` : value;
    if (vatNumberProblem(normalised) !== null) return;
    if (out.some((f) => f.value === normalised)) return;
    out.push({ value: normalised, verdict: checkVatDigits(normalised), index });
  };
  for (const shape of SHAPES) for (const m of text.matchAll(shape)) take(m[0], m.index ?? 0);
  for (const m of text.matchAll(GENERIC)) take(m[1]!, (m.index ?? 0) + m[0].indexOf(m[1]!));
  return out.sort((a, b) => a.index - b.index);
};

export const emailsIn = (text: string): string[] =>
  [...text.matchAll(/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g)].map((m) => m[0]);

/** A Peppol participant id written as "0208:0403013026" after a Peppol label. */
export const peppolIdIn = (text: string): string | null => {
  const m = /\bPeppol(?:\s?ID)?\b[\s:]*((?:iso6523-actorid-upis::)?\d{4}:[A-Za-z0-9.\-_]+)/i.exec(text);
  return m ? m[1]!.replace(/^iso6523-actorid-upis::/i, '') : null;
};
