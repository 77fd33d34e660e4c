// The EN 16931 (CEN) layer per rule set: what changed from CEN 1.3.14.1 (Peppol BIS 3.0.19) to 1.3.16
// (3.0.21) holds under one set and not the other; what the official artefacts do in both releases
// (whole-set agreement, tolerance boundaries computed in floating point) holds under both.
// Documents are our own small invoices, varied one thing at a time.
import { expect } from 'chai';
import { ruleSetById, type RuleSet } from '../../../src/domain/validation/index.js';
import { validateUbl } from '../../../src/infrastructure/xml/ublText.js';

const OLD = ruleSetById('peppol-bis-3.0.19')!;
const NEW = ruleSetById('peppol-bis-3.0.21')!;
const BOTH: RuleSet[] = [OLD, NEW];

const S25 = '<cbc:ID>S</cbc:ID><cbc:Percent>25</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme>';

/** A valid invoice: one line of 100.00 at 25 %, due on a date; `head`/`tail` add elements in schema order. */
function invoice(parts: {
  typeCode?: string;
  afterDue?: string;
  due?: string;
  afterCurrency?: string;
  seller?: string;
  afterCustomer?: string;
  payment?: string;
  taxableAmount?: string;
  line?: string;
  lineAmount?: string;
  price?: string;
  totals?: string | null;
}): string {
  const lineAmount = parts.lineAmount ?? '100.00';
  const totals =
    parts.totals === null
      ? ''
      : (parts.totals ??
        `<cac:LegalMonetaryTotal>
    <cbc:LineExtensionAmount currencyID="EUR">${lineAmount}</cbc:LineExtensionAmount>
    <cbc:TaxExclusiveAmount currencyID="EUR">100.00</cbc:TaxExclusiveAmount>
    <cbc:TaxInclusiveAmount currencyID="EUR">125.00</cbc:TaxInclusiveAmount>
    <cbc:PayableAmount currencyID="EUR">125.00</cbc:PayableAmount>
  </cac:LegalMonetaryTotal>`);
  return `<?xml version="1.0" encoding="UTF-8"?>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
  <cbc:CustomizationID>urn:cen.eu:en16931:2017</cbc:CustomizationID>
  <cbc:ID>INV-1</cbc:ID>
  <cbc:IssueDate>2026-05-01</cbc:IssueDate>
  ${parts.due ?? '<cbc:DueDate>2026-05-31</cbc:DueDate>'}
  <cbc:InvoiceTypeCode>${parts.typeCode ?? '380'}</cbc:InvoiceTypeCode>
  <cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>
  ${parts.afterCurrency ?? ''}
  <cac:AccountingSupplierParty><cac:Party>
    ${parts.seller ?? ''}
    <cac:PostalAddress><cac:Country><cbc:IdentificationCode>BE</cbc:IdentificationCode></cac:Country></cac:PostalAddress>
    ${parts.seller === undefined ? '<cac:PartyTaxScheme><cbc:CompanyID>BE0123456749</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>' : ''}
    <cac:PartyLegalEntity><cbc:RegistrationName>Seller NV</cbc:RegistrationName></cac:PartyLegalEntity>
  </cac:Party></cac:AccountingSupplierParty>
  <cac:AccountingCustomerParty><cac:Party>
    <cac:PostalAddress><cac:Country><cbc:IdentificationCode>BE</cbc:IdentificationCode></cac:Country></cac:PostalAddress>
    <cac:PartyLegalEntity><cbc:RegistrationName>Buyer BV</cbc:RegistrationName></cac:PartyLegalEntity>
  </cac:Party></cac:AccountingCustomerParty>
  ${parts.afterCustomer ?? ''}
  ${parts.payment ?? ''}
  <cac:TaxTotal><cbc:TaxAmount currencyID="EUR">25.00</cbc:TaxAmount>
    <cac:TaxSubtotal>
      <cbc:TaxableAmount currencyID="EUR">${parts.taxableAmount ?? '100.00'}</cbc:TaxableAmount><cbc:TaxAmount currencyID="EUR">25.00</cbc:TaxAmount>
      <cac:TaxCategory>${S25}</cac:TaxCategory>
    </cac:TaxSubtotal>
  </cac:TaxTotal>
  ${totals}
  ${
    parts.line ??
    `<cac:InvoiceLine>
    <cbc:ID>1</cbc:ID>
    <cbc:InvoicedQuantity unitCode="C62">2</cbc:InvoicedQuantity>
    <cbc:LineExtensionAmount currencyID="EUR">${lineAmount}</cbc:LineExtensionAmount>
    <cac:Item><cbc:Name>Widget</cbc:Name><cac:ClassifiedTaxCategory>${S25}</cac:ClassifiedTaxCategory></cac:Item>
    <cac:Price>${parts.price ?? '<cbc:PriceAmount currencyID="EUR">50.00</cbc:PriceAmount>'}</cac:Price>
  </cac:InvoiceLine>`
  }
</Invoice>`;
}

