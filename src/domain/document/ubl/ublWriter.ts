import type { Decimal } from 'decimal.js';
import { parseAddress } from '../invoice/addressParser.js';
import type { PostalAddress } from '../invoice/addressParser.js';
import type { TaxCode } from '../invoice/codeLists.js';
import { isCreditNote } from '../invoice/documentModel.js';
import type { AllowanceCharge, Attachment, Document, LineItem, PaymentDetail } from '../invoice/documentModel.js';
import { completeDocument } from '../invoice/documentTotals.js';
import type { DocumentTotals, LineTotals, VatBreakdownEntry } from '../invoice/documentTotals.js';
import { Dec, money, plain, rateText } from '../invoice/money.js';
import { endpointIdFor, isIcdScheme, partyPeppolId } from '../invoice/peppolId.js';
import type { PeppolId } from '../invoice/peppolId.js';
import { buyerIdentificationOf, legalIdOf, vatIdentifierOf } from '../invoice/partyIdentifiers.js';
import { hasIbanShape } from './syntaxValues.js';
import { NS, ublKindOf } from './ublNames.js';
import { serialize, xmlBuilder, xmlDocument, type Child } from '../../xml/xmlWriter.js';
import type { XNode } from '../../xml/xmlTree.js';
import type { UblTree } from '../../validation/ublTree.js';
import { compactId, vatCountry } from '../invoice/vatNumber.js';

const { agg, leaf } = xmlBuilder({ cac: NS.cac, cbc: NS.cbc });

/*
 * Document -> UBL 2.1 (Peppol BIS Billing 3.0). Each function below emits one UBL aggregate with its
 * children in the order of the UBL 2.1 schema sequence; the order is the schema's, not ours to choose.
 */

interface Ctx {
  doc: Document;
  totals: DocumentTotals;
  currency: string;
  creditNote: boolean;
  /** Category O forbids VAT identifiers on both parties (BR-O-02..04). */
  outsideScope: boolean;
}

const amt = (name: string, value: Decimal, ctx: Ctx): XNode | null =>
  leaf(name, money(value), { currencyID: ctx.currency });

const VAT_SCHEME = (): XNode | null => agg('cac:TaxScheme', leaf('cbc:ID', 'VAT'));

const addressNode = (name: string, a: PostalAddress, fallbackCountry: string | null): XNode | null =>
  agg(
    name,
    leaf('cbc:StreetName', a.street),
    leaf('cbc:AdditionalStreetName', a.additional_street),
    leaf('cbc:CityName', a.city),
    leaf('cbc:PostalZone', a.postal_code),
    agg('cac:Country', leaf('cbc:IdentificationCode', a.country_code ?? fallbackCountry)),
  );

interface PartyData {
  name: string | null;
  email: string | null;
  recipient: string | null;
  taxId: string | null;
  companyId: string | null;
  peppolId: PeppolId | null;
  address: string | null;
  /** Buyer identifier (BT-46) in the caller's system. */
  partyIdentification: { id: string; scheme: string | null } | null;
}

const partyNode = (p: PartyData, ctx: Ctx): XNode | null => {
  const endpoint = p.peppolId ? endpointIdFor(p.peppolId) : null;
  const address = parseAddress(p.address);
  const vat = ctx.outsideScope ? null : vatIdentifierOf(p.taxId);
  const legal = legalIdOf(p.companyId, p.taxId);
  return agg(
    'cac:Party',
    endpoint && leaf('cbc:EndpointID', endpoint.identifier, { schemeID: endpoint.scheme }),
    p.partyIdentification &&
      agg(
        'cac:PartyIdentification',
        leaf('cbc:ID', p.partyIdentification.id, { schemeID: p.partyIdentification.scheme }),
      ),
    agg('cac:PartyName', leaf('cbc:Name', p.name)),
    // BR-08/BR-10: the postal address is mandatory, with a country (from the VAT prefix when the text has none).
    addressNode('cac:PostalAddress', address, (vat ? vatCountry(vat) : null) ?? (p.taxId ? vatCountry(p.taxId) : null)),
    vat ? agg('cac:PartyTaxScheme', leaf('cbc:CompanyID', vat), VAT_SCHEME()) : null,
    agg(
      'cac:PartyLegalEntity',
      leaf('cbc:RegistrationName', p.name),
      legal && leaf('cbc:CompanyID', legal.id, { schemeID: legal.scheme }),
    ),
    agg('cac:Contact', leaf('cbc:Name', p.recipient), leaf('cbc:ElectronicMail', p.email)),
  );
};

