import type { Decimal } from 'decimal.js';
import { EXEMPT_TAX_CODES, TAX_CODES, type TaxCode } from '../invoice/codeLists.js';
import type { AllowanceCharge, LineItem } from '../invoice/documentModel.js';

/*
 * Values UBL and CII carry alike, and how they become the document model's: one mapping for both
 * readers, so a document reads the same whichever syntax it came in.
 */

/** A VAT category code of the EN 16931 list (case-insensitive), or null. */
export const taxCodeOf = (t: string | null): TaxCode | null =>
  t !== null && (TAX_CODES as ReadonlyArray<string>).includes(t.toUpperCase()) ? (t.toUpperCase() as TaxCode) : null;

/** Whether a compact account id has the shape of an IBAN (country, check digits, 10 to 30 characters). */
export const hasIbanShape = (compact: string): boolean => /^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/.test(compact);

/** The decoded size of base64 content, from its length and padding. */
export const base64Size = (b64: string): number => {
  const padding = b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0;
  return Math.floor((b64.length * 3) / 4) - padding;
};

/**
 * The model has no price base quantity: a price per 10 units becomes the price of one unit.
 * Rounded to 10 decimals: XSD processors limit the digits of xs:decimal, and 10 decimals keep
 * quantity x price well inside the 0.02 tolerance of PEPPOL-EN16931-R120.
 */
export const unitPriceOf = (price: Decimal | null, baseQuantity: Decimal | null): Decimal | null =>
  price !== null && baseQuantity !== null && !baseQuantity.isZero() && !baseQuantity.eq(1)
    ? price.div(baseQuantity).toDecimalPlaces(10)
    : price;

/** Line-level allowances and charges have no VAT category of their own in EN 16931. */
export const withoutCategory = (a: AllowanceCharge): AllowanceCharge => ({ ...a, tax_code: null, tax_rate: null });

/**
 * The model holds one VAT category and one exemption reason per document; the syntaxes have them
 * per line and per VAT breakdown entry. The document's category is its first line's, else the first
 * entry's, else S. Its exemption reason is the one on the exempt entry of its own category, else
 * on the first exempt entry: `reasonEntry` is that entry, for the reader to take the reason from.
 */
export const documentVatCategory = <E>(
  items: ReadonlyArray<LineItem>,
  entries: ReadonlyArray<E>,
  codeOf: (entry: E | null) => TaxCode | null,
): { taxCode: TaxCode; reasonEntry: E | null } => {
  const taxCode = items[0]?.tax_code ?? codeOf(entries[0] ?? null) ?? 'S';
  const exempt = entries.filter((e) => EXEMPT_TAX_CODES.includes(codeOf(e) ?? 'S'));
  return { taxCode, reasonEntry: exempt.find((e) => codeOf(e) === taxCode) ?? exempt[0] ?? null };
};
