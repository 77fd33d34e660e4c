import { formatAddress } from '../invoice/addressParser.js';
import type { Currency, VatexCode } from '../invoice/codeLists.js';
import { emptyDocument, emptyLineItem, isCreditNote } from '../invoice/documentModel.js';
import type {
  AllowanceCharge,
  Attachment,
  Document,
  DocumentType,
  LineItem,
  PaymentDetail,
  TaxDetail,
} from '../invoice/documentModel.js';
import { Dec, parseDecimal } from '../invoice/money.js';
import { companyIdText } from '../invoice/partyIdentifiers.js';
import { derivePeppolId, formatPeppolId } from '../invoice/peppolId.js';
import {
  base64Size,
  documentVatCategory,
  hasIbanShape,
  taxCodeOf,
  unitPriceOf,
  withoutCategory,
} from './syntaxValues.js';
import { UblReadError } from './ublReader.js';
import { xmlPath } from '../../xml/xmlPath.js';
import { str, type XNode } from '../../xml/xmlTree.js';

/*
 * UN/CEFACT Cross Industry Invoice (CII D16B, the syntax of Factur-X and ZUGFeRD 2.x, and of
 * XRechnung's CII flavour) → our document model, field by field along the EN 16931 semantic
 * model (the BT numbers below). Profiles below EN 16931 (MINIMUM, BASIC WL) carry no lines; the
 * document then lacks its items and validation says so.
 */

export const CII_NS = {
  rsm: 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  ram: 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  udt: 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
} as const;

type El = XNode;
const { all, one, text, attr } = xmlPath(CII_NS);
const dec = (e: El | null, path?: string) => {
  const t = text(e, path);
  return t === null ? null : parseDecimal(t);
};

/** udt:DateTimeString format 102 (YYYYMMDD) → YYYY-MM-DD; other formats as given. */
const dateOf = (e: El | null, path: string): string | null => {
  const d = one(e, path);
  const t = text(d, 'udt:DateTimeString');
  if (!t) return null;
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(t);
  return m ? `${m[1]}-${m[2]}-${m[3]}` : t;
};

/** UNTDID 1001 document type codes → our types (credit notes 381/396/532/262, self-billing 389/261, debit note 383). */
export const documentTypeOfCii = (code: string | null): DocumentType => {
  switch (code) {
    case '381':
    case '396':
    case '532':
    case '262':
      return 'CREDIT_NOTE';
    case '261':
      return 'SELFBILLING_CREDIT_NOTE';
    case '389':
      return 'SELFBILLING_INVOICE';
    case '383':
      return 'DEBIT_NOTE';
    default:
      return 'INVOICE';
  }
};

interface Party {
  name: string | null;
  email: string | null;
  contact: string | null;
  taxId: string | null;
  companyId: string | null;
  peppolId: string | null;
  address: string | null;
  identifier: string | null;
}

const addressOf = (a: El | null): string | null =>
  a
    ? formatAddress({
        street: text(a, 'ram:LineOne'),
        additional_street:
          [text(a, 'ram:LineTwo'), text(a, 'ram:LineThree')].filter((x) => x !== null).join(', ') || null,
        city: text(a, 'ram:CityName'),
        postal_code: text(a, 'ram:PostcodeCode'),
        country_code: text(a, 'ram:CountryID'),
      })
    : null;

const readParty = (p: El | null): Party => {
  // BT-31/BT-48: the VAT registration is the SpecifiedTaxRegistration with scheme VA (FC is a national tax number).
  const vat =
    all(p, 'ram:SpecifiedTaxRegistration/ram:ID').find((id) => (attr(id, 'schemeID') ?? '').toUpperCase() === 'VA') ??
    null;
  const taxId = text(vat);
  const legal = one(p, 'ram:SpecifiedLegalOrganization/ram:ID');
  const uri = one(p, 'ram:URIUniversalCommunication/ram:URIID');
  const uriScheme = attr(uri, 'schemeID');
  const global = one(p, 'ram:GlobalID');
  const contact = one(p, 'ram:DefinedTradeContact');
  const email =
    text(contact, 'ram:EmailURIUniversalCommunication/ram:URIID') ?? (uriScheme === 'EM' ? text(uri) : null);
  const peppol = text(uri) && uriScheme && uriScheme !== 'EM' ? `${uriScheme}:${text(uri)}` : null;
  const legalId = text(legal);
  const id = text(p, 'ram:ID');
  return {
    name: text(p, 'ram:Name'),
    email,
    contact: text(contact, 'ram:PersonName') ?? text(contact, 'ram:DepartmentName'),
    taxId,
    companyId: legalId === null ? null : companyIdText(legalId, attr(legal, 'schemeID'), taxId),
    peppolId:
      peppol ??
      (() => {
        const derived = derivePeppolId(taxId, legalId);
        return derived ? formatPeppolId(derived) : null;
      })(),
    address: addressOf(one(p, 'ram:PostalTradeAddress')),
    identifier:
      id ??
      (text(global) ? (attr(global, 'schemeID') ? `${attr(global, 'schemeID')}:${text(global)}` : text(global)) : null),
  };
};

