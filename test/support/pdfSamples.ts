import { checkDocument, type DocumentCheck } from '../../src/domain/document/rules/documentCheck.js';
import { decodeDocumentInput } from '../../src/http/codecs/documentCodec.js';
import { realisticDocuments } from '../domain/document/fixtures/realisticDocuments.js';

/** A request body checked as the service checks it (totals, UBL, rules); a body that does not decode is a bug in the sample. */
export function checked(body: Record<string, unknown>): DocumentCheck {
  const decoded = decodeDocumentInput(body);
  if (!decoded.ok) throw new Error(JSON.stringify(decoded.errors));
  return checkDocument(decoded.value);
}

/** A long wholesale invoice: descriptions of varied length, three VAT rates, units, codes, some line discounts. */
export function longInvoice(lines: number): Record<string, unknown> {
  const rates = ['21.00', '6.00', '12.00'];
  const units = ['C62', 'HUR', 'KGM', 'MTR', 'DAY', 'LTR'];
  const words = [
    'Stainless steel',
    'hex bolt',
    'M8 x 40',
    'galvanised',
    'wall bracket',
    'with anchors',
    'cable tray',
    'section 2 m',
    'installation labour',
    'site visit',
  ];
  return {
    invoice_id: `INV-2025-${String(lines).padStart(4, '0')}`,
    invoice_date: '2025-06-30',
    due_date: '2025-07-30',
    currency: 'EUR',
    vendor_name: 'Acme Solutions BV',
    vendor_tax_id: 'BE0403013026',
    vendor_company_id: '0403013026',
    vendor_address: 'Rue de la Loi 16, 1000 Brussels, Belgium',
    vendor_email: 'billing@acme.be',
    customer_name: 'Brouwerij De Zwaan NV',
    customer_tax_id: 'BE0451234595',
    customer_address: 'Meir 1, 2000 Antwerpen, Belgium',
    customer_id: 'CUST-00042',
    purchase_order: 'PO-2025-118',
    shipping_address: 'Brouwerijstraat 3, 2800 Mechelen, Belgium',
    shipping_address_recipient: 'Warehouse Mechelen',
    payment_term: 'Net 30 days',
    payment_details: [{ iban: 'BE68539007547034', swift: 'GEBABEBB', payment_reference: '+++090/9337/55493+++' }],
    items: Array.from({ length: lines }, (_, i) => {
      const description =
        words
          .slice(0, 2 + (i % 5))
          .join(' ')
          .replace(/^./, (c) => c.toUpperCase()) +
        (i % 11 === 0 ? ', delivered in two batches to the Mechelen warehouse as agreed by phone' : '');
      const item: Record<string, unknown> = {
        description,
        product_code: `SKU-${String(i + 1).padStart(4, '0')}`,
        quantity: i % 4 === 0 ? `${(i % 9) + 1}.5` : (i % 9) + 1,
        unit: units[i % units.length],
        unit_price: `${(i % 13) * 7 + 4}.${String((i * 37) % 100).padStart(2, '0')}`,
        tax_rate: rates[i % rates.length],
      };
      if (i % 25 === 3) item.allowances = [{ reason: 'Loyalty discount', amount: 2.5 }];
      return item;
    }),
  };
}

/** The documents we look at by eye (docs/pdf-*.png): long, credit note, multi-currency. */
export function sampleDocuments(): Array<{ name: string; body: Record<string, unknown> }> {
  const fixtures = realisticDocuments();
  const byName = (name: string) => structuredClone(fixtures.find((f) => f.name === name)!.body);
  const multiCurrency = byName('BE export to the United States in USD (G)');
  (multiCurrency.items as Array<Record<string, unknown>>).push(
    {
      description: 'Gift boxes, assorted',
      quantity: 40,
      unit_price: '12.75',
      tax_rate: '0.00',
      unit: 'C62',
      allowances: [{ reason: 'Launch discount', base_amount: 510, multiplier_factor: 10 }],
    },
    {
      description: 'Cold-chain packaging',
      quantity: 1,
      unit_price: 180,
      tax_rate: '0.00',
      unit: 'SET',
      charges: [{ reason: 'Dry ice', amount: 45 }],
    },
  );
  multiCurrency.charges = [
    { reason: 'Air freight to JFK', reason_code: 'FC', amount: 320, tax_rate: '0.00', tax_code: 'G' },
  ];
  multiCurrency.payment_details = [{ iban: 'BE68539007547034', swift: 'GEBABEBB', payment_reference: 'ACME-EXP-0001' }];
  multiCurrency.payment_term = 'Payment in USD within 30 days of the invoice date';
  multiCurrency.note = 'Goods shipped under Incoterms DAP New York. Export declaration 25BE000123456789.';
  return [
    { name: 'long-invoice', body: longInvoice(200) },
    { name: 'credit-note', body: byName('BE credit note for returned goods') },
    { name: 'multi-currency', body: multiCurrency },
  ];
}
