// Numbers as the EN 16931 artefacts read them where a check compares or shifts a value without
// declaring it a decimal first: the text is read as an IEEE double (as XPath does with untyped values),
// and a double turned back into a decimal keeps its exact binary value. Where the checks declare
// decimals the rules use decimal.js (../../decimal.ts); these helpers are for the other places, so that
// a verdict at a tolerance boundary is the official one (see BR-S-08 and BR-27 in the tests).
import { Decimal, decOf } from '../../decimal.js';

const DOUBLE_RE = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** The text read as a double (XPath untyped → xs:double), or undefined if it is not a number. */
export function untypedDouble(text: string): number | undefined {
  const t = text.trim();
  if (t === 'INF' || t === '+INF') return Infinity;
  if (t === '-INF') return -Infinity;
  if (t === 'NaN') return NaN;
  return DOUBLE_RE.test(t) ? Number(t) : undefined;
}

/**
 * The sign of the text read as a double, compared with zero as the official validator's engine orders
 * doubles: NaN above every number, and -0 below 0. Undefined if the text is not a number.
 */
export function signOfUntyped(text: string): -1 | 0 | 1 | undefined {
  const x = untypedDouble(text);
  if (x === undefined) return undefined;
  if (Number.isNaN(x) || x > 0) return 1;
  if (x < 0 || Object.is(x, -0)) return -1;
  return 0;
}

/** The text compared with zero as by `(value) >= 0` in the artefacts. */
export const untypedNotNegative = (text: string): boolean => (signOfUntyped(text) ?? -1) >= 0;

/** The text compared with zero as by `(value) > 0` in the artefacts. */
export const untypedPositive = (text: string): boolean => signOfUntyped(text) === 1;

/** The exact decimal value of a finite double. */
function exactDecimal(x: number): Decimal {
  if (x === 0) return new Decimal(0);
  // Beyond 1e21 a double is an integer; below, 100 fraction digits hold every double of interest exactly.
  if (Math.abs(x) >= 1e21) return new Decimal(BigInt(x).toString());
  return new Decimal(x.toFixed(100));
}

/**
 * A decimal amount plus `delta`, computed as the artefacts do for the ±1 tolerance of BR-S-08, BR-AF-08
 * and BR-AG-08: in double precision, the result then taken as a decimal. Null when the text is not a
 * decimal amount.
 */
export function shiftedInDouble(text: string, delta: number): Decimal | null {
  if (decOf(text) === null) return null;
  return exactDecimal(Number(text.trim()) + delta);
}
