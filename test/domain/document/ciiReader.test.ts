import { expect } from 'chai';
import { documentTypeOfCii } from '../../../src/domain/document/ubl/ciiReader.js';
import { checkDocument } from '../../../src/domain/document/rules/documentCheck.js';
import { toResponse } from '../../../src/domain/document/invoice/documentModel.js';
import { UblReadError } from '../../../src/domain/document/ubl/ublReader.js';
import { writeUbl } from '../../../src/domain/document/ubl/ublWriter.js';
import { decodeDocumentInput } from '../../../src/http/codecs/documentCodec.js';
import { realisticDocuments } from './fixtures/realisticDocuments.js';
import { readCiiText } from '../../../src/infrastructure/xml/ublText.js';
import { readEmbeddedDocument } from '../../../src/infrastructure/xml/embeddedXml.js';

const NS =
  'xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100"';

/** An EN 16931 CII credit note with a line allowance, a document charge, a price per 10 units and a direct debit. */
const creditNote = `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryInvoice ${NS}>
  <rsm:ExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:cen.eu:en16931:2017</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext>
  <rsm:ExchangedDocument><ram:ID>CN-9</ram:ID><ram:TypeCode>381</ram:TypeCode>
    <ram:IssueDateTime><udt:DateTimeString format="102">20250410</udt:DateTimeString></ram:IssueDateTime>
    <ram:IncludedNote><ram:Content>Returned goods</ram:Content></ram:IncludedNote></rsm:ExchangedDocument>
  <rsm:SupplyChainTradeTransaction>
    <ram:IncludedSupplyChainTradeLineItem>
      <ram:AssociatedDocumentLineDocument><ram:LineID>1</ram:LineID></ram:AssociatedDocumentLineDocument>
      <ram:SpecifiedTradeProduct><ram:SellerAssignedID>SCR-10</ram:SellerAssignedID><ram:Name>Screws (per 10)</ram:Name></ram:SpecifiedTradeProduct>
      <ram:SpecifiedLineTradeAgreement><ram:NetPriceProductTradePrice><ram:ChargeAmount>2.50</ram:ChargeAmount><ram:BasisQuantity unitCode="C62">10</ram:BasisQuantity></ram:NetPriceProductTradePrice></ram:SpecifiedLineTradeAgreement>
      <ram:SpecifiedLineTradeDelivery><ram:BilledQuantity unitCode="C62">200</ram:BilledQuantity></ram:SpecifiedLineTradeDelivery>
      <ram:SpecifiedLineTradeSettlement>
        <ram:ApplicableTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>S</ram:CategoryCode><ram:RateApplicablePercent>21</ram:RateApplicablePercent></ram:ApplicableTradeTax>
        <ram:SpecifiedTradeAllowanceCharge><ram:ChargeIndicator><udt:Indicator>false</udt:Indicator></ram:ChargeIndicator><ram:ActualAmount>5.00</ram:ActualAmount><ram:Reason>Bulk</ram:Reason></ram:SpecifiedTradeAllowanceCharge>
        <ram:SpecifiedTradeSettlementLineMonetarySummation><ram:LineTotalAmount>45.00</ram:LineTotalAmount></ram:SpecifiedTradeSettlementLineMonetarySummation>
      </ram:SpecifiedLineTradeSettlement>
    </ram:IncludedSupplyChainTradeLineItem>
    <ram:ApplicableHeaderTradeAgreement>
      <ram:SellerTradeParty><ram:Name>Acme Solutions BV</ram:Name>
        <ram:SpecifiedLegalOrganization><ram:ID schemeID="0208">0403013026</ram:ID></ram:SpecifiedLegalOrganization>
        <ram:DefinedTradeContact><ram:PersonName>Finance</ram:PersonName><ram:EmailURIUniversalCommunication><ram:URIID>billing@acme.be</ram:URIID></ram:EmailURIUniversalCommunication></ram:DefinedTradeContact>
        <ram:PostalTradeAddress><ram:PostcodeCode>1000</ram:PostcodeCode><ram:LineOne>Rue de la Loi 16</ram:LineOne><ram:CityName>Brussels</ram:CityName><ram:CountryID>BE</ram:CountryID></ram:PostalTradeAddress>
        <ram:URIUniversalCommunication><ram:URIID schemeID="0208">0403013026</ram:URIID></ram:URIUniversalCommunication>
        <ram:SpecifiedTaxRegistration><ram:ID schemeID="FC">12/345/67890</ram:ID></ram:SpecifiedTaxRegistration>
        <ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">BE0403013026</ram:ID></ram:SpecifiedTaxRegistration>
      </ram:SellerTradeParty>
      <ram:BuyerTradeParty><ram:ID>CUST-7</ram:ID><ram:Name>Brouwerij De Zwaan NV</ram:Name>
        <ram:PostalTradeAddress><ram:PostcodeCode>2000</ram:PostcodeCode><ram:LineOne>Meir 1</ram:LineOne><ram:CityName>Antwerpen</ram:CityName><ram:CountryID>BE</ram:CountryID></ram:PostalTradeAddress>
        <ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">BE0451234595</ram:ID></ram:SpecifiedTaxRegistration>
      </ram:BuyerTradeParty>
    </ram:ApplicableHeaderTradeAgreement>
    <ram:ApplicableHeaderTradeDelivery/>
    <ram:ApplicableHeaderTradeSettlement>
      <ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>
      <ram:SpecifiedTradeSettlementPaymentMeans><ram:TypeCode>59</ram:TypeCode><ram:PayerPartyDebtorFinancialAccount><ram:IBANID>BE68539007547034</ram:IBANID></ram:PayerPartyDebtorFinancialAccount></ram:SpecifiedTradeSettlementPaymentMeans>
      <ram:ApplicableTradeTax><ram:CalculatedAmount>11.55</ram:CalculatedAmount><ram:TypeCode>VAT</ram:TypeCode><ram:BasisAmount>55.00</ram:BasisAmount><ram:CategoryCode>S</ram:CategoryCode><ram:RateApplicablePercent>21</ram:RateApplicablePercent></ram:ApplicableTradeTax>
      <ram:SpecifiedTradeAllowanceCharge><ram:ChargeIndicator><udt:Indicator>true</udt:Indicator></ram:ChargeIndicator><ram:ActualAmount>10.00</ram:ActualAmount><ram:Reason>Handling</ram:Reason>
        <ram:CategoryTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>S</ram:CategoryCode><ram:RateApplicablePercent>21</ram:RateApplicablePercent></ram:CategoryTradeTax></ram:SpecifiedTradeAllowanceCharge>
      <ram:SpecifiedTradePaymentTerms><ram:DirectDebitMandateID>MANDATE-1</ram:DirectDebitMandateID></ram:SpecifiedTradePaymentTerms>
      <ram:SpecifiedTradeSettlementHeaderMonetarySummation>
        <ram:LineTotalAmount>45.00</ram:LineTotalAmount><ram:ChargeTotalAmount>10.00</ram:ChargeTotalAmount><ram:TaxBasisTotalAmount>55.00</ram:TaxBasisTotalAmount>
        <ram:TaxTotalAmount currencyID="EUR">11.55</ram:TaxTotalAmount><ram:GrandTotalAmount>66.55</ram:GrandTotalAmount><ram:DuePayableAmount>66.55</ram:DuePayableAmount>
      </ram:SpecifiedTradeSettlementHeaderMonetarySummation>
      <ram:InvoiceReferencedDocument><ram:IssuerAssignedID>INV-2025-77</ram:IssuerAssignedID></ram:InvoiceReferencedDocument>
    </ram:ApplicableHeaderTradeSettlement>
  </rsm:SupplyChainTradeTransaction>
</rsm:CrossIndustryInvoice>`;