const isCharge = (ac: El): boolean => (text(ac, 'ram:ChargeIndicator/udt:Indicator') ?? '').toLowerCase() === 'true';

const readAllowanceCharge = (ac: El): AllowanceCharge => ({
  reason: text(ac, 'ram:Reason'),
  reason_code: text(ac, 'ram:ReasonCode'),
  multiplier_factor: dec(ac, 'ram:CalculationPercent'),
  amount: dec(ac, 'ram:ActualAmount'),
  base_amount: dec(ac, 'ram:BasisAmount'),
  tax_rate: dec(ac, 'ram:CategoryTradeTax/ram:RateApplicablePercent'),
  tax_code: taxCodeOf(text(ac, 'ram:CategoryTradeTax/ram:CategoryCode')),
});

const readLine = (line: El): LineItem => {
  const agreement = one(line, 'ram:SpecifiedLineTradeAgreement');
  const settlement = one(line, 'ram:SpecifiedLineTradeSettlement');
  const qty = one(line, 'ram:SpecifiedLineTradeDelivery/ram:BilledQuantity');
  const net = one(agreement, 'ram:NetPriceProductTradePrice');
  const tax = one(settlement, 'ram:ApplicableTradeTax');
  const acs = all(settlement, 'ram:SpecifiedTradeAllowanceCharge');
  return {
    ...emptyLineItem(),
    description: text(line, 'ram:SpecifiedTradeProduct/ram:Name'),
    product_code: text(line, 'ram:SpecifiedTradeProduct/ram:SellerAssignedID'),
    quantity: dec(qty),
    unit: attr(qty, 'unitCode'),
    unit_price: unitPriceOf(dec(net, 'ram:ChargeAmount'), dec(net, 'ram:BasisQuantity')),
    amount: dec(settlement, 'ram:SpecifiedTradeSettlementLineMonetarySummation/ram:LineTotalAmount'),
    tax_rate: dec(tax, 'ram:RateApplicablePercent'),
    tax_code: taxCodeOf(text(tax, 'ram:CategoryCode')),
    allowances: acs
      .filter((a) => !isCharge(a))
      .map(readAllowanceCharge)
      .map(withoutCategory),
    charges: acs.filter(isCharge).map(readAllowanceCharge).map(withoutCategory),
  };
};

const readPayment = (pm: El, reference: string | null, mandate: string | null): PaymentDetail | null => {
  const code = text(pm, 'ram:TypeCode');
  const directDebit = code === '49' || code === '59';
  const account = directDebit
    ? one(pm, 'ram:PayerPartyDebtorFinancialAccount')
    : one(pm, 'ram:PayeePartyCreditorFinancialAccount');
  const iban = text(account, 'ram:IBANID')?.replace(/\s+/g, '').toUpperCase() ?? null;
  const proprietary = text(account, 'ram:ProprietaryID');
  const detail: PaymentDetail = {
    iban: iban && hasIbanShape(iban) ? iban : null,
    bank_account_number: iban && !hasIbanShape(iban) ? iban : proprietary,
    swift: text(pm, 'ram:PayeeSpecifiedCreditorFinancialInstitution/ram:BICID'),
    payment_reference: reference,
    payment_means_code: code,
    mandate_reference: directDebit ? mandate : null,
  };
  return detail.iban || detail.bank_account_number || detail.swift || detail.payment_reference ? detail : null;
};

const readAttachment = (ref: El): Attachment | null => {
  const binary = one(ref, 'ram:AttachmentBinaryObject');
  const uri = text(ref, 'ram:URIID');
  if (!binary && !uri) return null;
  const data = binary ? str(binary).replace(/\s+/g, '') : null;
  const id = text(ref, 'ram:IssuerAssignedID');
  return {
    id,
    file_name: attr(binary, 'filename') ?? id ?? 'attachment',
    file_type: attr(binary, 'mimeCode'),
    file_size: data ? base64Size(data) : null,
    file_data: data,
    file_url: binary ? null : uri,
  };
};

/** Whether XML is a CII invoice (the root element and its namespace). */
export const isCiiRoot = (root: El): boolean => root.local === 'CrossIndustryInvoice' && root.ns === CII_NS.rsm;

/**
 * The tree of a CII invoice → document model. The text was parsed at the edge, once, and hostile
 * XML refused there as for UBL (infrastructure/xml).
 */
