import { expect } from 'chai';
import libxmljs from 'libxmljs';
import { decodeDocumentInput } from '../../../src/http/codecs/documentCodec.js';
import type { Document } from '../../../src/domain/document/invoice/documentModel.js';
import { completeDocument } from '../../../src/domain/document/invoice/documentTotals.js';
import { UblReadError } from '../../../src/domain/document/ubl/ublReader.js';
import { writeUbl } from '../../../src/domain/document/ubl/ublWriter.js';
import { validateAgainstSchema } from '../../../src/infrastructure/xml/schemaValidator.js';
import { readUblText } from '../../../src/infrastructure/xml/ublText.js';

const NS = {
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
};
const base = {
  invoice_id: 'X-1',
  invoice_date: '2025-03-14',
  due_date: '2025-04-13',
  vendor_name: 'Acme Solutions BV',
  vendor_tax_id: 'BE0123456749',
  vendor_address: 'Rue de la Loi 16, 1000 Brussels, Belgium',
  customer_name: 'Client NV',
  customer_tax_id: 'BE0202239951',
  customer_address: 'Meir 1, 2000 Antwerpen, Belgium',
  items: [{ description: 'Widget', quantity: 2, unit_price: 10, tax_rate: '21.00' }],
};
const make = (extra: Record<string, unknown>): Document => {
  const r = decodeDocumentInput({ ...base, ...extra });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return completeDocument(r.value).document;
};
const xpath = (xml: string, path: string): string[] =>
  (libxmljs.parseXml(xml).find(path, NS) as Array<{ text(): string }>).map((n) => n.text());
const rootChildren = (xml: string): string[] =>
  libxmljs
    .parseXml(xml)
    .root()!
    .childNodes()
    .filter((n) => n.type() === 'element')
    .map((n) => (n as { name(): string }).name());

