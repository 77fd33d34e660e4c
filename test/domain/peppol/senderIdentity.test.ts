import { expect } from 'chai';
import {
  bindIssuer,
  issuerIdOf,
  namedIssuerOf,
  ownIdMatching,
  ownParticipantIds,
  sendBlockOf,
  type IssuerFacts,
} from '../../../src/domain/peppol/senderIdentity.js';
import { peppolKindOf } from '../../../src/domain/peppol/peppolDocumentTypes.js';
import { BIS_BILLING_CREDIT_NOTE, BIS_BILLING_INVOICE } from '../../../src/domain/peppol/smpDocuments.js';
import { writeInvoiceResponse } from '../../../src/domain/document/ubl/invoiceResponse.js';
import { parseUntrustedXml } from '../../../src/infrastructure/xml/xmlParser.js';
import type { DocumentType } from '../../../src/domain/document/invoice/documentModel.js';

const facts = (overrides: Partial<IssuerFacts> = {}): IssuerFacts => ({
  document_type: 'INVOICE',
  vendor_peppol_id: null,
  vendor_tax_id: null,
  vendor_company_id: null,
  customer_peppol_id: null,
  customer_tax_id: null,
  customer_company_id: null,
  ...overrides,
});

const ubl = (root: 'Invoice' | 'CreditNote', customization: string, typeCode: string, parties: string) =>
  parseUntrustedXml(
    `<${root} xmlns="urn:oasis:names:specification:ubl:schema:xsd:${root}-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">` +
      `<cbc:CustomizationID>${customization}</cbc:CustomizationID><cbc:${root}TypeCode>${typeCode}</cbc:${root}TypeCode>${parties}</${root}>`,
  ).root;
const party = (element: string, endpoint: string) =>
  `<cac:${element}><cac:Party>${endpoint}<cac:PartyName><cbc:Name>x</cbc:Name></cac:PartyName></cac:Party></cac:${element}>`;
const BILLING = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';
const SELF_BILLING = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:selfbilling:3.0';

