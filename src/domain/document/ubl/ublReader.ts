import { formatAddress } from '../invoice/addressParser.js';
import type { Currency, VatexCode } from '../invoice/codeLists.js';
import { emptyDocument, emptyLineItem } from '../invoice/documentModel.js';
import type {
  AllowanceCharge,
  Attachment,
  Document,
  LineItem,
  PaymentDetail,
  TaxDetail,
} from '../invoice/documentModel.js';
import { Dec, parseDecimal } from '../invoice/money.js';
import { companyIdText } from '../invoice/partyIdentifiers.js';
import { derivePeppolId, formatPeppolId } from '../invoice/peppolId.js';
import type { PeppolId } from '../invoice/peppolId.js';
import {
  base64Size,
  documentVatCategory,
  hasIbanShape,
  taxCodeOf,
  unitPriceOf,
  withoutCategory,
} from './syntaxValues.js';
import { NS, documentTypeOf } from './ublNames.js';
import { xmlPath } from '../../xml/xmlPath.js';
import { str, type XNode } from '../../xml/xmlTree.js';

const idText = (id: PeppolId | null): string | null => (id ? formatPeppolId(id) : null);

/** The XML could not be read as a UBL Invoice or CreditNote. */
export class UblReadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UblReadError';
  }
}

type El = XNode;

const { all, one, text, attr } = xmlPath({ cac: NS.cac, cbc: NS.cbc });
const dec = (e: El | null, path?: string) => {
  const t = text(e, path);
  return t === null ? null : parseDecimal(t);
};

/** Whether a PartyTaxScheme is the VAT one (TaxScheme/ID VAT, trimmed, case-insensitive). */
const isVatScheme = (pts: El): boolean => (text(pts, 'cac:TaxScheme/cbc:ID') ?? '').toUpperCase() === 'VAT';

interface PartyFields {
  name: string | null;
  email: string | null;
  recipient: string | null;
  taxId: string | null;
  companyId: string | null;
  peppolId: string | null;
  address: string | null;
  identification: string | null;
}

const addressText = (a: El | null): string | null =>
  a
    ? formatAddress({
        street: text(a, 'cbc:StreetName'),
        additional_street: text(a, 'cbc:AdditionalStreetName'),
        city: text(a, 'cbc:CityName'),
        postal_code: text(a, 'cbc:PostalZone'),
        country_code: text(a, 'cac:Country/cbc:IdentificationCode'),
      })
    : null;

const companyIdOf = (e: El | null, taxId: string | null): string | null => {
  const id = text(e);
  return id === null ? null : companyIdText(id, attr(e, 'schemeID'), taxId);
};

const readParty = (party: El | null): PartyFields => {
  const endpoint = one(party, 'cbc:EndpointID');
  const endpointScheme = attr(endpoint, 'schemeID');
  const endpointValue = text(endpoint);
  const ident = one(party, 'cac:PartyIdentification/cbc:ID');
  const identScheme = attr(ident, 'schemeID');
  const identValue = text(ident);
  const vat = all(party, 'cac:PartyTaxScheme').find(isVatScheme) ?? null;
  return {
    name: text(party, 'cac:PartyLegalEntity/cbc:RegistrationName') ?? text(party, 'cac:PartyName/cbc:Name'),
    email: text(party, 'cac:Contact/cbc:ElectronicMail'),
    recipient: text(party, 'cac:Contact/cbc:Name'),
    taxId: text(vat, 'cbc:CompanyID'),
    companyId: companyIdOf(one(party, 'cac:PartyLegalEntity/cbc:CompanyID'), text(vat, 'cbc:CompanyID')),
    peppolId: endpointValue ? (endpointScheme ? `${endpointScheme}:${endpointValue}` : endpointValue) : null,
    address: addressText(one(party, 'cac:PostalAddress')),
    identification: identValue
      ? identScheme && /^0\d{3}$/.test(identScheme)
        ? `${identScheme}:${identValue}`
        : identValue
      : null,
  };
};

const readAllowanceCharge = (a: El): AllowanceCharge => ({
  reason: text(a, 'cbc:AllowanceChargeReason'),
  reason_code: text(a, 'cbc:AllowanceChargeReasonCode'),
  multiplier_factor: dec(a, 'cbc:MultiplierFactorNumeric'),
  amount: dec(a, 'cbc:Amount'),
  base_amount: dec(a, 'cbc:BaseAmount'),
  tax_rate: dec(a, 'cac:TaxCategory/cbc:Percent'),
  tax_code: taxCodeOf(text(a, 'cac:TaxCategory/cbc:ID')),
});

