import { Decimal } from 'decimal.js';
import { str, type XNode } from '../xml/xmlTree.js';

export { Decimal };

const DEC_RE = /^[+-]?(\d+\.?\d*|\.\d+)$/;

/**
 * The rules' decimals compute exactly, as xs:decimal does: decimal.js rounds results to 20 significant
 * digits by default, which an amount of 21 digits already exceeds.
 */
const Exact = Decimal.clone({ precision: 1000 });

/** xs:decimal value of an element (whitespace-trimmed), or null if absent or not a decimal. */
export function dec(n: XNode | undefined): Decimal | null {
  if (!n) return null;
  return decOf(str(n));
}

export function decOf(s: string | undefined): Decimal | null {
  if (s === undefined) return null;
  const t = s.trim();
  if (!DEC_RE.test(t)) return null;
  return new Exact(t);
}

/** Sum of the decimal values of the nodes; unparseable values are skipped (the XSD reports them). */
export function sum(nodes: Iterable<XNode | undefined>): Decimal {
  let s = new Exact(0);
  for (const n of nodes) {
    const d = dec(n);
    if (d) s = s.plus(d);
  }
  return s;
}

/** round2: 2 decimals, ties towards +infinity (XPath round(x*100) div 100). */
export function round2(d: Decimal): Decimal {
  return d.toDecimalPlaces(2, Decimal.ROUND_HALF_CEIL);
}

/** Whole-number rounding with ties towards +infinity (XPath round()). */
export function round0(d: Decimal): Decimal {
  return d.toDecimalPlaces(0, Decimal.ROUND_HALF_CEIL);
}

/** Number of characters after the first '.' of the raw text (BR-DEC-*, UBL-DT-01). */
export function decimalsInText(n: XNode): number {
  const s = str(n);
  const i = s.indexOf('.');
  return i < 0 ? 0 : s.length - i - 1;
}