describe('UBL mapping', () => {
  describe('no statement the caller did not make (issue 17)', () => {
    it('Given exempt lines of each category and no reason, Then the UBL has no exemption reason code nor text', () => {
      for (const code of ['E', 'AE', 'K', 'G', 'O']) {
        const rate = code === 'O' ? {} : { tax_rate: '0.00' };
        const r = decodeDocumentInput({
          ...base,
          tax_code: code,
          items: [{ description: 'Widget', quantity: 2, unit_price: 10, tax_code: code, ...rate }],
        });
        if (!r.ok) throw new Error(JSON.stringify(r.errors));
        const xml = writeUbl(r.value);
        expect(xpath(xml, '//cbc:TaxExemptionReasonCode'), code).to.deep.equal([]);
        expect(xpath(xml, '//cbc:TaxExemptionReason'), code).to.deep.equal([]);
        expect(xml, code).not.to.contain('Exempt from VAT');
      }
    });

    it('Given a line without a description (as read from elsewhere), Then the UBL has no item name: no "Item" is made up', () => {
      const r = decodeDocumentInput({ ...base, items: [{ quantity: 2, unit_price: 10, tax_rate: '21.00' }] });
      if (!r.ok) throw new Error(JSON.stringify(r.errors));
      const xml = writeUbl(r.value);
      expect(xpath(xml, '//cac:InvoiceLine/cac:Item/cbc:Name')).to.deep.equal([]);
    });

    it('Given allowances and charges without a reason, Then the UBL has no AllowanceChargeReason (no "Discount", no "Charge")', () => {
      const xml = writeUbl(
        make({
          allowances: [{ amount: 1, tax_rate: '21.00' }],
          charges: [{ amount: 2, reason_code: 'FC', tax_rate: '21.00' }],
          items: [
            { description: 'Widget', quantity: 2, unit_price: 10, tax_rate: '21.00', allowances: [{ amount: 1 }] },
          ],
        }),
      );
      expect(xpath(xml, '//cac:AllowanceCharge/cbc:AllowanceChargeReason')).to.deep.equal([]);
      expect(xpath(xml, '//cac:AllowanceCharge/cbc:AllowanceChargeReasonCode')).to.deep.equal(['FC']);
    });
  });

  it('Given an invoice, Then it is a Peppol BIS billing Invoice 380 with BuyerReference and OrderReference from purchase_order', () => {
    const xml = writeUbl(make({ purchase_order: 'PO-9' }));
    expect(xpath(xml, '/*/cbc:CustomizationID')).to.deep.equal([
      'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0',
    ]);
    expect(xpath(xml, '/*/cbc:ProfileID')).to.deep.equal(['urn:fdc:peppol.eu:2017:poacc:billing:01:1.0']);
    expect(xpath(xml, '/*/cbc:InvoiceTypeCode')).to.deep.equal(['380']);
    expect(xpath(xml, '/*/cbc:BuyerReference')).to.deep.equal(['PO-9']);
    expect(xpath(xml, '/*/cac:OrderReference/cbc:ID')).to.deep.equal(['PO-9']);
    expect(xpath(xml, '//cac:AccountingSupplierParty/cac:Party/cbc:EndpointID')).to.deep.equal(['0123456749']);
  });

  it('Given a credit note, Then it is a CreditNote 381 referencing the invoice, with its due date in PaymentMeans', () => {
    const xml = writeUbl(
      make({
        document_type: 'CREDIT_NOTE',
        purchase_order: 'INV-7',
        note: 'Returned',
        payment_details: [{ iban: 'BE68539007547034', swift: 'GEBABEBB' }],
      }),
    );
    expect(rootChildren(xml)[0]).to.equal('CustomizationID');
    expect(xpath(xml, '/*/cbc:CreditNoteTypeCode')).to.deep.equal(['381']);
    expect(xpath(xml, '/*/cac:BillingReference/cac:InvoiceDocumentReference/cbc:ID')).to.deep.equal(['INV-7']);
    expect(xpath(xml, '/*/cbc:DueDate')).to.deep.equal([]);
    expect(xpath(xml, '/*/cac:PaymentMeans/cbc:PaymentDueDate')).to.deep.equal(['2025-04-13']);
    expect(xpath(xml, '/*/cac:PaymentMeans/cbc:PaymentMeansCode')).to.deep.equal(['58']);
    expect(xpath(xml, '//cac:PayeeFinancialAccount/cac:FinancialInstitutionBranch/cbc:ID')).to.deep.equal(['GEBABEBB']);
    expect(xpath(xml, '//cac:CreditNoteLine/cbc:CreditedQuantity')).to.deep.equal(['2']);
    expect(readUblText(xml).due_date).to.equal('2025-04-13');
  });

  it('Given a debit note, Then it is an Invoice with type code 383', () => {
    expect(xpath(writeUbl(make({ document_type: 'DEBIT_NOTE' })), '/*/cbc:InvoiceTypeCode')).to.deep.equal(['383']);
  });

  it('Given self-billing documents, Then they use the self-billing customization with 389 and 261', () => {
    const inv = writeUbl(make({ document_type: 'SELFBILLING_INVOICE' }));
    const cn = writeUbl(make({ document_type: 'SELFBILLING_CREDIT_NOTE' }));
    expect(xpath(inv, '/*/cbc:CustomizationID')).to.deep.equal([
      'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:selfbilling:3.0',
    ]);
    expect(xpath(inv, '/*/cbc:ProfileID')).to.deep.equal(['urn:fdc:peppol.eu:2017:poacc:selfbilling:01:1.0']);
    expect(xpath(inv, '/*/cbc:InvoiceTypeCode')).to.deep.equal(['389']);
    expect(xpath(cn, '/*/cbc:CreditNoteTypeCode')).to.deep.equal(['261']);
    expect(readUblText(inv).document_type).to.equal('SELFBILLING_INVOICE');
    expect(readUblText(cn).document_type).to.equal('SELFBILLING_CREDIT_NOTE');
  });

  it('Given an attachment, Then it is embedded as base64 with mimeCode and filename, and read back', () => {
    const data = Buffer.from('hello pdf').toString('base64');
    const xml = writeUbl(
      make({ attachments: [{ file_name: 'a.pdf', file_type: 'application/pdf', file_data: data }] }),
    );
    const node = libxmljs.parseXml(xml).get('//cbc:EmbeddedDocumentBinaryObject', NS) as {
      text(): string;
      getAttribute(n: string): { value(): string } | null;
    };
    expect(node.text()).to.equal(data);
    expect(node.getAttribute('mimeCode')!.value()).to.equal('application/pdf');
    expect(node.getAttribute('filename')!.value()).to.equal('a.pdf');
    const back = readUblText(xml).attachments[0]!;
    expect([back.file_name, back.file_type, back.file_data, back.file_size]).to.deep.equal([
      'a.pdf',
      'application/pdf',
      data,
      9,
    ]);
  });

  it('Given every optional block, Then the root children follow the UBL 2.1 Invoice sequence (and the XSD agrees)', () => {
    const xml = writeUbl(
      make({
        note: 'n',
        purchase_order: 'PO',
        service_start_date: '2025-03-01',
        service_end_date: '2025-03-31',
        shipping_address: 'Meir 2, 2000 Antwerpen, BE',
        attachments: [{ file_name: 'a.pdf', file_type: 'application/pdf', file_data: 'aGk=' }],
        payment_details: [{ iban: 'BE68539007547034' }],
        payment_term: 'Net 30',
        allowances: [{ reason: 'r', amount: 1 }],
        charges: [{ reason: 'c', amount: 2 }],
      }),
    );
    expect(rootChildren(xml)).to.deep.equal([
      'CustomizationID',
      'ProfileID',
      'ID',
      'IssueDate',
      'DueDate',
      'InvoiceTypeCode',
      'Note',
      'DocumentCurrencyCode',
      'BuyerReference',
      'InvoicePeriod',
      'OrderReference',
      'AdditionalDocumentReference',
      'AccountingSupplierParty',
      'AccountingCustomerParty',
      'Delivery',
      'PaymentMeans',
      'PaymentTerms',
      'AllowanceCharge',
      'AllowanceCharge',
      'TaxTotal',
      'LegalMonetaryTotal',
      'InvoiceLine',
    ]);
    expect(validateAgainstSchema(xml)).to.deep.equal([]);
  });

  it('Given an element out of order, Then our XSD rejects it with a line number', () => {
    const xml = writeUbl(make({})).replace(
      /(<cbc:DueDate>[^<]*<\/cbc:DueDate>\s*)(<cbc:InvoiceTypeCode>380<\/cbc:InvoiceTypeCode>)/,
      '$2$1',
    );
    const issues = validateAgainstSchema(xml);
    expect(issues).to.have.length.greaterThan(0);
    expect(issues[0]!.line).to.be.a('number');
  });

  it('Given an amount without currencyID, Then our XSD rejects it', () => {
    const xml = writeUbl(make({})).replace('<cbc:PayableAmount currencyID="EUR">', '<cbc:PayableAmount>');
    expect(
      validateAgainstSchema(xml)
        .map((i) => i.message)
        .join(),
    ).to.match(/currencyID/);
  });

  it('Given XML with a DOCTYPE, Then reader and schema validator refuse it (no entity expansion)', () => {
    const evil =
      '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">&e;</Invoice>';
    expect(() => readUblText(evil)).to.throw(UblReadError);
    expect(validateAgainstSchema(evil)[0]!.message).to.match(/DOCTYPE/);
  });

  it('Given something that is not a UBL document, Then the reader says so', () => {
    expect(() => readUblText('<Order xmlns="urn:x"/>')).to.throw(UblReadError, /Invoice or CreditNote/);
    expect(() => readUblText('<Invoice')).to.throw(UblReadError, /well-formed/);
  });

  it('Given a category O document, Then no VAT identifiers are written (BR-O-02)', () => {
    const xml = writeUbl(
      make({
        tax_code: 'O',
        vatex: 'VATEX-EU-O',
        items: [{ description: 'x', quantity: 1, unit_price: 5, tax_rate: '0.00' }],
      }),
    );
    expect(xpath(xml, '//cac:PartyTaxScheme')).to.deep.equal([]);
    expect(xpath(xml, '//cac:TaxSubtotal/cac:TaxCategory/cbc:Percent')).to.deep.equal([]);
    expect(xpath(xml, '//cac:TaxSubtotal/cac:TaxCategory/cbc:TaxExemptionReasonCode')).to.deep.equal(['VATEX-EU-O']);
  });
});