describe('CII (Factur-X / ZUGFeRD) → document model', () => {
  it('Given an EN 16931 CII credit note, When read, Then every field lands where the UBL reader would put it, and it validates', () => {
    const doc = readCiiText(creditNote);
    const r = toResponse(doc);
    expect(r).to.include({
      document_type: 'CREDIT_NOTE',
      invoice_id: 'CN-9',
      invoice_date: '2025-04-10',
      note: 'Returned goods',
      purchase_order: 'INV-2025-77',
      currency: 'EUR',
      vendor_name: 'Acme Solutions BV',
      vendor_tax_id: 'BE0403013026',
      vendor_company_id: '0403013026',
      vendor_peppol_id: '0208:0403013026',
      vendor_email: 'billing@acme.be',
      vendor_address_recipient: 'Finance',
      vendor_address: 'Rue de la Loi 16\n1000 Brussels\nBE',
      customer_name: 'Brouwerij De Zwaan NV',
      customer_tax_id: 'BE0451234595',
      customer_id: 'CUST-7',
      subtotal: '55.00',
      total_tax: '11.55',
      invoice_total: '66.55',
      amount_due: '66.55',
    });
    // The price per 10 becomes the price of one; the line discount stays on the line.
    expect(
      r.items.map((i) => [i.description, i.product_code, i.quantity, i.unit_price, i.amount, i.tax_rate]),
    ).to.deep.equal([['Screws (per 10)', 'SCR-10', '200', '0.25', '45.00', '21.00']]);
    expect(r.items[0]!.allowances.map((a) => [a.reason, a.amount])).to.deep.equal([['Bulk', '5.00']]);
    expect(r.charges.map((c) => [c.reason, c.amount, c.tax_rate, c.tax_code])).to.deep.equal([
      ['Handling', '10.00', '21.00', 'S'],
    ]);
    expect(r.payment_details).to.deep.equal([
      {
        iban: 'BE68539007547034',
        bank_account_number: null,
        swift: null,
        payment_reference: null,
        payment_means_code: '59',
        mandate_reference: 'MANDATE-1',
      },
    ]);
    const check = checkDocument(doc);
    expect(check.issues.filter((i) => i.flag === 'fatal').map((i) => i.message)).to.deep.equal([]);
    expect(check.ubl).to.include('<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>');
  });

  it('maps UNTDID 1001 type codes to our document types', () => {
    expect(['380', '381', '383', '389', '261', '396', '384'].map(documentTypeOfCii)).to.deep.equal([
      'INVOICE',
      'CREDIT_NOTE',
      'DEBIT_NOTE',
      'SELFBILLING_INVOICE',
      'SELFBILLING_CREDIT_NOTE',
      'CREDIT_NOTE',
      'INVOICE',
    ]);
  });

  it('refuses hostile XML and other roots', () => {
    expect(() =>
      readCiiText(
        `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><rsm:CrossIndustryInvoice ${NS}>&e;</rsm:CrossIndustryInvoice>`,
      ),
    ).to.throw(UblReadError);
    expect(() => readCiiText('<Invoice/>')).to.throw(UblReadError, /CrossIndustryInvoice/);
  });
});

