import { Decimal } from 'decimal.js';

// One Decimal constructor for the whole document domain: 40 significant digits is far more
// than any invoice amount needs, and keeps quantity x price exact for realistic inputs.
export const Dec = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_CEIL });
export type Dec = Decimal;

export const ZERO: Decimal = new Dec(0);

/**
 * round2 as the EN 16931 / Peppol rule artefacts evaluate it (RULES.md section 1):
 * 2 decimals, ties go towards +infinity (2.345 -> 2.35, -2.345 -> -2.34).
 * Using the same convention as the rules means our computed totals can never be
 * rejected by a rule because of a rounding tie.
 */
export const round2 = (x: Decimal): Decimal => x.toDecimalPlaces(2, Decimal.ROUND_HALF_CEIL);

export const sum = (xs: ReadonlyArray<Decimal>): Decimal => xs.reduce((a, b) => a.plus(b), ZERO);

/** Amount as it goes on the wire and into UBL: fixed 2 decimals. */
export const money = (x: Decimal): string => round2(x).toFixed(2);

/** A quantity or a price: plain decimal notation without exponent, trailing zeros kept out. */
export const plain = (x: Decimal): string => {
  const s = x.toFixed();
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
};

export const decimalPlaces = (text: string): number => {
  const i = text.indexOf('.');
  return i < 0 ? 0 : text.length - i - 1;
};

const NUMERIC = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** Parses a JSON number or numeric string without ever going through binary floating point arithmetic. */
export const parseDecimal = (value: unknown): Decimal | null => {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    // String(value) is the shortest round-tripping representation, so 0.1 stays 0.1.
    return new Dec(String(value));
  }
  if (typeof value === 'string') {
    const t = value.trim();
    return NUMERIC.test(t) ? new Dec(t) : null;
  }
  return null;
};

/**
 * A value of the document model with every Decimal as text: the form the model takes outside the
 * domain (stored in events, passed to worker processes, answered by the API). Derived rather than
 * written out, so the text forms cannot drift from the model.
 */
export type DecimalsAsText<T> = T extends Decimal
  ? string
  : T extends string | number | boolean | null
    ? T
    : T extends Array<infer U>
      ? Array<DecimalsAsText<U>>
      : T extends object
        ? { [K in keyof T]: DecimalsAsText<T[K]> }
        : T;

/** Rate text as used on the wire: "21.00". */
export const rateText = (x: Decimal): string => x.toFixed(2);
