import type { Decimal } from 'decimal.js';
import { parseDecimal } from '../invoice/money.js';

/*
 * Numbers as invoices print them: "1,234.56", "1.234,56", "1 234,56", "1'234.50", "−51.00",
 * "(51.00)", "51.00-", "€ 12,50". Which separator is the decimal one is decided once per
 * document (a 2-digit fraction after one of them is the tell), so "1,234" reads the same way
 * everywhere in the document.
 */

export type DecimalSeparator = '.' | ',';

const COMMA_DECIMAL = /(?<![\d.,])\d{1,3}(?:(?:[.\s\u00a0\u202f']\d{3})+|\d*),\d{2}(?![\d,.])/g;
const DOT_DECIMAL = /(?<![\d.,])\d{1,3}(?:(?:[,\s\u00a0\u202f']\d{3})+|\d*)\.\d{2}(?![\d,.])/g;

/** The decimal separator a document uses, by majority of unambiguous amounts ("." when undecided). */
export const decimalSeparatorOf = (text: string): DecimalSeparator => {
  const comma = text.match(COMMA_DECIMAL)?.length ?? 0;
  const dot = text.match(DOT_DECIMAL)?.length ?? 0;
  return comma > dot ? ',' : '.';
};

const NUMBER_TOKEN =
  /[-−–(]?\s?(?:[A-Z]{3}|[€$£¥])?\s?[-−–]?\d[\d.,\s\u00a0\u202f']*\d(?:\s?[-−–])?\)?|[-−–(]?\s?(?:[A-Z]{3}|[€$£¥])?\s?[-−–]?\d\)?/g;

/** Parses one printed number; null when the text is not exactly a number (currency code or symbol allowed). */
export const parseNumber = (raw: string, sep: DecimalSeparator): Decimal | null => {
  let t = raw.trim().replace(/[\u00a0\u202f]/g, ' ');
  let negative = false;
  if (/^\(.*\)$/.test(t)) {
    negative = true;
    t = t.slice(1, -1).trim();
  }
  t = t
    .replace(/^(?:[A-Z]{3}|[€$£¥]|CHF|Fr\.)\s?/, '')
    .replace(/\s?(?:[A-Z]{3}|[€$£¥])$/, '')
    .trim();
  if (/^[-−–]/.test(t)) {
    negative = !negative;
    t = t.slice(1).trim();
  } else if (/[-−–]$/.test(t)) {
    negative = !negative;
    t = t.slice(0, -1).trim();
  }
  const group = sep === ',' ? /[.\s']/g : /[,\s']/g;
  // Group separators only between groups of three digits.
  const grouping =
    sep === ','
      ? /^\d{1,3}(?:[.\s']\d{3})*(?:,\d+)?$|^\d+(?:,\d+)?$/
      : /^\d{1,3}(?:[,\s']\d{3})*(?:\.\d+)?$|^\d+(?:\.\d+)?$/;
  if (!grouping.test(t)) return null;
  const plainText = t.replace(group, '').replace(sep, '.');
  const value = parseDecimal(plainText);
  if (value === null) return null;
  return negative ? value.negated() : value;
};

/** Every number printed in a text, in order, with where it stands. */
export const numbersIn = (
  text: string,
  sep: DecimalSeparator,
): Array<{ value: Decimal; text: string; index: number }> => {
  const out: Array<{ value: Decimal; text: string; index: number }> = [];
  for (const m of text.matchAll(NUMBER_TOKEN)) {
    const token = m[0].trim();
    const at = (m.index ?? 0) + m[0].indexOf(token);
    const value = parseNumber(token, sep);
    if (value !== null) {
      out.push({ value, text: token, index: at });
      continue;
    }
    // Spaces may group thousands ("1 234,56") or separate two numbers ("100.00 21.00"): when the
    // whole does not read as one number, read the parts.
    let offset = 0;
    for (const part of token.split(/\s+/)) {
      const index = token.indexOf(part, offset);
      offset = index + part.length;
      const v = parseNumber(part, sep);
      if (v !== null) out.push({ value: v, text: part, index: at + index });
    }
  }
  return out;
};

/** The amount of a cell whose text is an amount (2 decimals, or whole), else null. */
export const amountOf = (text: string, sep: DecimalSeparator): Decimal | null => {
  const value = parseNumber(text, sep);
  return value !== null && value.decimalPlaces() <= 2 ? value : null;
};

/** The last amount with 2 decimals printed in a text ("Total excl. VAT 1,234.56" → 1234.56). */
export const lastAmountIn = (text: string, sep: DecimalSeparator): Decimal | null => {
  const decimalsPattern = sep === ',' ? /,\d{2}\)?(?:\s?[-−–])?$/ : /\.\d{2}\)?(?:\s?[-−–])?$/;
  const amounts = numbersIn(text, sep).filter((n) =>
    decimalsPattern.test(n.text.replace(/\s?(?:[A-Z]{3}|[€$£¥])$/, '')),
  );
  return amounts.length > 0 ? amounts[amounts.length - 1]!.value : null;
};

const PERCENT = /(\d{1,2}(?:[.,]\d{1,3})?)\s?%/;

/** A VAT rate printed as "21%", "21 %", "5,5 %", "5.50%". */
export const percentIn = (text: string): Decimal | null => {
  const m = PERCENT.exec(text);
  return m ? parseDecimal(m[1]!.replace(',', '.')) : null;
};