export const readCii = (root: El): Document => {
  if (!isCiiRoot(root)) throw new UblReadError(`root element must be a CII CrossIndustryInvoice, got ${root.local}`);
  const doc = emptyDocument();
  const header = one(root, 'rsm:ExchangedDocument');
  const transaction = one(root, 'rsm:SupplyChainTradeTransaction');
  const agreement = one(transaction, 'ram:ApplicableHeaderTradeAgreement');
  const delivery = one(transaction, 'ram:ApplicableHeaderTradeDelivery');
  const settlement = one(transaction, 'ram:ApplicableHeaderTradeSettlement');

  doc.document_type = documentTypeOfCii(text(header, 'ram:TypeCode'));
  doc.invoice_id = text(header, 'ram:ID');
  doc.invoice_date = dateOf(header, 'ram:IssueDateTime');
  const notes = all(header, 'ram:IncludedNote')
    .map((n) => text(n, 'ram:Content'))
    .filter((n): n is string => n !== null);
  doc.note = notes.length > 0 ? notes.join('\n') : null;
  doc.currency = (text(settlement, 'ram:InvoiceCurrencyCode') ?? 'EUR') as Currency;

  const credited = text(settlement, 'ram:InvoiceReferencedDocument/ram:IssuerAssignedID');
  const order = text(agreement, 'ram:BuyerOrderReferencedDocument/ram:IssuerAssignedID');
  doc.purchase_order = isCreditNote(doc.document_type) ? (credited ?? order) : order;

  const terms = one(settlement, 'ram:SpecifiedTradePaymentTerms');
  doc.payment_term = text(terms, 'ram:Description');
  doc.due_date = dateOf(terms, 'ram:DueDateDateTime');
  const period = one(settlement, 'ram:BillingSpecifiedPeriod');
  doc.service_start_date = dateOf(period, 'ram:StartDateTime');
  doc.service_end_date = dateOf(period, 'ram:EndDateTime');

  const seller = readParty(one(agreement, 'ram:SellerTradeParty'));
  Object.assign(doc, {
    vendor_name: seller.name,
    vendor_email: seller.email,
    vendor_address_recipient: seller.contact,
    vendor_tax_id: seller.taxId,
    vendor_company_id: seller.companyId,
    vendor_peppol_id: seller.peppolId,
    vendor_address: seller.address,
  });
  const buyer = readParty(one(agreement, 'ram:BuyerTradeParty'));
  Object.assign(doc, {
    customer_name: buyer.name,
    customer_email: buyer.email,
    customer_address_recipient: buyer.contact,
    customer_tax_id: buyer.taxId,
    customer_company_id: buyer.companyId,
    customer_peppol_id: buyer.peppolId,
    customer_address: buyer.address,
    customer_id: buyer.identifier,
  });

  const shipTo = one(delivery, 'ram:ShipToTradeParty');
  doc.shipping_address = addressOf(one(shipTo, 'ram:PostalTradeAddress'));
  doc.shipping_address_recipient = text(shipTo, 'ram:Name');

  const reference = text(settlement, 'ram:PaymentReference');
  const mandate = text(terms, 'ram:DirectDebitMandateID');
  doc.payment_details = all(settlement, 'ram:SpecifiedTradeSettlementPaymentMeans')
    .map((pm) => readPayment(pm, reference, mandate))
    .filter((p): p is PaymentDetail => p !== null);
  if (doc.payment_details.length === 0 && reference) {
    doc.payment_details = [
      {
        iban: null,
        swift: null,
        bank_account_number: null,
        payment_reference: reference,
        payment_means_code: null,
        mandate_reference: null,
      },
    ];
  }
  doc.attachments = all(agreement, 'ram:AdditionalReferencedDocument')
    .map(readAttachment)
    .filter((a): a is Attachment => a !== null);

  const acs = all(settlement, 'ram:SpecifiedTradeAllowanceCharge');
  doc.allowances = acs.filter((a) => !isCharge(a)).map(readAllowanceCharge);
  doc.charges = acs.filter(isCharge).map(readAllowanceCharge);

  const taxes = all(settlement, 'ram:ApplicableTradeTax');
  doc.tax_details = taxes.map((t): TaxDetail => ({
    amount: dec(t, 'ram:CalculatedAmount'),
    rate: dec(t, 'ram:RateApplicablePercent'),
    tax_code: taxCodeOf(text(t, 'ram:CategoryCode')),
    taxable_amount: dec(t, 'ram:BasisAmount'),
  }));

  doc.items = all(transaction, 'ram:IncludedSupplyChainTradeLineItem').map(readLine);
  const { taxCode, reasonEntry } = documentVatCategory(doc.items, taxes, (t) => taxCodeOf(text(t, 'ram:CategoryCode')));
  doc.tax_code = taxCode;
  doc.vatex = text(reasonEntry, 'ram:ExemptionReasonCode') as VatexCode | null;
  doc.vatex_note = text(reasonEntry, 'ram:ExemptionReason');

  const totals = one(settlement, 'ram:SpecifiedTradeSettlementHeaderMonetarySummation');
  doc.subtotal = dec(totals, 'ram:TaxBasisTotalAmount');
  // BT-110 is the TaxTotalAmount in the invoice currency (a second one may give BT-111 in the accounting currency).
  const taxTotals = all(totals, 'ram:TaxTotalAmount');
  doc.total_tax = dec(taxTotals.find((t) => attr(t, 'currencyID') === doc.currency) ?? taxTotals[0] ?? null);
  doc.invoice_total = dec(totals, 'ram:GrandTotalAmount');
  doc.amount_due = dec(totals, 'ram:DuePayableAmount');
  doc.total_discount = new Dec(0);
  return doc;
};