const sellerParty = (ctx: Ctx): XNode | null => {
  const d = ctx.doc;
  const peppolId = partyPeppolId(d.vendor_peppol_id, d.vendor_tax_id, d.vendor_company_id);
  const endpoint = peppolId ? endpointIdFor(peppolId) : null;
  return agg(
    'cac:AccountingSupplierParty',
    partyNode(
      {
        name: d.vendor_name,
        email: d.vendor_email,
        recipient: d.vendor_address_recipient,
        taxId: d.vendor_tax_id,
        companyId: d.vendor_company_id,
        peppolId,
        address: d.vendor_address,
        // Peppol practice: the seller is also identified by its participant id when that is an ICD scheme.
        partyIdentification:
          endpoint && isIcdScheme(endpoint.scheme) ? { id: endpoint.identifier, scheme: endpoint.scheme } : null,
      },
      ctx,
    ),
  );
};

const buyerParty = (ctx: Ctx): XNode | null => {
  const d = ctx.doc;
  const peppolId = partyPeppolId(d.customer_peppol_id, d.customer_tax_id, d.customer_company_id);
  return agg(
    'cac:AccountingCustomerParty',
    partyNode(
      {
        name: d.customer_name,
        email: d.customer_email,
        recipient: d.customer_address_recipient ?? d.billing_address_recipient,
        taxId: d.customer_tax_id,
        companyId: d.customer_company_id,
        peppolId,
        // UBL has one buyer address; the billing address stands in when the customer address is missing.
        address: d.customer_address ?? d.billing_address,
        partyIdentification: buyerIdentificationOf(d.customer_id),
      },
      ctx,
    ),
  );
};

const delivery = (ctx: Ctx): XNode | null => {
  const d = ctx.doc;
  const text = d.shipping_address ?? d.service_address;
  if (!text) return null;
  const recipient = d.shipping_address ? d.shipping_address_recipient : d.service_address_recipient;
  const buyerCountry =
    parseAddress(d.customer_address ?? d.billing_address).country_code ??
    (d.customer_tax_id ? vatCountry(d.customer_tax_id) : null);
  return agg(
    'cac:Delivery',
    agg('cac:DeliveryLocation', addressNode('cac:Address', parseAddress(text), buyerCountry)),
    agg('cac:DeliveryParty', agg('cac:PartyName', leaf('cbc:Name', recipient))),
  );
};

const SEPA_COUNTRIES = new Set(
  'AT BE BG CH CY CZ DE DK EE ES FI FR GB GI GR HR HU IE IS IT LI LT LU LV MC MT NL NO PL PT RO SE SI SK SM VA AD'.split(
    ' ',
  ),
);

/** 58 (SEPA credit transfer) when every account is a SEPA IBAN and the currency is EUR, else 30 (credit transfer). */
export const paymentMeansCodeOf = (details: PaymentDetail[], currency: string): string => {
  // One code for all means (UBL-SR-47); a code the document already carries wins.
  const given = details.find((p) => p.payment_means_code)?.payment_means_code;
  if (given) return given;
  const sepa = (p: PaymentDetail) =>
    !!p.iban && hasIbanShape(compactId(p.iban)) && SEPA_COUNTRIES.has(compactId(p.iban).slice(0, 2));
  if (details.length > 0 && currency === 'EUR' && details.every(sepa)) return '58';
  // 30/58 require an account (BR-61); a reference without an account is an undefined instrument (1).
  if (details.every((p) => p.iban || p.bank_account_number)) return '30';
  return '1';
};

const paymentMeans = (ctx: Ctx): Child[] => {
  const d = ctx.doc;
  const code = paymentMeansCodeOf(d.payment_details, ctx.currency);
  // A CreditNote has no cbc:DueDate in UBL 2.1; its due date (BT-9) is PaymentMeans/PaymentDueDate.
  const dueDate = ctx.creditNote ? d.due_date : null;
  if (d.payment_details.length === 0) {
    return dueDate
      ? [agg('cac:PaymentMeans', leaf('cbc:PaymentMeansCode', '1'), leaf('cbc:PaymentDueDate', dueDate))]
      : [];
  }
  const directDebit = code === '49' || code === '59';
  return d.payment_details.map((p, i) =>
    agg(
      'cac:PaymentMeans',
      leaf('cbc:PaymentMeansCode', code),
      i === 0 && leaf('cbc:PaymentDueDate', dueDate),
      leaf('cbc:PaymentID', p.payment_reference),
      // Direct debit: the mandate and the payer's account instead of an account to pay into (R061).
      directDebit &&
        agg(
          'cac:PaymentMandate',
          leaf('cbc:ID', p.mandate_reference),
          agg('cac:PayerFinancialAccount', leaf('cbc:ID', p.iban ? compactId(p.iban) : p.bank_account_number)),
        ),
      !directDebit &&
        agg(
          'cac:PayeeFinancialAccount',
          leaf('cbc:ID', p.iban ? compactId(p.iban) : p.bank_account_number),
          agg('cac:FinancialInstitutionBranch', leaf('cbc:ID', p.swift ? compactId(p.swift) : null)),
        ),
    ),
  );
};

