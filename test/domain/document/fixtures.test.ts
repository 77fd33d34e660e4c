import { expect } from 'chai';
import { decodeDocumentInput } from '../../../src/http/codecs/documentCodec.js';
import { completeDocument } from '../../../src/domain/document/invoice/documentTotals.js';
import { toResponse } from '../../../src/domain/document/invoice/documentModel.js';
import type { Document } from '../../../src/domain/document/invoice/documentModel.js';
import { writeUbl } from '../../../src/domain/document/ubl/ublWriter.js';
import { validateAgainstSchema } from '../../../src/infrastructure/xml/schemaValidator.js';
import { realisticDocuments } from './fixtures/realisticDocuments.js';
import { validateUbl, readUblText } from '../../../src/infrastructure/xml/ublText.js';

// Self-billing documents carry the self-billing CustomizationID/ProfileID; the billing profile's own
// identification rules (R004/R007 and the billing type-code lists) do not apply to them.

const decodeComplete = (body: unknown): Document => {
  const r = decodeDocumentInput(body);
  if (!r.ok) throw new Error(`decode failed: ${JSON.stringify(r.errors)}`);
  const c = completeDocument(r.value);
  expect(c.problems, 'field problems').to.deep.equal([]);
  return c.document;
};

describe('Realistic documents: JSON -> UBL (Peppol BIS 3.0)', () => {
  const fixtures = realisticDocuments();

  it('Given the generator, Then it yields at least 40 documents covering every scenario we promise', () => {
    expect(fixtures.length).to.be.at.least(40);
    const covers = new Set(fixtures.flatMap((f) => f.covers));
    for (const c of [
      'BE',
      'NL',
      'DE',
      'FR',
      'multi-rate',
      'E exempt',
      'AE reverse charge',
      'K intra-community',
      'Z zero rated',
      'G export',
      'document allowance',
      'document charge',
      'line allowance',
      'line charge',
      'credit note',
      'debit note',
      'self-billing',
      '500 lines',
    ]) {
      expect(covers, c).to.include(c);
    }
    expect([...covers].some((c) => c.startsWith('foreign currency'))).to.equal(true);
    expect(fixtures.find((f) => f.covers.includes('500 lines'))!.body.items).to.have.length(500);
  });

  for (const f of fixtures) {
    describe(f.name, () => {
      let doc: Document;
      let xml: string;
      before(() => {
        doc = decodeComplete(f.body);
        xml = writeUbl(doc);
      });

      it('When converted, Then the UBL passes our XSD', () => {
        expect(validateAgainstSchema(xml)).to.deep.equal([]);
      });

      it('When converted, Then no fatal EN 16931 / Peppol rule fires', () => {
        // Self-billing documents are held to the same rules under Peppol BIS Self-Billing's identifiers.
        const fatal = validateUbl(xml).filter((i) => i.flag === 'fatal');
        expect(fatal.map((i) => `${i.rule_id}: ${i.message}`)).to.deep.equal([]);
      });

      it('When read back and written again, Then the XML and the model are unchanged (JSON -> UBL -> JSON -> UBL)', () => {
        const a = readUblText(xml);
        const xml2 = writeUbl(a);
        expect(xml2).to.equal(xml);
        expect(toResponse(readUblText(xml2))).to.deep.equal(toResponse(a));
      });

      it('When read back, Then the figures and parties mean what the JSON said', () => {
        const back = completeDocument(readUblText(xml), 'rules');
        expect(back.problems).to.deep.equal([]);
        const r = toResponse(back.document);
        const o = toResponse(doc);
        for (const k of [
          'invoice_id',
          'invoice_date',
          'currency',
          'document_type',
          'subtotal',
          'total_tax',
          'invoice_total',
          'amount_due',
          'vendor_name',
          'customer_name',
          'purchase_order',
          'service_start_date',
          'service_end_date',
          'due_date',
          'note',
          'payment_term',
        ] as const) {
          expect(r[k], k).to.deep.equal(o[k]);
        }
        expect(r.items.map((i) => [i.description, i.amount, i.quantity, i.unit_price, i.unit])).to.deep.equal(
          o.items.map((i) => [i.description, i.amount, i.quantity, i.unit_price, i.unit ?? 'C62']),
        );
        expect(r.tax_details.map((t) => [t.tax_code, t.rate, t.taxable_amount, t.amount])).to.deep.equal(
          o.tax_details.map((t) => [t.tax_code, t.rate, t.taxable_amount, t.amount]),
        );
      });
    });
  }
});