const isCharge = (a: El): boolean => (text(a, 'cbc:ChargeIndicator') ?? '').toLowerCase() === 'true';

const readLine = (line: El, qtyName: string): LineItem => {
  const qty = one(line, qtyName);
  const acs = all(line, 'cac:AllowanceCharge');
  const category = one(line, 'cac:Item/cac:ClassifiedTaxCategory');
  return {
    ...emptyLineItem(),
    amount: dec(line, 'cbc:LineExtensionAmount'),
    description: text(line, 'cac:Item/cbc:Name'),
    quantity: dec(qty),
    unit: attr(qty, 'unitCode'),
    product_code: text(line, 'cac:Item/cac:SellersItemIdentification/cbc:ID'),
    tax_rate: dec(category, 'cbc:Percent'),
    tax_code: taxCodeOf(text(category, 'cbc:ID')),
    unit_price: unitPriceOf(dec(line, 'cac:Price/cbc:PriceAmount'), dec(line, 'cac:Price/cbc:BaseQuantity')),
    allowances: acs
      .filter((a) => !isCharge(a))
      .map(readAllowanceCharge)
      .map(withoutCategory),
    charges: acs.filter(isCharge).map(readAllowanceCharge).map(withoutCategory),
  };
};

const readAttachment = (ref: El): Attachment | null => {
  const binary = one(ref, 'cac:Attachment/cbc:EmbeddedDocumentBinaryObject');
  const uri = text(ref, 'cac:Attachment/cac:ExternalReference/cbc:URI');
  if (!binary && !uri) return null;
  const id = text(ref, 'cbc:ID');
  const data = binary ? str(binary).replace(/\s+/g, '') : null;
  return {
    id,
    file_name: attr(binary, 'filename') ?? id ?? 'attachment',
    file_type: attr(binary, 'mimeCode'),
    file_size: data ? base64Size(data) : null,
    file_data: data,
    file_url: binary ? null : uri,
  };
};

const readPaymentDetail = (pm: El): PaymentDetail | null => {
  const code = text(pm, 'cbc:PaymentMeansCode');
  const directDebit = code === '49' || code === '59';
  const account = directDebit
    ? text(pm, 'cac:PaymentMandate/cac:PayerFinancialAccount/cbc:ID')
    : text(pm, 'cac:PayeeFinancialAccount/cbc:ID');
  const compact = account ? account.replace(/\s+/g, '').toUpperCase() : null;
  const detail: PaymentDetail = {
    iban: compact && hasIbanShape(compact) ? compact : null,
    bank_account_number: compact && hasIbanShape(compact) ? null : account,
    swift: text(pm, 'cac:PayeeFinancialAccount/cac:FinancialInstitutionBranch/cbc:ID'),
    payment_reference: text(pm, 'cbc:PaymentID'),
    payment_means_code: code,
    mandate_reference: directDebit ? text(pm, 'cac:PaymentMandate/cbc:ID') : null,
  };
  return detail.iban || detail.bank_account_number || detail.swift || detail.payment_reference ? detail : null;
};

/**
 * The tree of a UBL Invoice/CreditNote -> document model (the inverse of writeUbl for what the model
 * can hold). The text was parsed at the edge (infrastructure/xml/ublText.ts), once.
 */
