import { writeUbl } from '../src/domain/document/ubl/ublWriter.js';
import { decodeDocumentInput } from '../src/http/codecs/documentCodec.js';

/** A realistic Belgian invoice with `lines` lines at three VAT rates. */
export function invoiceWithLines(lines: number): Record<string, unknown> {
  const rates = ['21.00', '6.00', '12.00'];
  return {
    invoice_id: `BENCH-${lines}`,
    invoice_date: '2026-03-01',
    due_date: '2026-03-31',
    currency: 'EUR',
    vendor_name: 'Acme Consulting BV',
    vendor_tax_id: 'BE0897223670',
    vendor_address: 'Rue de la Loi 16, 1000 Brussels, BE',
    customer_name: 'Globex NV',
    customer_tax_id: 'BE0417710407',
    customer_address: 'Meir 1, 2000 Antwerpen, BE',
    purchase_order: 'PO-2026-118',
    payment_details: [{ iban: 'BE68539007547034', swift: 'GKCCBEBB', payment_reference: '+++090/9337/55493+++' }],
    items: Array.from({ length: lines }, (_, i) => ({
      description: `Service line ${i + 1}`,
      quantity: (i % 7) + 1,
      unit: 'HUR',
      unit_price: `${(i % 13) * 7 + 45}.50`,
      tax_rate: rates[i % rates.length],
    })),
  };
}

/** The UBL of a 10-line invoice between two Belgian participants: the AS4 benchmarks' payload. */
export function tenLineInvoiceUbl(seller = '0208:0451234595', buyer = '0208:0987654394'): string {
  const decoded = decodeDocumentInput(
    { ...invoiceWithLines(10), vendor_peppol_id: seller, customer_peppol_id: buyer },
    { maxLines: 10, maxAttachments: 50, maxRenderedLines: 10 },
  );
  if (!decoded.ok) throw new Error(JSON.stringify(decoded.errors));
  return writeUbl(decoded.value);
}
