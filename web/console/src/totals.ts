/**
 * The totals of the invoice being written, computed by the service's own code (its decoder and its
 * EN 16931 totals, bundled): the panel agrees with what the service will compute, decimal to the cent.
 */
import { decodeDocumentInput } from '../../../src/http/codecs/documentCodec.js';
import { completeDocument } from '../../../src/domain/document/invoice/documentTotals.js';

export interface FormTotals {
  subtotal: string;
  /** One entry per VAT category and rate: the base it applies to and the VAT. */
  vat: Array<{ rate: string | null; category: string; base: string; amount: string }>;
  tax: string;
  total: string;
  /** Each line's net amount (quantity × price, its allowances and charges), in the form's order. */
  lines: string[];
}

/** Null while a line's amounts cannot be read (a message then says so next to the field). */
export function formTotals(items: unknown[], currency: string): FormTotals | null {
  const decoded = decodeDocumentInput({ currency, items });
  if (!decoded.ok) return null;
  const { totals } = completeDocument(decoded.value, 'strict');
  return {
    subtotal: totals.tax_exclusive.toFixed(2),
    vat: totals.breakdown.map((b) => ({
      rate: b.rate === null ? null : b.rate.toString(),
      category: b.tax_code,
      base: b.taxable_amount.toFixed(2),
      amount: b.tax_amount.toFixed(2),
    })),
    tax: totals.tax_total.toFixed(2),
    total: totals.tax_inclusive.toFixed(2),
    lines: totals.lines.map((l) => l.net.toFixed(2)),
  };
}