export const readUbl = (root: XNode): Document => {
  const kind =
    root.local === 'Invoice' && root.ns === NS.invoice
      ? 'Invoice'
      : root.local === 'CreditNote' && root.ns === NS.creditNote
        ? 'CreditNote'
        : null;
  if (!kind) throw new UblReadError(`root element must be a UBL 2.1 Invoice or CreditNote, got ${root.local}`);
  const creditNote = kind === 'CreditNote';
  const doc = emptyDocument();

  doc.document_type = documentTypeOf(
    kind,
    text(root, creditNote ? 'cbc:CreditNoteTypeCode' : 'cbc:InvoiceTypeCode') ?? '',
    text(root, 'cbc:CustomizationID') ?? '',
  );
  doc.invoice_id = text(root, 'cbc:ID');
  doc.invoice_date = text(root, 'cbc:IssueDate');
  const paymentMeans = all(root, 'cac:PaymentMeans');
  doc.due_date =
    text(root, 'cbc:DueDate') ??
    paymentMeans.map((pm) => text(pm, 'cbc:PaymentDueDate')).find((d) => d !== null) ??
    null;
  const notes = all(root, 'cbc:Note')
    .map((n) => text(n))
    .filter((n): n is string => n !== null);
  doc.note = notes.length > 0 ? notes.join('\n') : null;
  doc.currency = (text(root, 'cbc:DocumentCurrencyCode') ?? 'EUR') as Currency;
  doc.purchase_order = creditNote
    ? (text(root, 'cac:BillingReference/cac:InvoiceDocumentReference/cbc:ID') ??
      text(root, 'cac:OrderReference/cbc:ID'))
    : text(root, 'cac:OrderReference/cbc:ID');
  doc.payment_term = text(root, 'cac:PaymentTerms/cbc:Note');
  doc.service_start_date = text(root, 'cac:InvoicePeriod/cbc:StartDate');
  doc.service_end_date = text(root, 'cac:InvoicePeriod/cbc:EndDate');

  const seller = readParty(one(root, 'cac:AccountingSupplierParty/cac:Party'));
  doc.vendor_name = seller.name;
  doc.vendor_email = seller.email;
  doc.vendor_address_recipient = seller.recipient;
  doc.vendor_tax_id = seller.taxId;
  doc.vendor_company_id = seller.companyId;
  // Without an EndpointID the participant id is the one the tax id implies, as for JSON documents.
  doc.vendor_peppol_id = seller.peppolId ?? idText(derivePeppolId(seller.taxId, seller.companyId));
  doc.vendor_address = seller.address;

  const buyer = readParty(one(root, 'cac:AccountingCustomerParty/cac:Party'));
  doc.customer_name = buyer.name;
  doc.customer_email = buyer.email;
  doc.customer_address_recipient = buyer.recipient;
  doc.customer_tax_id = buyer.taxId;
  doc.customer_company_id = buyer.companyId;
  doc.customer_peppol_id = buyer.peppolId ?? idText(derivePeppolId(buyer.taxId, buyer.companyId));
  doc.customer_address = buyer.address;
  doc.customer_id = buyer.identification;

  const delivery = one(root, 'cac:Delivery');
  doc.shipping_address = addressText(one(delivery, 'cac:DeliveryLocation/cac:Address'));
  doc.shipping_address_recipient = text(delivery, 'cac:DeliveryParty/cac:PartyName/cbc:Name');

  doc.payment_details = paymentMeans.map(readPaymentDetail).filter((p): p is PaymentDetail => p !== null);
  doc.attachments = all(root, 'cac:AdditionalDocumentReference')
    .map(readAttachment)
    .filter((a): a is Attachment => a !== null);

  const acs = all(root, 'cac:AllowanceCharge');
  doc.allowances = acs.filter((a) => !isCharge(a)).map(readAllowanceCharge);
  doc.charges = acs.filter(isCharge).map(readAllowanceCharge);

  // The VAT breakdown in document currency is the TaxTotal with subtotals (a second one may hold BT-111).
  const taxTotals = all(root, 'cac:TaxTotal');
  const taxTotal = taxTotals.find((t) => all(t, 'cac:TaxSubtotal').length > 0) ?? taxTotals[0] ?? null;
  const subtotals = all(taxTotal, 'cac:TaxSubtotal');
  doc.tax_details = subtotals.map((s): TaxDetail => ({
    amount: dec(s, 'cbc:TaxAmount'),
    rate: dec(s, 'cac:TaxCategory/cbc:Percent'),
    tax_code: taxCodeOf(text(s, 'cac:TaxCategory/cbc:ID')),
    taxable_amount: dec(s, 'cbc:TaxableAmount'),
  }));
  doc.total_tax = dec(taxTotal, 'cbc:TaxAmount');

  const lines = all(root, creditNote ? 'cac:CreditNoteLine' : 'cac:InvoiceLine');
  doc.items = lines.map((l) => readLine(l, creditNote ? 'cbc:CreditedQuantity' : 'cbc:InvoicedQuantity'));
  const { taxCode, reasonEntry } = documentVatCategory(doc.items, subtotals, (s) =>
    taxCodeOf(text(s, 'cac:TaxCategory/cbc:ID')),
  );
  doc.tax_code = taxCode;
  doc.vatex = text(reasonEntry, 'cac:TaxCategory/cbc:TaxExemptionReasonCode') as VatexCode | null;
  doc.vatex_note = text(reasonEntry, 'cac:TaxCategory/cbc:TaxExemptionReason');

  const totals = one(root, 'cac:LegalMonetaryTotal');
  doc.subtotal = dec(totals, 'cbc:TaxExclusiveAmount');
  doc.invoice_total = dec(totals, 'cbc:TaxInclusiveAmount');
  doc.amount_due = dec(totals, 'cbc:PayableAmount');
  doc.total_discount = new Dec(0);
  return doc;
};
