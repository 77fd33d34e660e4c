/**
 * Builds the PDFs of test/fixtures/pdf/ that our renderer did not make, so that reading is tested
 * on other producers' files. The results are committed: CI needs none of these tools.
 *
 *   npm run build && node dist/scripts/make-pdf-fixtures.js [out-dir]
 *
 * Needs (Debian): libreoffice-writer-nogui (HTML and text invoices → PDF), qpdf (encryption),
 * poppler-utils (pdftoppm, for the scanned-looking PDF). pdf-lib builds the Factur-X / ZUGFeRD
 * style PDFs (a visible page plus the CII XML as an associated file) and the PDF with a foreign UBL.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Decimal } from 'decimal.js';
import { AFRelationship, PDFDocument, PDFName, StandardFonts, rgb } from 'pdf-lib';

const OUT = path.resolve(process.argv[2] ?? 'test/fixtures/pdf');
// Fixed dates in the PDFs' metadata so that regenerating gives comparable files.
const STAMP = new Date('2025-04-01T10:00:00Z');

// ------------------------------------------------------------------------------------------------
// Invoice data and its totals (decimal.js, as the service computes them).

interface Party {
  name: string;
  street: string;
  postcode: string;
  city: string;
  country: string;
  vat?: string;
  legal?: { id: string; scheme?: string };
  email?: string;
  contact?: string;
  endpoint?: { id: string; scheme: string };
}

interface Line {
  name: string;
  qty: string;
  unit: string;
  price: string;
  rate: string;
  category?: string;
  code?: string;
}

interface InvoiceData {
  id: string;
  typeCode: '380' | '381' | '383';
  date: string;
  due?: string;
  currency: string;
  seller: Party;
  buyer: Party;
  lines: Line[];
  allowances?: Array<{ reason: string; amount: string; rate: string; category?: string }>;
  note?: string;
  buyerReference?: string;
  order?: string;
  precedingInvoice?: string;
  iban?: string;
  bic?: string;
  paymentReference?: string;
  terms?: string;
  exemption?: { code: string; reason: string };
  profile: 'minimum' | 'basic' | 'en16931';
}

const d = (x: string | number) => new Decimal(x);
const r2 = (x: Decimal) => x.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
const m = (x: Decimal) => r2(x).toFixed(2);

function totalsOf(inv: InvoiceData) {
  const nets = inv.lines.map((l) => r2(d(l.qty).times(l.price)));
  const groups = new Map<string, { category: string; rate: string; basis: Decimal }>();
  const group = (category: string, rate: string) => {
    const key = `${category}|${rate}`;
    if (!groups.has(key)) groups.set(key, { category, rate, basis: d(0) });
    return groups.get(key)!;
  };
  inv.lines.forEach((l, i) => {
    const g = group(l.category ?? 'S', l.rate);
    g.basis = g.basis.plus(nets[i]!);
  });
  for (const a of inv.allowances ?? []) {
    const g = group(a.category ?? 'S', a.rate);
    g.basis = g.basis.minus(a.amount);
  }
  const vat = [...groups.values()].map((g) => ({ ...g, tax: r2(g.basis.times(g.rate).div(100)) }));
  const lineTotal = nets.reduce((s, x) => s.plus(x), d(0));
  const allowanceTotal = (inv.allowances ?? []).reduce((s, a) => s.plus(a.amount), d(0));
  const basis = lineTotal.minus(allowanceTotal);
  const taxTotal = vat.reduce((s, v) => s.plus(v.tax), d(0));
  return { nets, vat, lineTotal, allowanceTotal, basis, taxTotal, grand: basis.plus(taxTotal) };
}

// ------------------------------------------------------------------------------------------------
// CII (Factur-X 1.0 / ZUGFeRD 2.x), elements in the order of the CII D16B schema.

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const date102 = (iso: string) => `<udt:DateTimeString format="102">${iso.replace(/-/g, '')}</udt:DateTimeString>`;
const PROFILE_IDS = {
  minimum: 'urn:factur-x.eu:1p0:minimum',
  basic: 'urn:cen.eu:en16931:2017#compliant#urn:factur-x.eu:1p0:basic',
  en16931: 'urn:cen.eu:en16931:2017',
};

function ciiParty(tag: string, p: Party, full: boolean): string {
  const address = full
    ? `<ram:PostalTradeAddress><ram:PostcodeCode>${esc(p.postcode)}</ram:PostcodeCode><ram:LineOne>${esc(p.street)}</ram:LineOne><ram:CityName>${esc(p.city)}</ram:CityName><ram:CountryID>${p.country}</ram:CountryID></ram:PostalTradeAddress>`
    : `<ram:PostalTradeAddress><ram:CountryID>${p.country}</ram:CountryID></ram:PostalTradeAddress>`;
  return [
    `<ram:${tag}>`,
    `<ram:Name>${esc(p.name)}</ram:Name>`,
    p.legal
      ? `<ram:SpecifiedLegalOrganization><ram:ID${p.legal.scheme ? ` schemeID="${p.legal.scheme}"` : ''}>${esc(p.legal.id)}</ram:ID></ram:SpecifiedLegalOrganization>`
      : '',
    full && (p.contact || p.email)
      ? `<ram:DefinedTradeContact>${p.contact ? `<ram:PersonName>${esc(p.contact)}</ram:PersonName>` : ''}${p.email ? `<ram:EmailURIUniversalCommunication><ram:URIID>${esc(p.email)}</ram:URIID></ram:EmailURIUniversalCommunication>` : ''}</ram:DefinedTradeContact>`
      : '',
    address,
    full && p.endpoint
      ? `<ram:URIUniversalCommunication><ram:URIID schemeID="${p.endpoint.scheme}">${esc(p.endpoint.id)}</ram:URIID></ram:URIUniversalCommunication>`
      : '',
    p.vat
      ? `<ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">${esc(p.vat)}</ram:ID></ram:SpecifiedTaxRegistration>`
      : '',
    `</ram:${tag}>`,
  ].join('');
}

function cii(inv: InvoiceData): string {
  const t = totalsOf(inv);
  const full = inv.profile !== 'minimum';
  const lines =
    inv.profile === 'minimum'
      ? []
      : inv.lines.map((l, i) =>
          [
            '<ram:IncludedSupplyChainTradeLineItem>',
            `<ram:AssociatedDocumentLineDocument><ram:LineID>${i + 1}</ram:LineID></ram:AssociatedDocumentLineDocument>`,
            `<ram:SpecifiedTradeProduct>${l.code ? `<ram:SellerAssignedID>${esc(l.code)}</ram:SellerAssignedID>` : ''}<ram:Name>${esc(l.name)}</ram:Name></ram:SpecifiedTradeProduct>`,
            `<ram:SpecifiedLineTradeAgreement><ram:NetPriceProductTradePrice><ram:ChargeAmount>${l.price}</ram:ChargeAmount></ram:NetPriceProductTradePrice></ram:SpecifiedLineTradeAgreement>`,
            `<ram:SpecifiedLineTradeDelivery><ram:BilledQuantity unitCode="${l.unit}">${l.qty}</ram:BilledQuantity></ram:SpecifiedLineTradeDelivery>`,
            '<ram:SpecifiedLineTradeSettlement>',
            `<ram:ApplicableTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>${l.category ?? 'S'}</ram:CategoryCode><ram:RateApplicablePercent>${l.rate}</ram:RateApplicablePercent></ram:ApplicableTradeTax>`,
            `<ram:SpecifiedTradeSettlementLineMonetarySummation><ram:LineTotalAmount>${m(t.nets[i]!)}</ram:LineTotalAmount></ram:SpecifiedTradeSettlementLineMonetarySummation>`,
            '</ram:SpecifiedLineTradeSettlement>',
            '</ram:IncludedSupplyChainTradeLineItem>',
          ].join(''),
        );
  const taxes =
    inv.profile === 'minimum'
      ? []
      : t.vat.map((v) =>
          [
            '<ram:ApplicableTradeTax>',
            `<ram:CalculatedAmount>${m(v.tax)}</ram:CalculatedAmount><ram:TypeCode>VAT</ram:TypeCode>`,
            inv.exemption && v.category !== 'S'
              ? `<ram:ExemptionReason>${esc(inv.exemption.reason)}</ram:ExemptionReason>`
              : '',
            `<ram:BasisAmount>${m(v.basis)}</ram:BasisAmount><ram:CategoryCode>${v.category}</ram:CategoryCode>`,
            inv.exemption && v.category !== 'S'
              ? `<ram:ExemptionReasonCode>${inv.exemption.code}</ram:ExemptionReasonCode>`
              : '',
            `<ram:RateApplicablePercent>${v.rate}</ram:RateApplicablePercent>`,
            '</ram:ApplicableTradeTax>',
          ].join(''),
        );
  const allowances =
    inv.profile === 'minimum'
      ? []
      : (inv.allowances ?? []).map(
          (a) =>
            `<ram:SpecifiedTradeAllowanceCharge><ram:ChargeIndicator><udt:Indicator>false</udt:Indicator></ram:ChargeIndicator><ram:ActualAmount>${a.amount}</ram:ActualAmount><ram:Reason>${esc(a.reason)}</ram:Reason><ram:CategoryTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>${a.category ?? 'S'}</ram:CategoryCode><ram:RateApplicablePercent>${a.rate}</ram:RateApplicablePercent></ram:CategoryTradeTax></ram:SpecifiedTradeAllowanceCharge>`,
        );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:qdt="urn:un:unece:uncefact:data:standard:QualifiedDataType:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100">',
    `<rsm:ExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>${PROFILE_IDS[inv.profile]}</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext>`,
    `<rsm:ExchangedDocument><ram:ID>${esc(inv.id)}</ram:ID><ram:TypeCode>${inv.typeCode}</ram:TypeCode><ram:IssueDateTime>${date102(inv.date)}</ram:IssueDateTime>${inv.note && full ? `<ram:IncludedNote><ram:Content>${esc(inv.note)}</ram:Content></ram:IncludedNote>` : ''}</rsm:ExchangedDocument>`,
    '<rsm:SupplyChainTradeTransaction>',
    ...lines,
    '<ram:ApplicableHeaderTradeAgreement>',
    inv.buyerReference ? `<ram:BuyerReference>${esc(inv.buyerReference)}</ram:BuyerReference>` : '',
    ciiParty('SellerTradeParty', inv.seller, full),
    ciiParty('BuyerTradeParty', inv.buyer, full),
    inv.order
      ? `<ram:BuyerOrderReferencedDocument><ram:IssuerAssignedID>${esc(inv.order)}</ram:IssuerAssignedID></ram:BuyerOrderReferencedDocument>`
      : '',
    '</ram:ApplicableHeaderTradeAgreement>',
    '<ram:ApplicableHeaderTradeDelivery/>',
    '<ram:ApplicableHeaderTradeSettlement>',
    inv.paymentReference && full ? `<ram:PaymentReference>${esc(inv.paymentReference)}</ram:PaymentReference>` : '',
    `<ram:InvoiceCurrencyCode>${inv.currency}</ram:InvoiceCurrencyCode>`,
    inv.iban && full
      ? `<ram:SpecifiedTradeSettlementPaymentMeans><ram:TypeCode>58</ram:TypeCode><ram:PayeePartyCreditorFinancialAccount><ram:IBANID>${inv.iban}</ram:IBANID></ram:PayeePartyCreditorFinancialAccount>${inv.bic ? `<ram:PayeeSpecifiedCreditorFinancialInstitution><ram:BICID>${inv.bic}</ram:BICID></ram:PayeeSpecifiedCreditorFinancialInstitution>` : ''}</ram:SpecifiedTradeSettlementPaymentMeans>`
      : '',
    ...taxes,
    ...allowances,
    (inv.terms || inv.due) && full
      ? `<ram:SpecifiedTradePaymentTerms>${inv.terms ? `<ram:Description>${esc(inv.terms)}</ram:Description>` : ''}${inv.due ? `<ram:DueDateDateTime>${date102(inv.due)}</ram:DueDateDateTime>` : ''}</ram:SpecifiedTradePaymentTerms>`
      : '',
    '<ram:SpecifiedTradeSettlementHeaderMonetarySummation>',
    full ? `<ram:LineTotalAmount>${m(t.lineTotal)}</ram:LineTotalAmount>` : '',
    full && inv.allowances ? `<ram:AllowanceTotalAmount>${m(t.allowanceTotal)}</ram:AllowanceTotalAmount>` : '',
    `<ram:TaxBasisTotalAmount>${m(t.basis)}</ram:TaxBasisTotalAmount>`,
    `<ram:TaxTotalAmount currencyID="${inv.currency}">${m(t.taxTotal)}</ram:TaxTotalAmount>`,
    `<ram:GrandTotalAmount>${m(t.grand)}</ram:GrandTotalAmount>`,
    `<ram:DuePayableAmount>${m(t.grand)}</ram:DuePayableAmount>`,
    '</ram:SpecifiedTradeSettlementHeaderMonetarySummation>',
    inv.precedingInvoice
      ? `<ram:InvoiceReferencedDocument><ram:IssuerAssignedID>${esc(inv.precedingInvoice)}</ram:IssuerAssignedID></ram:InvoiceReferencedDocument>`
      : '',
    '</ram:ApplicableHeaderTradeSettlement>',
    '</rsm:SupplyChainTradeTransaction>',
    '</rsm:CrossIndustryInvoice>',
  ].join('\n');
}

// ------------------------------------------------------------------------------------------------
// A plain visible page drawn with pdf-lib (Helvetica), for the PDFs that carry XML.

async function visiblePdf(title: string, lines: string[]): Promise<PDFDocument> {
  const pdf = await PDFDocument.create({ updateMetadata: false });
  pdf.setCreationDate(STAMP);
  pdf.setModificationDate(STAMP);
  pdf.setProducer('make-pdf-fixtures (pdf-lib)');
  pdf.setTitle(title);
  const page = pdf.addPage([595.28, 841.89]);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  page.drawText(title, { x: 50, y: 780, size: 18, font: bold, color: rgb(0.1, 0.2, 0.4) });
  lines.forEach((line, i) => page.drawText(line, { x: 50, y: 750 - i * 14, size: 10, font: regular }));
  return pdf;
}

/** Factur-X style: the XML as an associated file (AF, relationship Alternative) plus XMP naming it. */
async function withXml(pdf: PDFDocument, fileName: string, xml: string, profile: string): Promise<Uint8Array> {
  await pdf.attach(Buffer.from(xml, 'utf8'), fileName, {
    mimeType: 'text/xml',
    description: 'Factur-X/ZUGFeRD invoice',
    creationDate: STAMP,
    modificationDate: STAMP,
    afRelationship: AFRelationship.Alternative,
  });
  const xmp = `<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/"><pdfaid:part>3</pdfaid:part><pdfaid:conformance>B</pdfaid:conformance></rdf:Description>
<rdf:Description rdf:about="" xmlns:fx="urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#"><fx:DocumentType>INVOICE</fx:DocumentType><fx:DocumentFileName>${fileName}</fx:DocumentFileName><fx:Version>1.0</fx:Version><fx:ConformanceLevel>${profile}</fx:ConformanceLevel></rdf:Description>
</rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;
  const stream = pdf.context.stream(xmp, { Type: 'Metadata', Subtype: 'XML' });
  pdf.catalog.set(PDFName.of('Metadata'), pdf.context.register(stream));
  return pdf.save({ useObjectStreams: false });
}

const summary = (inv: InvoiceData): string[] => {
  const t = totalsOf(inv);
  return [
    `${inv.seller.name}, ${inv.seller.street}, ${inv.seller.postcode} ${inv.seller.city}  VAT ${inv.seller.vat ?? ''}`,
    `To: ${inv.buyer.name}, ${inv.buyer.street}, ${inv.buyer.postcode} ${inv.buyer.city}`,
    `No. ${inv.id}   Date ${inv.date}`,
    '',
    ...(inv.profile === 'minimum'
      ? []
      : inv.lines.map((l, i) => `${l.name}   ${l.qty} x ${l.price}   ${l.rate}%   ${m(t.nets[i]!)}`)),
    '',
    `Net ${m(t.basis)}   VAT ${m(t.taxTotal)}   Total ${m(t.grand)} ${inv.currency}`,
    inv.iban ? `IBAN ${inv.iban}` : '',
  ];
};

// ------------------------------------------------------------------------------------------------
// The Factur-X / ZUGFeRD set.

const bergmann: Party = {
  name: 'Bergmann Werkzeuge GmbH',
  street: 'Industriestraße 12',
  postcode: '70565',
  city: 'Stuttgart',
  country: 'DE',
  vat: 'DE136695976',
  email: 'rechnung@bergmann-werkzeuge.de',
  contact: 'Petra Lange',
  legal: { id: 'HRB 725841' },
};
const acme: Party = {
  name: 'Acme Solutions BV',
  street: 'Rue de la Loi 16',
  postcode: '1000',
  city: 'Brussels',
  country: 'BE',
  vat: 'BE0403013026',
  legal: { id: '0403013026', scheme: '0208' },
  endpoint: { id: '0403013026', scheme: '0208' },
};
const dubois: Party = {
  name: 'Atelier Dubois SARL',
  street: '8 rue des Tanneurs',
  postcode: '67000',
  city: 'Strasbourg',
  country: 'FR',
  vat: 'FR44732829320',
  legal: { id: '73282932000017', scheme: '0009' },
  email: 'compta@atelier-dubois.fr',
};
const librairie: Party = {
  name: 'Librairie du Parc SRL',
  street: 'Place Saint-Lambert 5',
  postcode: '4000',
  city: 'Liège',
  country: 'BE',
  vat: 'BE0712345630',
};
const vanDijk: Party = {
  name: 'Van Dijk Installatietechniek B.V.',
  street: 'Stationsweg 21',
  postcode: '3811 MK',
  city: 'Amersfoort',
  country: 'NL',
  vat: 'NL004495445B01',
  legal: { id: '32145678', scheme: '0106' },
  email: 'facturen@vandijk-installatie.nl',
};
const vandenberghe: Party = {
  name: 'Bouwbedrijf Vandenberghe BV',
  street: 'Kortrijksesteenweg 200',
  postcode: '9000',
  city: 'Gent',
  country: 'BE',
  vat: 'BE0876543270',
};

const facturX: Array<{ file: string; xmlName: string; profile: string; inv: InvoiceData }> = [
  {
    file: 'facturx-en16931-de.pdf',
    xmlName: 'factur-x.xml',
    profile: 'EN 16931',
    inv: {
      id: 'RE-2025-00817',
      typeCode: '380',
      date: '2025-04-02',
      due: '2025-05-02',
      currency: 'EUR',
      seller: bergmann,
      buyer: acme,
      buyerReference: 'PO-5521',
      order: 'PO-5521',
      terms: '30 Tage netto',
      iban: 'DE89370400440532013000',
      bic: 'COBADEFFXXX',
      paymentReference: 'RE-2025-00817',
      lines: [
        { name: 'Drehmomentschlüssel 40-200 Nm', qty: '4', unit: 'C62', price: '189.00', rate: '19', code: 'DS-200' },
        { name: 'Bitsatz 32-teilig', qty: '10', unit: 'C62', price: '24.50', rate: '19', code: 'BS-32' },
        { name: 'Fachbuch Zerspanungstechnik', qty: '2', unit: 'C62', price: '49.90', rate: '7' },
      ],
      allowances: [{ reason: 'Treuerabatt', amount: '50.00', rate: '19' }],
      note: 'Lieferung ab Werk Stuttgart.',
      profile: 'en16931',
    },
  },
  {
    file: 'facturx-basic-credit-note-fr.pdf',
    xmlName: 'factur-x.xml',
    profile: 'BASIC',
    inv: {
      id: 'AV-2025-0042',
      typeCode: '381',
      date: '2025-04-10',
      currency: 'EUR',
      seller: dubois,
      buyer: librairie,
      precedingInvoice: 'FA-2025-0388',
      note: 'Retour de marchandise défectueuse',
      iban: 'FR1420041010050500013M02606',
      lines: [
        { name: 'Cartes postales (lot de 50)', qty: '2', unit: 'C62', price: '35.00', rate: '20' },
        { name: 'Guide de voyage Alsace', qty: '1', unit: 'C62', price: '18.50', rate: '5.5' },
      ],
      profile: 'basic',
    },
  },
  {
    file: 'zugferd-reverse-charge-nl.pdf',
    xmlName: 'zugferd-invoice.xml',
    profile: 'EN 16931',
    inv: {
      id: 'VD-2025-1187',
      typeCode: '380',
      date: '2025-03-28',
      due: '2025-04-27',
      currency: 'EUR',
      seller: vanDijk,
      buyer: vandenberghe,
      buyerReference: 'Project Gent-Noord',
      iban: 'NL91ABNA0417164300',
      bic: 'ABNANL2A',
      paymentReference: 'VD-2025-1187',
      exemption: { code: 'VATEX-EU-AE', reason: 'BTW verlegd' },
      lines: [
        { name: 'Installatie warmtepomp', qty: '1', unit: 'C62', price: '4850.00', rate: '0', category: 'AE' },
        { name: 'Arbeidsuren montage', qty: '16', unit: 'HUR', price: '65.00', rate: '0', category: 'AE' },
      ],
      profile: 'en16931',
    },
  },
  {
    file: 'facturx-minimum.pdf',
    xmlName: 'factur-x.xml',
    profile: 'MINIMUM',
    inv: {
      id: 'MIN-2025-7',
      typeCode: '380',
      date: '2025-04-05',
      currency: 'EUR',
      seller: bergmann,
      buyer: acme,
      buyerReference: 'PO-5530',
      lines: [{ name: 'Werkzeugkoffer', qty: '1', unit: 'C62', price: '200.00', rate: '21' }],
      profile: 'minimum',
    },
  },
];

// A UBL invoice written by someone else: a price per 10 units, a line allowance, an invoice period.
const foreignUbl = `<?xml version="1.0" encoding="UTF-8"?>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
  <cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0</cbc:CustomizationID>
  <cbc:ProfileID>urn:fdc:peppol.eu:2017:poacc:billing:01:1.0</cbc:ProfileID>
  <cbc:ID>LU-2025-019</cbc:ID>
  <cbc:IssueDate>2025-03-31</cbc:IssueDate>
  <cbc:DueDate>2025-04-30</cbc:DueDate>
  <cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>
  <cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>
  <cbc:BuyerReference>ACME-REQ-77</cbc:BuyerReference>
  <cac:InvoicePeriod><cbc:StartDate>2025-03-01</cbc:StartDate><cbc:EndDate>2025-03-31</cbc:EndDate></cac:InvoicePeriod>
  <cac:AccountingSupplierParty><cac:Party>
    <cbc:EndpointID schemeID="9938">LU15027442</cbc:EndpointID>
    <cac:PartyName><cbc:Name>Moselle Data Services S.à r.l.</cbc:Name></cac:PartyName>
    <cac:PostalAddress><cbc:StreetName>12 avenue de la Gare</cbc:StreetName><cbc:CityName>Luxembourg</cbc:CityName><cbc:PostalZone>1611</cbc:PostalZone><cac:Country><cbc:IdentificationCode>LU</cbc:IdentificationCode></cac:Country></cac:PostalAddress>
    <cac:PartyTaxScheme><cbc:CompanyID>LU15027442</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>
    <cac:PartyLegalEntity><cbc:RegistrationName>Moselle Data Services S.à r.l.</cbc:RegistrationName><cbc:CompanyID>B123456</cbc:CompanyID></cac:PartyLegalEntity>
    <cac:Contact><cbc:ElectronicMail>billing@moselle-data.lu</cbc:ElectronicMail></cac:Contact>
  </cac:Party></cac:AccountingSupplierParty>
  <cac:AccountingCustomerParty><cac:Party>
    <cbc:EndpointID schemeID="0208">0403013026</cbc:EndpointID>
    <cac:PartyName><cbc:Name>Acme Solutions BV</cbc:Name></cac:PartyName>
    <cac:PostalAddress><cbc:StreetName>Rue de la Loi 16</cbc:StreetName><cbc:CityName>Brussels</cbc:CityName><cbc:PostalZone>1000</cbc:PostalZone><cac:Country><cbc:IdentificationCode>BE</cbc:IdentificationCode></cac:Country></cac:PostalAddress>
    <cac:PartyTaxScheme><cbc:CompanyID>BE0403013026</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>
    <cac:PartyLegalEntity><cbc:RegistrationName>Acme Solutions BV</cbc:RegistrationName></cac:PartyLegalEntity>
  </cac:Party></cac:AccountingCustomerParty>
  <cac:PaymentMeans><cbc:PaymentMeansCode>58</cbc:PaymentMeansCode><cbc:PaymentID>LU-2025-019</cbc:PaymentID><cac:PayeeFinancialAccount><cbc:ID>LU280019400644750000</cbc:ID></cac:PayeeFinancialAccount></cac:PaymentMeans>
  <cac:PaymentTerms><cbc:Note>30 days end of month</cbc:Note></cac:PaymentTerms>
  <cac:TaxTotal>
    <cbc:TaxAmount currencyID="EUR">200.60</cbc:TaxAmount>
    <cac:TaxSubtotal><cbc:TaxableAmount currencyID="EUR">1180.00</cbc:TaxableAmount><cbc:TaxAmount currencyID="EUR">200.60</cbc:TaxAmount>
      <cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>17</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:TaxCategory></cac:TaxSubtotal>
  </cac:TaxTotal>
  <cac:LegalMonetaryTotal>
    <cbc:LineExtensionAmount currencyID="EUR">1180.00</cbc:LineExtensionAmount>
    <cbc:TaxExclusiveAmount currencyID="EUR">1180.00</cbc:TaxExclusiveAmount>
    <cbc:TaxInclusiveAmount currencyID="EUR">1380.60</cbc:TaxInclusiveAmount>
    <cbc:PayableAmount currencyID="EUR">1380.60</cbc:PayableAmount>
  </cac:LegalMonetaryTotal>
  <cac:InvoiceLine>
    <cbc:ID>1</cbc:ID><cbc:InvoicedQuantity unitCode="MON">1</cbc:InvoicedQuantity><cbc:LineExtensionAmount currencyID="EUR">900.00</cbc:LineExtensionAmount>
    <cac:AllowanceCharge><cbc:ChargeIndicator>false</cbc:ChargeIndicator><cbc:AllowanceChargeReason>Loyalty discount</cbc:AllowanceChargeReason><cbc:Amount currencyID="EUR">100.00</cbc:Amount></cac:AllowanceCharge>
    <cac:Item><cbc:Name>Managed hosting, March 2025</cbc:Name><cac:SellersItemIdentification><cbc:ID>HOST-M</cbc:ID></cac:SellersItemIdentification>
      <cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>17</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:ClassifiedTaxCategory></cac:Item>
    <cac:Price><cbc:PriceAmount currencyID="EUR">1000.00</cbc:PriceAmount></cac:Price>
  </cac:InvoiceLine>
  <cac:InvoiceLine>
    <cbc:ID>2</cbc:ID><cbc:InvoicedQuantity unitCode="C62">40</cbc:InvoicedQuantity><cbc:LineExtensionAmount currencyID="EUR">280.00</cbc:LineExtensionAmount>
    <cac:Item><cbc:Name>Backup storage (per 10 GB)</cbc:Name>
      <cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>17</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:ClassifiedTaxCategory></cac:Item>
    <cac:Price><cbc:PriceAmount currencyID="EUR">70.00</cbc:PriceAmount><cbc:BaseQuantity unitCode="C62">10</cbc:BaseQuantity></cac:Price>
  </cac:InvoiceLine>
</Invoice>
`;

// ------------------------------------------------------------------------------------------------
// LibreOffice invoices: HTML (several layouts and languages) and plain text, converted by Writer.

const page = (body: string, font = 'Liberation Sans') => `<!DOCTYPE html><html><head><meta charset="utf-8"><style>
body { font-family: '${font}'; font-size: 10pt; } h1 { font-size: 20pt; } td, th { font-size: 10pt; vertical-align: top; } th { text-align: left; }
.r { text-align: right; } .small { font-size: 8pt; color: #555555; }
</style></head><body>${body}</body></html>`;

const htmlInvoices: Array<{ file: string; html: string }> = [
  {
    // English, "From"/"Bill to" blocks side by side, dot decimals, Belgian structured reference.
    file: 'lo-en-invoice.pdf',
    html: page(`
<table width="100%" cellpadding="2"><tr><td width="60%"><h1>INVOICE</h1></td><td width="40%">Invoice No: 2025-1043<br>Invoice date: 14 March 2025<br>Due date: 13 April 2025<br>Your reference: PO-88123</td></tr></table>
<br>
<table width="100%" cellpadding="2"><tr>
<td width="50%"><b>From</b><br>Acme Solutions BV<br>Rue de la Loi 16<br>1000 Brussels<br>Belgium<br>VAT BE 0403.013.026<br>billing@acme.be</td>
<td width="50%"><b>Bill to</b><br>Brouwerij De Zwaan NV<br>Meir 1<br>2000 Antwerpen<br>Belgium<br>VAT BE0451.234.595</td>
</tr></table>
<br>
<table width="100%" cellpadding="4" cellspacing="0" border="1">
<tr><th width="5%">#</th><th width="45%">Description</th><th width="10%" class="r">Qty</th><th width="15%" class="r">Unit price</th><th width="10%" class="r">VAT</th><th width="15%" class="r">Amount</th></tr>
<tr><td>1</td><td>Strategy workshop (full day)</td><td class="r">1</td><td class="r">950.00</td><td class="r">21%</td><td class="r">950.00</td></tr>
<tr><td>2</td><td>Follow-up calls</td><td class="r">3</td><td class="r">85.00</td><td class="r">21%</td><td class="r">255.00</td></tr>
<tr><td>3</td><td>Printed workbooks</td><td class="r">6</td><td class="r">4.95</td><td class="r">21%</td><td class="r">29.70</td></tr>
</table>
<br>
<table width="100%" cellpadding="2"><tr><td width="60%"></td><td width="25%">Subtotal</td><td width="15%" class="r">1,234.70</td></tr>
<tr><td></td><td>VAT 21%</td><td class="r">259.29</td></tr>
<tr><td></td><td><b>Total</b></td><td class="r"><b>EUR 1,493.99</b></td></tr>
<tr><td></td><td><b>Amount due</b></td><td class="r"><b>EUR 1,493.99</b></td></tr></table>
<br><p>Please pay to IBAN BE68 5390 0754 7034 (BIC GEBABEBB) with the structured communication +++020/2024/68165+++.</p>
<p class="small">Acme Solutions BV · RPR Brussels · Payment terms: 30 days</p>`),
  },
  {
    // Dutch, comma decimals, "Klant" block, per-rate VAT lines with their base.
    file: 'lo-nl-factuur.pdf',
    html: page(`
<table width="100%" cellpadding="2"><tr><td width="55%"><b>Van Dijk Installatietechniek B.V.</b><br>Stationsweg 21<br>3811 MK Amersfoort<br>Nederland<br>Btw-nummer: NL004495445B01<br>KvK: 32145678</td>
<td width="45%"><h1>FACTUUR</h1>Factuurnummer: F2025/0312<br>Factuurdatum: 14-03-2025<br>Vervaldatum: 13-04-2025</td></tr></table>
<br>
<table width="100%" cellpadding="2"><tr><td width="55%"><b>Klant</b><br>Tulip Trading B.V.<br>Keizersgracht 1<br>1015 CJ Amsterdam<br>Nederland<br>Btw-nummer: NL123456782B01</td><td width="45%"></td></tr></table>
<br>
<table width="100%" cellpadding="4" cellspacing="0" border="1">
<tr><th width="40%">Omschrijving</th><th width="10%" class="r">Aantal</th><th width="10%">Eenheid</th><th width="15%" class="r">Prijs</th><th width="10%" class="r">BTW</th><th width="15%" class="r">Bedrag</th></tr>
<tr><td>Onderhoud cv-ketel</td><td class="r">2</td><td>uur</td><td class="r">75,00</td><td class="r">21%</td><td class="r">150,00</td></tr>
<tr><td>Thermostaat Zigbee</td><td class="r">1</td><td>stuk</td><td class="r">250,00</td><td class="r">21%</td><td class="r">250,00</td></tr>
<tr><td>Isolatiemateriaal (woning &gt; 2 jaar)</td><td class="r">10</td><td>m²</td><td class="r">15,00</td><td class="r">9%</td><td class="r">150,00</td></tr>
</table>
<br>
<table width="100%" cellpadding="2"><tr><td width="50%"></td><td width="35%">Subtotaal</td><td width="15%" class="r">€ 550,00</td></tr>
<tr><td></td><td>BTW 21% over € 400,00</td><td class="r">€ 84,00</td></tr>
<tr><td></td><td>BTW 9% over € 150,00</td><td class="r">€ 13,50</td></tr>
<tr><td></td><td><b>Totaal</b></td><td class="r"><b>€ 647,50</b></td></tr>
<tr><td></td><td><b>Te betalen</b></td><td class="r"><b>€ 647,50</b></td></tr></table>
<br><p>Betalingsvoorwaarden: binnen 30 dagen<br>IBAN: NL91 ABNA 0417 1643 00 · BIC: ABNANL2A<br>Kenmerk: F2025/0312</p>`),
  },
  {
    // French, month names, non-breaking-space thousands, SIRET, "Client :" block.
    file: 'lo-fr-facture.pdf',
    html: page(`
<h1>FACTURE</h1>
<table width="100%" cellpadding="2"><tr><td width="55%"><b>Atelier Dubois SARL</b><br>8 rue des Tanneurs<br>67000 Strasbourg<br>France<br>N° TVA : FR44732829320<br>SIRET : 732 829 320 00017</td>
<td width="45%">Facture n° FA-2025-0388<br>Date de facture : 14 mars 2025<br>Échéance : 13 avril 2025</td></tr></table>
<br>
<table width="100%" cellpadding="2"><tr><td width="55%"></td><td width="45%"><b>Client :</b><br>Librairie du Parc SRL<br>Place Saint-Lambert 5<br>4000 Liège<br>Belgique<br>TVA : BE0712345630</td></tr></table>
<br>
<table width="100%" cellpadding="4" cellspacing="0" border="1">
<tr><th width="45%">Désignation</th><th width="10%" class="r">Qté</th><th width="15%" class="r">Prix unitaire HT</th><th width="10%" class="r">TVA</th><th width="20%" class="r">Montant HT</th></tr>
<tr><td>Reliure d'art, cuir pleine peau</td><td class="r">3</td><td class="r">420,00</td><td class="r">20 %</td><td class="r">1&nbsp;260,00</td></tr>
<tr><td>Restauration d'ouvrage ancien</td><td class="r">1</td><td class="r">385,50</td><td class="r">20 %</td><td class="r">385,50</td></tr>
</table>
<br>
<table width="100%" cellpadding="2"><tr><td width="50%"></td><td width="30%">Total HT</td><td width="20%" class="r">1&nbsp;645,50 €</td></tr>
<tr><td></td><td>TVA 20 %</td><td class="r">329,10 €</td></tr>
<tr><td></td><td><b>Total TTC</b></td><td class="r"><b>1&nbsp;974,60 €</b></td></tr>
<tr><td></td><td><b>Net à payer</b></td><td class="r"><b>1&nbsp;974,60 €</b></td></tr></table>
<br><p>Conditions de paiement : 30 jours fin de mois<br>IBAN : FR14 2004 1010 0505 0001 3M02 606 — BIC : PSSTFRPPPAR</p>`),
  },
  {
    // German, letterhead without a heading, "Rechnungsempfänger", service period, "zzgl. MwSt.".
    file: 'lo-de-rechnung.pdf',
    html: page(`
<p><b>Bergmann Werkzeuge GmbH</b><br>Industriestraße 12<br>70565 Stuttgart<br>Deutschland<br>USt-IdNr.: DE136695976</p>
<table width="100%" cellpadding="2"><tr><td width="55%"><b>Rechnungsempfänger</b><br>Acme Solutions BV<br>Rue de la Loi 16<br>1000 Brüssel<br>Belgien<br>USt-IdNr.: BE0403013026</td>
<td width="45%"><h1>Rechnung</h1>Rechnungsnummer: 2025-4711<br>Rechnungsdatum: 14.03.2025<br>Leistungszeitraum: 01.03.2025 – 31.03.2025<br>Zahlbar bis: 13.04.2025</td></tr></table>
<br>
<table width="100%" cellpadding="4" cellspacing="0" border="1">
<tr><th width="6%">Pos.</th><th width="38%">Bezeichnung</th><th width="10%" class="r">Menge</th><th width="10%">Einheit</th><th width="14%" class="r">Einzelpreis</th><th width="8%" class="r">MwSt.</th><th width="14%" class="r">Gesamt</th></tr>
<tr><td>1</td><td>Wartung CNC-Fräse</td><td class="r">6</td><td>Std.</td><td class="r">95,00</td><td class="r">19%</td><td class="r">570,00</td></tr>
<tr><td>2</td><td>Ersatzteil Spindellager</td><td class="r">2</td><td>Stk.</td><td class="r">1.240,00</td><td class="r">19%</td><td class="r">2.480,00</td></tr>
</table>
<br>
<table width="100%" cellpadding="2"><tr><td width="50%"></td><td width="30%">Nettobetrag</td><td width="20%" class="r">3.050,00 €</td></tr>
<tr><td></td><td>zzgl. MwSt. 19 %</td><td class="r">579,50 €</td></tr>
<tr><td></td><td><b>Gesamtbetrag</b></td><td class="r"><b>3.629,50 €</b></td></tr></table>
<br><p>Bankverbindung: Commerzbank · IBAN DE89 3704 0044 0532 0130 00 · BIC COBADEFFXXX<br>Verwendungszweck: 2025-4711</p>`),
  },
  {
    // Window-envelope layout: the buyer's address block top left, the seller's letterhead top right, no headings.
    file: 'lo-en-letterhead.pdf',
    html: page(`
<table width="100%" cellpadding="2"><tr>
<td width="55%"><br><br>Tulip Trading B.V.<br>Keizersgracht 1<br>1015 CJ Amsterdam<br>Netherlands<br>VAT NL123456782B01</td>
<td width="45%"><b>Northsea Consulting BV</b><br>Meir 44<br>2000 Antwerpen<br>Belgium<br>VAT BE0451234595<br>hello@northsea.example</td></tr></table>
<h1>Invoice</h1>
<p>Invoice number: NC-118<br>Date: 2025-03-31<br>Due: 2025-04-30</p>
<table width="100%" cellpadding="4" cellspacing="0" border="1">
<tr><th width="55%">Description</th><th width="10%" class="r">Qty</th><th width="15%" class="r">Price</th><th width="20%" class="r">Amount</th></tr>
<tr><td>Market study Benelux</td><td class="r">1</td><td class="r">2,400.00</td><td class="r">2,400.00</td></tr>
</table>
<p>Subtotal 2,400.00<br>VAT 21% 504.00<br>Total EUR 2,904.00</p>
<p>IBAN BE68 5390 0754 7034</p>`),
  },
  {
    // English, 45 lines over two pages, reverse charge, no VAT column.
    file: 'lo-en-long-reverse-charge.pdf',
    html: page(`
<table width="100%" cellpadding="2"><tr><td width="55%"><b>Supplier</b><br>Bouwbedrijf Vandenberghe BV<br>Kortrijksesteenweg 200<br>9000 Gent<br>Belgium<br>VAT: BE0876543270</td>
<td width="45%"><b>Customer</b><br>Van Dijk Installatietechniek B.V.<br>Stationsweg 21<br>3811 MK Amersfoort<br>Netherlands<br>VAT: NL004495445B01</td></tr></table>
<h1>Invoice</h1>
<p>Invoice number: VDB-2025-311<br>Invoice date: 2025-03-31<br>Due date: 2025-04-30</p>
<table width="100%" cellpadding="3" cellspacing="0" border="1">
<thead><tr><th width="8%">Line</th><th width="52%">Description</th><th width="10%" class="r">Qty</th><th width="15%" class="r">Unit price</th><th width="15%" class="r">Amount</th></tr></thead>
${Array.from({ length: 45 }, (_, i) => {
  const qty = (i % 5) + 1;
  const price = d(40).plus(i * 3.5);
  return `<tr><td>${i + 1}</td><td>Renovation work package ${i + 1}</td><td class="r">${qty}</td><td class="r">${price.toFixed(2)}</td><td class="r">${price.times(qty).toFixed(2)}</td></tr>`;
}).join('\n')}
</table>
<p>Total excl. VAT: EUR ${Array.from({ length: 45 }, (_, i) =>
      d(40)
        .plus(i * 3.5)
        .times((i % 5) + 1),
    )
      .reduce((s, x) => s.plus(x), d(0))
      .toFixed(2)}<br>
VAT 0%: EUR 0.00<br>Total: EUR ${Array.from({ length: 45 }, (_, i) =>
      d(40)
        .plus(i * 3.5)
        .times((i % 5) + 1),
    )
      .reduce((s, x) => s.plus(x), d(0))
      .toFixed(2)}</p>
<p>Reverse charge: VAT to be accounted for by the recipient (article 196, Directive 2006/112/EC).</p>
<p>IBAN: BE68 5390 0754 7034</p>`),
  },
];

const textInvoice = `CREDIT NOTE

Atelier Dubois SARL                       Client:
8 rue des Tanneurs                        Librairie du Parc SRL
67000 Strasbourg                          Place Saint-Lambert 5
France                                    4000 Liège, Belgique
TVA FR44732829320                         TVA BE0712345630

Credit note number:  AV-2025-0051
Date:                2025-04-18
Original invoice:    FA-2025-0388

Description                      Qty   Unit price    VAT      Amount
Damaged binding, refund            1       120.00    20%      120.00

Total excl. VAT                                               120.00
VAT 20%                                                        24.00
Total                                                         144.00

IBAN FR14 2004 1010 0505 0001 3M02 606
`;

// ------------------------------------------------------------------------------------------------

function run(cmd: string, args: string[]): void {
  execFileSync(cmd, args, { stdio: ['ignore', 'ignore', 'inherit'] });
}

async function libreOffice(work: string, input: string, filter: string, outName: string): Promise<void> {
  run('soffice', [
    '--headless',
    `-env:UserInstallation=file://${work}/lo-profile`,
    `--infilter=${filter}`,
    '--convert-to',
    'pdf:writer_pdf_Export',
    '--outdir',
    work,
    input,
  ]);
  await writeFile(path.join(OUT, outName), await readFile(input.replace(/\.[a-z]+$/, '.pdf')));
}