describe('Sender identity: a tenant sends only as a participant it holds', () => {
  describe('the ids a tenant holds', () => {
    it('are its peppol_ids, then its registration, each once (Peppol compares values without case)', () => {
      expect(ownParticipantIds({ peppol_ids: [], peppol_registration: null })).to.deep.equal([]);
      expect(
        ownParticipantIds({
          peppol_ids: ['9925:BE0123456749'],
          peppol_registration: { peppol_id: '9925:be0123456749' },
        }),
      ).to.deep.equal(['9925:BE0123456749']);
      expect(
        ownParticipantIds({
          peppol_ids: ['0208:0123456749'],
          peppol_registration: { peppol_id: '0088:7300010000001' },
        }),
      ).to.deep.equal(['0208:0123456749', '0088:7300010000001']);
      expect(
        ownParticipantIds({ peppol_ids: [], peppol_registration: { peppol_id: '0208:0123456749' } }),
      ).to.deep.equal(['0208:0123456749']);
    });

    it('match a participant id by scheme and value, case-insensitively, with or without the scheme prefix', () => {
      const own = ['9925:BE0123456749'];
      expect(ownIdMatching(own, '9925:be0123456749')).to.equal('9925:BE0123456749');
      expect(ownIdMatching(own, 'ISO6523-ACTORID-UPIS::9925:BE0123456749')).to.equal('9925:BE0123456749');
      expect(ownIdMatching(own, '9925:BE0123456748')).to.equal(null);
      expect(ownIdMatching(own, '9944:BE0123456749')).to.equal(null);
      expect(ownIdMatching(own, null)).to.equal(null);
      expect(ownIdMatching(own, 'not an id')).to.equal(null);
    });
  });

  describe('the issuer of a document', () => {
    it('is the seller (BT-34), its EndpointID as the UBL writer writes it: given, else derived', () => {
      expect(
        issuerIdOf(facts({ vendor_peppol_id: '0088:7300010000001', customer_peppol_id: '0208:0451234595' })),
      ).to.equal('0088:7300010000001');
      expect(issuerIdOf(facts({ vendor_tax_id: 'BE0403013026' }))).to.equal('0208:0403013026');
      // 9956 is written as 0208 (endpointIdFor): the issuer is what travels.
      expect(issuerIdOf(facts({ vendor_peppol_id: '9956:0403013026' }))).to.equal('0208:0403013026');
      expect(issuerIdOf(facts())).to.equal(null);
    });

    it('is the buyer (BT-49) of a self-billed invoice or credit note: the buyer issues and sends it', () => {
      for (const type of ['SELFBILLING_INVOICE', 'SELFBILLING_CREDIT_NOTE'] as DocumentType[]) {
        expect(
          issuerIdOf(
            facts({ document_type: type, vendor_peppol_id: '0208:0876543288', customer_tax_id: 'BE0451234595' }),
          ),
        ).to.equal('0208:0451234595');
      }
    });
  });

  describe('whether a tenant may send a document', () => {
    const own = ['0208:0403013026'];

    it('yes when the issuer is one of its ids', () => {
      expect(sendBlockOf(own, facts({ vendor_tax_id: 'BE0403013026' }))).to.equal(null);
      expect(sendBlockOf(own, facts({ vendor_peppol_id: '0208:0403013026' }))).to.equal(null);
    });

    it("no for another seller's document: the field, the EndpointID, the issuer and the ids it may use", () => {
      const block = sendBlockOf(own, facts({ vendor_peppol_id: '0088:7300010000001' }));
      expect(block).to.deep.include({
        field: 'vendor_peppol_id',
        loc: ['document', 'AccountingSupplierParty', 'EndpointID'],
        issuer_peppol_id: '0088:7300010000001',
        allowed_ids: own,
      });
      expect(block!.message).to.match(/issued by 0088:7300010000001, .*BT-34.* may send as: 0208:0403013026$/);
    });

    it("no for a self-billed document whose buyer is someone else, naming the buyer's EndpointID", () => {
      const block = sendBlockOf(
        own,
        facts({
          document_type: 'SELFBILLING_INVOICE',
          vendor_peppol_id: '0208:0403013026',
          customer_peppol_id: '0208:0451234595',
        }),
      );
      expect(block).to.deep.include({
        field: 'customer_peppol_id',
        loc: ['document', 'AccountingCustomerParty', 'EndpointID'],
        issuer_peppol_id: '0208:0451234595',
      });
      expect(block!.message).to.match(/BT-49; in self-billing the buyer issues and sends/);
    });

    it('no for a document that names no issuer, and for any document of a tenant that holds no id', () => {
      expect(sendBlockOf(own, facts())!.message).to.match(/names no issuer/);
      const none = sendBlockOf([], facts({ vendor_peppol_id: '0208:0403013026' }))!;
      expect(none.allowed_ids).to.deep.equal([]);
      expect(none.message).to.match(/holds no Peppol participant id.*administrator/);
    });
  });

  describe("a JSON document's issuer bound to the tenant", () => {
    const own = ['0208:0403013026'];
    const body = (overrides: Record<string, unknown> = {}) => ({
      document_type: 'INVOICE' as DocumentType,
      vendor_peppol_id: null as string | null,
      customer_peppol_id: '0208:0451234595' as string | null,
      ...overrides,
    });

    it("defaults to the tenant's first id, keeps one of its own (as the tenant holds it), refuses another", () => {
      expect(bindIssuer(body(), own)).to.deep.equal({ ok: true, document: body({ vendor_peppol_id: own[0] }) });
      expect(bindIssuer(body({ vendor_peppol_id: 'iso6523-actorid-upis::0208:0403013026' }), own)).to.deep.equal({
        ok: true,
        document: body({ vendor_peppol_id: own[0] }),
      });
      const refused = bindIssuer(body({ vendor_peppol_id: '0088:7300010000001' }), own);
      expect(refused).to.deep.include({ ok: false, loc: ['body', 'vendor_peppol_id'] });
      expect((refused as { msg: string }).msg).to.match(/0088:7300010000001 is not .* \(0208:0403013026\)/);
    });

    it('binds the buyer of a self-billed document, and leaves the seller (its receiver) alone', () => {
      const selfBilled = body({ document_type: 'SELFBILLING_INVOICE', vendor_peppol_id: '0208:0876543288' });
      expect(bindIssuer({ ...selfBilled, customer_peppol_id: null }, own)).to.deep.equal({
        ok: true,
        document: { ...selfBilled, customer_peppol_id: own[0] },
      });
      expect(bindIssuer(selfBilled, own)).to.deep.include({ ok: false, loc: ['body', 'customer_peppol_id'] });
    });

    it('leaves the document of a tenant without ids as written (it cannot be sent until it has one)', () => {
      const given = body({ vendor_peppol_id: '0088:7300010000001' });
      expect(bindIssuer(given, [])).to.deep.equal({ ok: true, document: given });
    });
  });

  describe('the issuer a received business document names', () => {
    it("reads the seller's EndpointID of an invoice, the buyer's of a self-billed one", () => {
      const parties =
        party('AccountingSupplierParty', '<cbc:EndpointID schemeID="0088">7300010000001</cbc:EndpointID>') +
        party('AccountingCustomerParty', '<cbc:EndpointID schemeID="0002">FR23342</cbc:EndpointID>');
      expect(namedIssuerOf(ubl('Invoice', BILLING, '380', parties))).to.deep.equal({
        path: 'Invoice/AccountingSupplierParty/Party/EndpointID',
        id: '0088:7300010000001',
      });
      expect(namedIssuerOf(ubl('CreditNote', SELF_BILLING, '261', parties))).to.deep.equal({
        path: 'CreditNote/AccountingCustomerParty/Party/EndpointID',
        id: '0002:FR23342',
      });
      // Type 389 is a self-billed invoice whatever the customization says (documentTypeOf).
      expect(namedIssuerOf(ubl('Invoice', BILLING, '389', parties))!.id).to.equal('0002:FR23342');
    });

    it('reads no issuer where the EndpointID or its scheme is missing', () => {
      const noScheme = party('AccountingSupplierParty', '<cbc:EndpointID>7300010000001</cbc:EndpointID>');
      expect(namedIssuerOf(ubl('Invoice', BILLING, '380', noScheme))!.id).to.equal(null);
      expect(namedIssuerOf(ubl('Invoice', BILLING, '380', ''))!.id).to.equal(null);
    });

    it("reads an Invoice Response's SenderParty, and nothing of other documents", () => {
      const response = writeInvoiceResponse({
        id: 'r-1',
        issueDate: '2026-01-01',
        code: 'AP',
        reason: null,
        invoice: {
          invoice_id: 'INV-1',
          invoice_date: '2026-01-01',
          document_type: 'INVOICE',
          customer_name: 'B',
          vendor_name: 'S',
        },
        buyerPeppolId: '0208:0451234595',
        sellerPeppolId: '0208:0403013026',
      });
      expect(namedIssuerOf(parseUntrustedXml(response).root)).to.deep.equal({
        path: 'ApplicationResponse/SenderParty/EndpointID',
        id: '0208:0451234595',
      });
      expect(namedIssuerOf(parseUntrustedXml('<Order xmlns="urn:x"/>').root)).to.equal(null);
    });
  });

  it('sends billing documents as Peppol BIS Billing, self-billed ones as Peppol BIS Self-Billing', () => {
    expect(peppolKindOf('INVOICE').documentType.value).to.equal(BIS_BILLING_INVOICE);
    expect(peppolKindOf('DEBIT_NOTE').documentType.value).to.equal(BIS_BILLING_INVOICE);
    expect(peppolKindOf('CREDIT_NOTE').documentType.value).to.equal(BIS_BILLING_CREDIT_NOTE);
    expect(peppolKindOf('SELFBILLING_CREDIT_NOTE')).to.deep.equal({
      documentType: {
        scheme: 'busdox-docid-qns',
        value:
          'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2::CreditNote##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:selfbilling:3.0::2.1',
      },
      process: { scheme: 'cenbii-procid-ubl', value: 'urn:fdc:peppol.eu:2017:poacc:selfbilling:01:1.0' },
    });
  });
});
