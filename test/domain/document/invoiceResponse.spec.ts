import { expect } from 'chai';
import libxmljs from 'libxmljs';
import { writeInvoiceResponse } from '../../../src/domain/document/ubl/invoiceResponse.js';
import { toDocumentJson } from '../../../src/domain/document/invoice/documentJson.js';
import { emptyDocument } from '../../../src/domain/document/invoice/documentModel.js';

const NS = {
  ar: 'urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
};

describe('Invoice Response (Peppol BIS T111)', () => {
  const invoice = toDocumentJson({
    ...emptyDocument(),
    invoice_id: 'INV-7',
    invoice_date: '2026-05-01',
    vendor_name: 'Seller & Co',
    customer_name: 'Buyer NV',
  });
  const text = (xml: string, path: string) =>
    (libxmljs.parseXml(xml).get(path, NS) as { text(): string } | null)?.text() ?? null;

  it('writes a rejection with its reason, the parties and the invoice it answers', () => {
    const xml = writeInvoiceResponse({
      id: 'r1',
      issueDate: '2026-05-02',
      code: 'RE',
      reason: 'Unknown PO <123>',
      invoice,
      buyerPeppolId: '0208:0451234595',
      sellerPeppolId: '0208:0403013026',
    });
    expect(text(xml, '/ar:ApplicationResponse/cbc:CustomizationID')).to.equal(
      'urn:fdc:peppol.eu:poacc:trns:invoice_response:3',
    );
    expect(text(xml, '/ar:ApplicationResponse/cbc:ProfileID')).to.equal(
      'urn:fdc:peppol.eu:poacc:bis:invoice_response:3',
    );
    expect(text(xml, '//cac:SenderParty/cbc:EndpointID')).to.equal('0451234595');
    expect(libxmljs.parseXml(xml).get('//cac:SenderParty/cbc:EndpointID/@schemeID', NS)?.toString()).to.contain('0208');
    expect(text(xml, '//cac:ReceiverParty/cac:PartyLegalEntity/cbc:RegistrationName')).to.equal('Seller & Co');
    expect(text(xml, '//cac:Response/cbc:ResponseCode')).to.equal('RE');
    expect(text(xml, '//cac:Response/cac:Status/cbc:StatusReasonCode')).to.equal('OTH');
    expect(text(xml, '//cac:Response/cac:Status/cbc:StatusReason')).to.equal('Unknown PO <123>');
    expect(text(xml, '//cac:DocumentReference/cbc:ID')).to.equal('INV-7');
    expect(text(xml, '//cac:DocumentReference/cbc:DocumentTypeCode')).to.equal('380');
  });

  it('writes an acceptance without a status reason', () => {
    const xml = writeInvoiceResponse({
      id: 'r2',
      issueDate: '2026-05-02',
      code: 'AP',
      reason: null,
      invoice,
      buyerPeppolId: null,
      sellerPeppolId: null,
    });
    expect(text(xml, '//cac:Response/cbc:ResponseCode')).to.equal('AP');
    expect(text(xml, '//cac:Response/cac:Status')).to.equal(null);
  });
});