describe('Structured data embedded in a PDF', () => {
  const ubl = () => {
    const decoded = decodeDocumentInput(realisticDocuments()[0]!.body);
    if (!decoded.ok) throw new Error('fixture');
    return writeUbl(decoded.value);
  };

  it('recognises UBL and CII by their root element, trying Factur-X names first', () => {
    const found = readEmbeddedDocument([
      { fileName: 'notes.xml', mimeType: 'text/xml', content: Buffer.from('<notes/>') },
      { fileName: 'invoice.xml', mimeType: null, content: Buffer.from(ubl()) },
      { fileName: 'factur-x.xml', mimeType: 'text/xml', content: Buffer.from(creditNote) },
    ]);
    expect(found.found?.format).to.equal('cii');
    expect(found.found?.document.invoice_id).to.equal('CN-9');
    const onlyUbl = readEmbeddedDocument([
      { fileName: 'data.bin', mimeType: 'application/octet-stream', content: Buffer.from(`\ufeff${ubl()}`) },
    ]);
    expect(onlyUbl.found?.format).to.equal('ubl');
    expect(onlyUbl.found?.document.invoice_id).to.equal('ACME-2025-0001');
  });

  it('explains the XML files it could not use, and ignores files that are not XML', () => {
    const result = readEmbeddedDocument([
      {
        fileName: 'ZUGFeRD-invoice.xml',
        mimeType: 'text/xml',
        content: Buffer.from('<rsm:CrossIndustryDocument xmlns:rsm="urn:ferd:CrossIndustryDocument:invoice:1p0"/>'),
      },
      { fileName: 'broken.xml', mimeType: 'text/xml', content: Buffer.from('<Invoice><unclosed></Invoice>') },
      { fileName: 'photo.png', mimeType: 'image/png', content: Buffer.from([0x89, 0x50, 0x4e, 0x47]) },
    ]);
    expect(result.found).to.equal(null);
    expect(result.problems).to.have.length(2);
    expect(result.problems[0]).to.match(/ZUGFeRD 1\.0/);
    expect(result.problems[1]).to.match(/broken\.xml: not well-formed/);
  });
});