/** Rule ids the CEN layer reports under `set`, each once. */
function cen(xml: string, set: RuleSet): string[] {
  return [...new Set(validateUbl(xml, { layers: ['cen'], ruleSet: set }).map((i) => i.rule_id))].sort();
}

const card = (pan: string) =>
  `<cac:PaymentMeans><cbc:PaymentMeansCode>48</cbc:PaymentMeansCode><cac:CardAccount>${pan}<cbc:NetworkID>VISA</cbc:NetworkID></cac:CardAccount></cac:PaymentMeans>`;
const mandate =
  '<cac:PaymentMeans><cbc:PaymentMeansCode>59</cbc:PaymentMeansCode><cac:PaymentMandate><cbc:ID>M1</cbc:ID></cac:PaymentMandate></cac:PaymentMeans>';

describe('EN 16931 layer per rule set (CEN 1.3.14.1 for 3.0.19, CEN 1.3.16 for 3.0.21)', () => {
  it('Given the valid base invoice, When validated under either set, Then no EN 16931 rule fires', () => {
    for (const set of BOTH) expect(cen(invoice({}), set), set.id).to.deep.equal([]);
  });

  describe('changes of CEN 1.3.15 and 1.3.16', () => {
    it('Given a positive amount due with neither a due date nor payment terms, When validated, Then BR-CO-25 is reported under 3.0.19 only (withdrawn in 1.3.16)', () => {
      const xml = invoice({ due: '' });
      expect(cen(xml, OLD)).to.deep.equal(['BR-CO-25']);
      expect(cen(xml, NEW)).to.deep.equal([]);
    });

    it('Given a payment terms note instead of a due date, When validated under 3.0.19, Then BR-CO-25 is not reported', () => {
      const xml = invoice({ due: '', payment: '<cac:PaymentTerms><cbc:Note>30 days</cbc:Note></cac:PaymentTerms>' });
      expect(cen(xml, OLD)).to.deep.equal([]);
    });

    it('Given a note that is not a payment terms note, and no due date, When validated under 3.0.19, Then BR-CO-25 is reported', () => {
      const xml = invoice({ due: '', afterCurrency: '<cbc:Note>Thank you for your order</cbc:Note>' });
      expect(cen(xml, OLD)).to.deep.equal(['BR-CO-25']);
    });

    it('Given two payment card accounts, When validated, Then BR-66 is reported under 3.0.19 and UBL-SR-54 under 3.0.21', () => {
      const pan = '<cbc:PrimaryAccountNumberID>1234</cbc:PrimaryAccountNumberID>';
      const xml = invoice({ payment: card(pan) + card(pan) });
      expect(cen(xml, OLD)).to.include('BR-66').and.not.include('UBL-SR-54');
      expect(cen(xml, NEW)).to.include('UBL-SR-54').and.not.include('BR-66');
    });

    it('Given two payment mandates, When validated, Then BR-67 is reported under 3.0.19 and UBL-SR-55 under 3.0.21', () => {
      const xml = invoice({ payment: mandate + mandate });
      expect(cen(xml, OLD)).to.include('BR-67').and.not.include('UBL-SR-55');
      expect(cen(xml, NEW)).to.include('UBL-SR-55').and.not.include('BR-67');
    });

    it('Given a line price with an orderable unit factor rate, When validated, Then the UBL-CR-631 warning comes under 3.0.19 only', () => {
      const xml = invoice({
        price:
          '<cbc:PriceAmount currencyID="EUR">50.00</cbc:PriceAmount><cbc:OrderableUnitFactorRate>1</cbc:OrderableUnitFactorRate>',
      });
      expect(cen(xml, OLD)).to.include('UBL-CR-631');
      expect(cen(xml, NEW)).to.not.include('UBL-CR-631');
    });

    it('Given two originator document references, When validated, Then UBL-SR-56 is reported under 3.0.21 only', () => {
      const ref = (id: string) =>
        `<cac:OriginatorDocumentReference><cbc:ID>${id}</cbc:ID></cac:OriginatorDocumentReference>`;
      const xml = invoice({ afterCurrency: ref('T1') + ref('T2') });
      expect(cen(xml, OLD)).to.deep.equal([]);
      expect(cen(xml, NEW)).to.deep.equal(['UBL-SR-56']);
    });

    it('Given a seller identified only by a SEPA creditor identifier, When validated, Then BR-CO-26 is reported under 3.0.21 only', () => {
      const xml = invoice({
        seller: '<cac:PartyIdentification><cbc:ID schemeID="SEPA">BE12ZZZ0123456789</cbc:ID></cac:PartyIdentification>',
      });
      expect(cen(xml, OLD)).to.not.include('BR-CO-26');
      expect(cen(xml, NEW)).to.include('BR-CO-26');
    });

    it('Given a seller identified by a non-SEPA identifier, When validated under 3.0.21, Then BR-CO-26 is not reported', () => {
      const xml = invoice({
        seller: '<cac:PartyIdentification><cbc:ID schemeID="0088">5790000435975</cbc:ID></cac:PartyIdentification>',
      });
      expect(cen(xml, NEW)).to.not.include('BR-CO-26');
    });

    it('Given a split-payment line and a standard-rated VAT breakdown, When validated, Then BR-B-02 is reported under 3.0.21 only', () => {
      const xml = invoice({}).replace(
        `<cac:ClassifiedTaxCategory>${S25}</cac:ClassifiedTaxCategory>`,
        '<cac:ClassifiedTaxCategory><cbc:ID>B</cbc:ID><cbc:Percent>25</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:ClassifiedTaxCategory>',
      );
      expect(cen(xml, OLD)).to.not.include('BR-B-02');
      expect(cen(xml, NEW)).to.include('BR-B-02');
    });

    it('Given invoice type code 502, When validated, Then BR-CL-01 is reported under 3.0.21 only (502 and 503 became credit note codes)', () => {
      for (const code of ['502', '503']) {
        const xml = invoice({ typeCode: code });
        expect(cen(xml, OLD), code).to.not.include('BR-CL-01');
        expect(cen(xml, NEW), code).to.include('BR-CL-01');
      }
    });

    it('Given a credit note with type code 502, When validated, Then BR-CL-01 is reported under 3.0.19 only', () => {
      const xml = invoice({ typeCode: '502' })
        .replaceAll('Invoice-2', 'CreditNote-2')
        .replace('<Invoice ', '<CreditNote ')
        .replace('</Invoice>', '</CreditNote>')
        .replaceAll('InvoiceTypeCode', 'CreditNoteTypeCode')
        .replaceAll('InvoiceLine', 'CreditNoteLine')
        .replaceAll('InvoicedQuantity', 'CreditedQuantity')
        .replace('<cbc:DueDate>2026-05-31</cbc:DueDate>', '');
      expect(cen(xml, OLD)).to.include('BR-CL-01');
      expect(cen(xml, NEW)).to.not.include('BR-CL-01');
    });

    it('Given a tax representative with two tax scheme company identifiers, When validated, Then UBL-SR-23 is reported under 3.0.21 only', () => {
      const scheme = (id: string) =>
        `<cac:PartyTaxScheme><cbc:CompanyID>${id}</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>`;
      const rep = `<cac:TaxRepresentativeParty><cac:PartyName><cbc:Name>Rep</cbc:Name></cac:PartyName><cac:PostalAddress><cac:Country><cbc:IdentificationCode>BE</cbc:IdentificationCode></cac:Country></cac:PostalAddress>${scheme('BE0123456749')}${scheme('BE0987654321')}</cac:TaxRepresentativeParty>`;
      const xml = invoice({ afterCustomer: rep });
      expect(cen(xml, OLD)).to.not.include('UBL-SR-23');
      expect(cen(xml, NEW)).to.include('UBL-SR-23');
    });

    it('Given a card number with a scheme identifier, When validated, Then the UBL-CR-674 warning comes under 3.0.21 only', () => {
      const xml = invoice({
        payment: card('<cbc:PrimaryAccountNumberID schemeID="X">1234</cbc:PrimaryAccountNumberID>'),
      });
      expect(cen(xml, OLD)).to.not.include('UBL-CR-674');
      expect(cen(xml, NEW)).to.include('UBL-CR-674');
    });
  });

  describe('as the official artefacts of both releases', () => {
    it('Given no LegalMonetaryTotal, When validated, Then BR-CO-10/11/12/13/16 are not reported (they check inside it)', () => {
      for (const set of BOTH) {
        const ids = cen(invoice({ totals: null }), set);
        expect(ids, set.id).to.not.include.members(['BR-CO-10', 'BR-CO-11', 'BR-CO-12', 'BR-CO-13', 'BR-CO-16']);
      }
    });

    it('Given a line without a quantity, When validated, Then BR-22 and BR-23 (no unit code either) are reported', () => {
      const xml = invoice({}).replace('<cbc:InvoicedQuantity unitCode="C62">2</cbc:InvoicedQuantity>', '');
      for (const set of BOTH) expect(cen(xml, set), set.id).to.include.members(['BR-22', 'BR-23']);
    });

    it('Given an amount without currencyID, When validated, Then BR-CL-03 is reported', () => {
      const xml = invoice({ price: '<cbc:PriceAmount>50.00</cbc:PriceAmount>' });
      for (const set of BOTH) expect(cen(xml, set), set.id).to.deep.equal(['BR-CL-03']);
    });

    it('Given a line without an item, When validated, Then UBL-SR-48 is reported (no classified tax category)', () => {
      const xml = invoice({}).replace(/<cac:Item>[\s\S]*?<\/cac:Item>/, '');
      for (const set of BOTH) expect(cen(xml, set), set.id).to.include('UBL-SR-48');
    });
  });

  describe('tolerance boundaries, as the official artefacts compute them', () => {
    // BR-S-08 allows a difference under 1 between the taxable amount and the sum of its lines; the
    // artefacts compute "taxable ± 1" in double precision. 96.10 - 1 is 95.0999… in doubles (below
    // 95.10: accepted), while 129.30 - 1 is 128.3000…1 (above 128.30: refused). Exact decimals would
    // refuse both (the difference is exactly 1).
    const s08 = (lineAmount: string, taxable: string) => invoice({ lineAmount, taxableAmount: taxable });
    it('Given a taxable amount 1 above its lines where the double is below (96.10 for 95.10), When validated, Then BR-S-08 is not reported', () => {
      for (const set of BOTH) expect(cen(s08('95.10', '96.10'), set), set.id).to.not.include('BR-S-08');
    });
    it('Given a taxable amount 1 above its lines where the double is above (129.30 for 128.30), When validated, Then BR-S-08 is reported', () => {
      for (const set of BOTH) expect(cen(s08('128.30', '129.30'), set), set.id).to.include('BR-S-08');
    });
    it('Given a taxable amount 1 below its lines where the double is above (127.30 for 128.30), When validated, Then BR-S-08 is not reported', () => {
      for (const set of BOTH) expect(cen(s08('128.30', '127.30'), set), set.id).to.not.include('BR-S-08');
    });
    it('Given a taxable amount 1 below its lines (94.10 for 95.10), When validated, Then BR-S-08 is reported', () => {
      for (const set of BOTH) expect(cen(s08('95.10', '94.10'), set), set.id).to.include('BR-S-08');
    });
    it('Given a difference under 1 (95.60 for 95.10), When validated, Then BR-S-08 is not reported', () => {
      for (const set of BOTH) expect(cen(s08('95.10', '95.60'), set), set.id).to.not.include('BR-S-08');
    });

    it('Given an item net price of -0.00, When validated, Then BR-27 is reported (the artefacts order -0 below 0)', () => {
      const xml = invoice({ price: '<cbc:PriceAmount currencyID="EUR">-0.00</cbc:PriceAmount>' });
      for (const set of BOTH) expect(cen(xml, set), set.id).to.include('BR-27');
      const zero = invoice({ price: '<cbc:PriceAmount currencyID="EUR">0.00</cbc:PriceAmount>' });
      for (const set of BOTH) expect(cen(zero, set), set.id).to.not.include('BR-27');
    });

    it('Given amounts of 22 digits that add up, When validated, Then BR-CO-10 is not reported (decimals are exact)', () => {
      const big = '12345678901234567890.12';
      for (const set of BOTH) expect(cen(invoice({ lineAmount: big }), set), set.id).to.not.include('BR-CO-10');
    });
  });
});