const taxCategory = (name: string, code: TaxCode, rate: Decimal | null, extra: Child[] = []): XNode | null =>
  agg(
    name,
    leaf('cbc:ID', code),
    code !== 'O' && rate !== null ? leaf('cbc:Percent', rateText(rate)) : null,
    extra,
    VAT_SCHEME(),
  );

const allowanceChargeNode = (
  a: AllowanceCharge,
  charge: boolean,
  amount: Decimal,
  ctx: Ctx,
  category: { code: TaxCode; rate: Decimal | null } | null,
): XNode | null => {
  // R041/R042: factor and base amount go together or not at all.
  const withBase = a.base_amount !== null && a.multiplier_factor !== null;
  return agg(
    'cac:AllowanceCharge',
    leaf('cbc:ChargeIndicator', charge ? 'true' : 'false'),
    leaf('cbc:AllowanceChargeReasonCode', a.reason_code),
    leaf('cbc:AllowanceChargeReason', a.reason),
    withBase && leaf('cbc:MultiplierFactorNumeric', plain(a.multiplier_factor!)),
    amt('cbc:Amount', amount, ctx),
    withBase && amt('cbc:BaseAmount', a.base_amount!, ctx),
    category && taxCategory('cac:TaxCategory', category.code, category.rate),
  );
};

const subtotalNode = (b: VatBreakdownEntry, ctx: Ctx): XNode | null =>
  agg(
    'cac:TaxSubtotal',
    amt('cbc:TaxableAmount', b.taxable_amount, ctx),
    amt('cbc:TaxAmount', b.tax_amount, ctx),
    taxCategory('cac:TaxCategory', b.tax_code, b.rate, [
      leaf('cbc:TaxExemptionReasonCode', b.exemption_reason_code),
      leaf('cbc:TaxExemptionReason', b.exemption_reason),
    ]),
  );

const monetaryTotal = (ctx: Ctx): XNode | null => {
  const t = ctx.totals;
  return agg(
    'cac:LegalMonetaryTotal',
    amt('cbc:LineExtensionAmount', t.line_total, ctx),
    amt('cbc:TaxExclusiveAmount', t.tax_exclusive, ctx),
    amt('cbc:TaxInclusiveAmount', t.tax_inclusive, ctx),
    ctx.doc.allowances.length > 0 && amt('cbc:AllowanceTotalAmount', t.allowance_total, ctx),
    ctx.doc.charges.length > 0 && amt('cbc:ChargeTotalAmount', t.charge_total, ctx),
    !t.prepaid.isZero() && amt('cbc:PrepaidAmount', t.prepaid, ctx),
    !t.rounding.isZero() && amt('cbc:PayableRoundingAmount', t.rounding, ctx),
    amt('cbc:PayableAmount', t.payable, ctx),
  );
};

/** Net unit price: the given one, else what the line amount implies. */
const priceOf = (line: LineItem, lt: LineTotals): Decimal => {
  if (line.unit_price !== null) return line.unit_price;
  const qty = line.quantity ?? new Dec(1);
  return qty.isZero() ? lt.net : lt.net.div(qty).toDecimalPlaces(6);
};

const lineNode = (line: LineItem, i: number, ctx: Ctx): XNode | null => {
  const lt = ctx.totals.lines[i]!;
  const root = ctx.creditNote ? 'cac:CreditNoteLine' : 'cac:InvoiceLine';
  const qtyName = ctx.creditNote ? 'cbc:CreditedQuantity' : 'cbc:InvoicedQuantity';
  return agg(
    root,
    leaf('cbc:ID', String(i + 1)),
    leaf(qtyName, plain(line.quantity ?? new Dec(1)), { unitCode: line.unit ?? 'C62' }),
    amt('cbc:LineExtensionAmount', lt.net, ctx),
    line.allowances.map((a, j) => allowanceChargeNode(a, false, lt.allowances[j]!, ctx, null)),
    line.charges.map((c, j) => allowanceChargeNode(c, true, lt.charges[j]!, ctx, null)),
    agg(
      'cac:Item',
      // BR-25: the item name is the seller's description of what was supplied; none is made up for them.
      leaf('cbc:Name', line.description && line.description.trim() !== '' ? line.description : null),
      agg('cac:SellersItemIdentification', leaf('cbc:ID', line.product_code)),
      taxCategory('cac:ClassifiedTaxCategory', lt.tax_code, lt.rate),
    ),
    agg('cac:Price', leaf('cbc:PriceAmount', plain(priceOf(line, lt)), { currencyID: ctx.currency })),
  );
};