async function main(): Promise<void> {
  await mkdir(OUT, { recursive: true });
  const work = await mkdtemp(path.join(os.tmpdir(), 'pdf-fixtures-'));
  try {
    for (const f of facturX) {
      const pdf = await visiblePdf(f.inv.typeCode === '381' ? 'AVOIR' : 'RECHNUNG / INVOICE', summary(f.inv));
      await writeFile(path.join(OUT, f.file), await withXml(pdf, f.xmlName, cii(f.inv), f.profile));
    }
    const ubl = await visiblePdf('INVOICE LU-2025-019', [
      'Moselle Data Services S.à r.l., Luxembourg',
      'To: Acme Solutions BV',
      'Total EUR 1,380.60',
      'The structured invoice (UBL) is attached.',
    ]);
    await ubl.attach(Buffer.from(foreignUbl, 'utf8'), 'LU-2025-019.xml', {
      mimeType: 'application/xml',
      description: 'UBL invoice',
      creationDate: STAMP,
      modificationDate: STAMP,
      afRelationship: AFRelationship.Data,
    });
    await writeFile(path.join(OUT, 'embedded-ubl-lu.pdf'), await ubl.save({ useObjectStreams: false }));

    for (const h of htmlInvoices) {
      const input = path.join(work, h.file.replace(/\.pdf$/, '.html'));
      await writeFile(input, h.html);
      await libreOffice(work, input, 'HTML (StarWriter)', h.file);
    }
    const txt = path.join(work, 'lo-txt-credit-note.txt');
    await writeFile(txt, textInvoice);
    await libreOffice(work, txt, 'Text (encoded):UTF8,LF,Liberation Mono,fr-FR', 'lo-txt-credit-note.pdf');

    // A "scan": the English invoice as a grey image, no text layer.
    run('pdftoppm', [
      '-r',
      '70',
      '-gray',
      '-jpeg',
      '-singlefile',
      path.join(OUT, 'lo-en-invoice.pdf'),
      path.join(work, 'scan'),
    ]);
    const scan = await PDFDocument.create({ updateMetadata: false });
    scan.setCreationDate(STAMP);
    const jpg = await scan.embedJpg(await readFile(path.join(work, 'scan.jpg')));
    scan.addPage([595.28, 841.89]).drawImage(jpg, { x: 0, y: 0, width: 595.28, height: 841.89 });
    await writeFile(path.join(OUT, 'scanned-invoice.pdf'), await scan.save());

    // Encrypted: one needs a password to open; the other only restricts editing (opens without one).
    run('qpdf', [
      '--encrypt',
      'open-sesame',
      'owner-secret',
      '256',
      '--',
      path.join(OUT, 'lo-en-invoice.pdf'),
      path.join(OUT, 'encrypted-password.pdf'),
    ]);
    run('qpdf', [
      '--encrypt',
      '',
      'owner-secret',
      '256',
      '--modify=none',
      '--',
      path.join(OUT, 'lo-nl-factuur.pdf'),
      path.join(OUT, 'encrypted-no-password-nl.pdf'),
    ]);

    // Corrupt: a PDF header, then the middle of a real file.
    const real = await readFile(path.join(OUT, 'lo-en-invoice.pdf'));
    await writeFile(
      path.join(OUT, 'corrupt.pdf'),
      Buffer.concat([Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n'), real.subarray(4000, 9000)]),
    );
    console.log(`PDF fixtures written to ${OUT}`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

await main();