const attachmentNode = (a: Attachment, i: number): XNode | null =>
  agg(
    'cac:AdditionalDocumentReference',
    leaf('cbc:ID', a.id ?? a.file_name ?? `attachment-${i + 1}`),
    agg(
      'cac:Attachment',
      a.file_data
        ? leaf('cbc:EmbeddedDocumentBinaryObject', a.file_data, {
            mimeCode: a.file_type ?? 'application/pdf',
            filename: a.file_name,
          })
        : null,
      !a.file_data && a.file_url ? agg('cac:ExternalReference', leaf('cbc:URI', a.file_url)) : null,
    ),
  );

/** BT-10 is required by Peppol (R003) unless there is an order reference; fall back to what identifies the buyer's file. */
const buyerReferenceOf = (d: Document, creditNote: boolean): string | null => {
  if (!creditNote && d.purchase_order) return d.purchase_order;
  return d.customer_id ?? d.purchase_order ?? d.invoice_id;
};

/** The namespaces a UBL document of each kind declares. */
const namespacesOf = (kind: UblTree['kind']): Record<string, string> => ({
  '': kind === 'CreditNote' ? NS.creditNote : NS.invoice,
  cac: NS.cac,
  cbc: NS.cbc,
});

/**
 * Document -> UBL 2.1 tree in the Peppol BIS Billing 3.0 (or self-billing) profile: the tree the
 * rule engine checks (no parse of our own text) and serializeUbl writes out.
 */
export const writeUblTree = (input: Document): UblTree => {
  const { document: doc, totals } = completeDocument(input, 'rules');
  const kind = ublKindOf(doc.document_type);
  const creditNote = isCreditNote(doc.document_type);
  const usesO =
    totals.lines.some((l) => l.tax_code === 'O') ||
    [...totals.allowances, ...totals.charges].some((a) => a.tax_code === 'O');
  const ctx: Ctx = { doc, totals, currency: doc.currency, creditNote, outsideScope: usesO };

  const children: Child[] = [
    leaf('cbc:CustomizationID', kind.customizationId),
    leaf('cbc:ProfileID', kind.profileId),
    leaf('cbc:ID', doc.invoice_id),
    leaf('cbc:IssueDate', doc.invoice_date),
    !creditNote && leaf('cbc:DueDate', doc.due_date),
    leaf(creditNote ? 'cbc:CreditNoteTypeCode' : 'cbc:InvoiceTypeCode', kind.typeCode),
    leaf('cbc:Note', doc.note),
    leaf('cbc:DocumentCurrencyCode', doc.currency),
    leaf('cbc:BuyerReference', buyerReferenceOf(doc, creditNote)),
    agg('cac:InvoicePeriod', leaf('cbc:StartDate', doc.service_start_date), leaf('cbc:EndDate', doc.service_end_date)),
    !creditNote && agg('cac:OrderReference', leaf('cbc:ID', doc.purchase_order)),
    creditNote && agg('cac:BillingReference', agg('cac:InvoiceDocumentReference', leaf('cbc:ID', doc.purchase_order))),
    doc.attachments.map(attachmentNode),
    sellerParty(ctx),
    buyerParty(ctx),
    delivery(ctx),
    paymentMeans(ctx),
    agg('cac:PaymentTerms', leaf('cbc:Note', doc.payment_term)),
    doc.allowances.map((a, i) => {
      const t = totals.allowances[i]!;
      return allowanceChargeNode(a, false, t.amount, ctx, { code: t.tax_code, rate: t.rate });
    }),
    doc.charges.map((c, i) => {
      const t = totals.charges[i]!;
      return allowanceChargeNode(c, true, t.amount, ctx, { code: t.tax_code, rate: t.rate });
    }),
    agg(
      'cac:TaxTotal',
      amt('cbc:TaxAmount', totals.tax_total, ctx),
      totals.breakdown.map((b) => subtotalNode(b, ctx)),
    ),
    monetaryTotal(ctx),
    doc.items.map((l, i) => lineNode(l, i, ctx)),
  ];
  return { root: xmlDocument(kind.root, namespacesOf(kind.root), children), kind: kind.root };
};

/** A UBL tree (writeUblTree's) as the text we store and send. */
export const serializeUbl = (tree: UblTree): string => serialize(tree.root, namespacesOf(tree.kind));

/**
 * Document -> UBL 2.1 XML string in the Peppol BIS Billing 3.0 (or self-billing) profile. The
 * document is expected to be validated already.
 */
export const writeUbl = (input: Document): string => serializeUbl(writeUblTree(input));
