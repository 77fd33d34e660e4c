// EN 16931 calculation rules (BR-CO-*) on small UBL invoices: a valid base invoice, varied one thing at a
// time, must make the validator report exactly the rule concerned (and not report it on the valid variant).
// Documents keep cac:LegalMonetaryTotal: without it the official rules do not apply BR-CO-10/11/12/13/16.
import { expect } from 'chai';
import { type ValidationIssue } from '../../../src/domain/validation/index.js';
import { validateUbl } from '../../../src/infrastructure/xml/ublText.js';

const VAT_S =
  '<cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>25</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:TaxCategory>';

/** A valid invoice: one line of 100.00 at 25 %, a document-level allowance of 10.00 and charge of 5.00. */
const BASE = `<?xml version="1.0" encoding="UTF-8"?>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
  <cbc:CustomizationID>urn:cen.eu:en16931:2017</cbc:CustomizationID>
  <cbc:ID>INV-1</cbc:ID>
  <cbc:IssueDate>2024-05-01</cbc:IssueDate>
  <cbc:DueDate>2024-05-31</cbc:DueDate>
  <cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>
  <cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>
  <cac:AccountingSupplierParty><cac:Party>
    <cac:PostalAddress><cac:Country><cbc:IdentificationCode>BE</cbc:IdentificationCode></cac:Country></cac:PostalAddress>
    <cac:PartyTaxScheme><cbc:CompanyID>BE0123456749</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>
    <cac:PartyLegalEntity><cbc:RegistrationName>Seller NV</cbc:RegistrationName></cac:PartyLegalEntity>
  </cac:Party></cac:AccountingSupplierParty>
  <cac:AccountingCustomerParty><cac:Party>
    <cac:PostalAddress><cac:Country><cbc:IdentificationCode>BE</cbc:IdentificationCode></cac:Country></cac:PostalAddress>
    <cac:PartyLegalEntity><cbc:RegistrationName>Buyer BV</cbc:RegistrationName></cac:PartyLegalEntity>
  </cac:Party></cac:AccountingCustomerParty>
  <cac:AllowanceCharge>
    <cbc:ChargeIndicator>false</cbc:ChargeIndicator>
    <cbc:AllowanceChargeReason>Discount</cbc:AllowanceChargeReason>
    <cbc:Amount currencyID="EUR">10.00</cbc:Amount>
    ${VAT_S}
  </cac:AllowanceCharge>
  <cac:AllowanceCharge>
    <cbc:ChargeIndicator>true</cbc:ChargeIndicator>
    <cbc:AllowanceChargeReason>Freight</cbc:AllowanceChargeReason>
    <cbc:Amount currencyID="EUR">5.00</cbc:Amount>
    ${VAT_S}
  </cac:AllowanceCharge>
  <cac:TaxTotal><cbc:TaxAmount currencyID="EUR">23.75</cbc:TaxAmount>
    <cac:TaxSubtotal>
      <cbc:TaxableAmount currencyID="EUR">95.00</cbc:TaxableAmount><cbc:TaxAmount currencyID="EUR">23.75</cbc:TaxAmount>
      ${VAT_S}
    </cac:TaxSubtotal>
  </cac:TaxTotal>
  <cac:LegalMonetaryTotal>
    <cbc:LineExtensionAmount currencyID="EUR">100.00</cbc:LineExtensionAmount>
    <cbc:TaxExclusiveAmount currencyID="EUR">95.00</cbc:TaxExclusiveAmount>
    <cbc:TaxInclusiveAmount currencyID="EUR">118.75</cbc:TaxInclusiveAmount>
    <cbc:AllowanceTotalAmount currencyID="EUR">10.00</cbc:AllowanceTotalAmount>
    <cbc:ChargeTotalAmount currencyID="EUR">5.00</cbc:ChargeTotalAmount>
    <cbc:PayableAmount currencyID="EUR">118.75</cbc:PayableAmount>
  </cac:LegalMonetaryTotal>
  <cac:InvoiceLine>
    <cbc:ID>1</cbc:ID>
    <cbc:InvoicedQuantity unitCode="C62">2</cbc:InvoicedQuantity>
    <cbc:LineExtensionAmount currencyID="EUR">100.00</cbc:LineExtensionAmount>
    <cac:Item>
      <cbc:Name>Widget</cbc:Name>
      <cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>25</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:ClassifiedTaxCategory>
    </cac:Item>
    <cac:Price><cbc:PriceAmount currencyID="EUR">50.00</cbc:PriceAmount></cac:Price>
  </cac:InvoiceLine>
</Invoice>`;

type Edit = [from: string, to: string];

/** `xml` with every occurrence of each `from` replaced; a `from` it lacks is a mistake in the test. */
function vary(xml: string, ...edits: Edit[]): string {
  for (const [from, to] of edits) {
    if (!xml.includes(from)) throw new Error(`the document has no ${from}`);
    xml = xml.replaceAll(from, to);
  }
  return xml;
}

const TOTALS = {
  lineExtension:
    '<cbc:LineExtensionAmount currencyID="EUR">100.00</cbc:LineExtensionAmount>\n    <cbc:TaxExclusiveAmount',
  taxExclusive: '<cbc:TaxExclusiveAmount currencyID="EUR">95.00</cbc:TaxExclusiveAmount>',
  taxInclusive: '<cbc:TaxInclusiveAmount currencyID="EUR">118.75</cbc:TaxInclusiveAmount>',
  allowance: '<cbc:AllowanceTotalAmount currencyID="EUR">10.00</cbc:AllowanceTotalAmount>',
  charge: '<cbc:ChargeTotalAmount currencyID="EUR">5.00</cbc:ChargeTotalAmount>',
  payable: '<cbc:PayableAmount currencyID="EUR">118.75</cbc:PayableAmount>',
  tax: '<cac:TaxTotal><cbc:TaxAmount currencyID="EUR">23.75</cbc:TaxAmount>',
};
const SUBTOTAL_AMOUNTS =
  '<cbc:TaxableAmount currencyID="EUR">95.00</cbc:TaxableAmount><cbc:TaxAmount currencyID="EUR">23.75</cbc:TaxAmount>';
/** The rate of the VAT breakdown's category (the only category followed by the end of its TaxSubtotal). */
const SUBTOTAL_RATE =
  '<cbc:Percent>25</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:TaxCategory>\n    </cac:TaxSubtotal>';
const ALLOWANCE = /<cac:AllowanceCharge>\s*<cbc:ChargeIndicator>false[\s\S]*?<\/cac:AllowanceCharge>/.exec(BASE)![0];
const CHARGE = /<cac:AllowanceCharge>\s*<cbc:ChargeIndicator>true[\s\S]*?<\/cac:AllowanceCharge>/.exec(BASE)![0];
const LINE_ITEM = '<cac:Item>';

const amount = (element: string, value: string) => `<cbc:${element} currencyID="EUR">${value}</cbc:${element}>`;
const total = (element: string, value: string) => `\n    ${amount(element, value)}`;

/** `xml` (the base amounts) with VAT `tax` on its 95.00: breakdown, VAT total, total with VAT and amount due follow. */
function withTax(xml: string, tax: string): string {
  const withVat = (95 + Number(tax)).toFixed(2);
  return vary(
    xml,
    ['>23.75<', `>${tax}<`],
    [TOTALS.taxInclusive, amount('TaxInclusiveAmount', withVat)],
    [TOTALS.payable, amount('PayableAmount', withVat)],
  );
}

/** The invoice in VAT category Z (zero rated); ZERO_RATED is it with no tax, as it should be. */
const Z_CATEGORY = vary(BASE, [
  '<cbc:ID>S</cbc:ID><cbc:Percent>25</cbc:Percent>',
  '<cbc:ID>Z</cbc:ID><cbc:Percent>0</cbc:Percent>',
]);
const ZERO_RATED = withTax(Z_CATEGORY, '0.00');

/** `xml` with the VAT breakdown's rate (BT-119) set to `percent`, or left out when it is null. */
const withRate = (xml: string, percent: string | null) =>
  vary(xml, [
    SUBTOTAL_RATE,
    SUBTOTAL_RATE.replace(
      '<cbc:Percent>25</cbc:Percent>',
      percent === null ? '' : `<cbc:Percent>${percent}</cbc:Percent>`,
    ),
  ]);

const cenIssues = (xml: string): ValidationIssue[] => validateUbl(xml, { layers: ['cen'] });
/** The calculation rules (BR-CO-*) that fire on the document, one entry per firing. */
const calculationRules = (xml: string): string[] =>
  cenIssues(xml)
    .filter((i) => i.rule_id.startsWith('BR-CO-'))
    .map((i) => i.rule_id);

describe('EN 16931 calculation rules (BR-CO) on varied invoices', () => {
  it('Given the valid base invoices, When validated, Then no EN 16931 rule fires', () => {
    expect(cenIssues(BASE)).to.deep.equal([]);
    expect(cenIssues(ZERO_RATED)).to.deep.equal([]);
  });

  describe('BR-CO-11 / BR-CO-12: sums of document-level allowances and charges', () => {
    it('Given a document-level allowance but no AllowanceTotalAmount, When validated, Then BR-CO-11 is reported', () => {
      // BT-109 still adds up (100.00 + 5.00 with the allowance total left out), so only BR-CO-11 fires.
      const xml = vary(
        BASE,
        [`\n    ${TOTALS.allowance}`, ''],
        [TOTALS.taxExclusive, amount('TaxExclusiveAmount', '105.00')],
        [TOTALS.taxInclusive, amount('TaxInclusiveAmount', '128.75')],
        [TOTALS.payable, amount('PayableAmount', '128.75')],
      );
      expect(calculationRules(xml)).to.deep.equal(['BR-CO-11']);
    });

    it('Given no document-level allowance and no AllowanceTotalAmount, When validated, Then BR-CO-11 is not reported', () => {
      const xml = vary(
        BASE,
        [ALLOWANCE, ''],
        [`\n    ${TOTALS.allowance}`, ''],
        [SUBTOTAL_AMOUNTS, `${amount('TaxableAmount', '105.00')}${amount('TaxAmount', '26.25')}`],
        [TOTALS.tax, '<cac:TaxTotal><cbc:TaxAmount currencyID="EUR">26.25</cbc:TaxAmount>'],
        [TOTALS.taxExclusive, amount('TaxExclusiveAmount', '105.00')],
        [TOTALS.taxInclusive, amount('TaxInclusiveAmount', '131.25')],
        [TOTALS.payable, amount('PayableAmount', '131.25')],
      );
      expect(cenIssues(xml)).to.deep.equal([]);
    });

    it('Given a document-level charge but no ChargeTotalAmount, When validated, Then BR-CO-12 is reported', () => {
      const xml = vary(
        BASE,
        [`\n    ${TOTALS.charge}`, ''],
        [TOTALS.taxExclusive, amount('TaxExclusiveAmount', '90.00')],
        [TOTALS.taxInclusive, amount('TaxInclusiveAmount', '113.75')],
        [TOTALS.payable, amount('PayableAmount', '113.75')],
      );
      expect(calculationRules(xml)).to.deep.equal(['BR-CO-12']);
    });

    it('Given no document-level charge and no ChargeTotalAmount, When validated, Then BR-CO-12 is not reported', () => {
      const xml = vary(
        BASE,
        [CHARGE, ''],
        [`\n    ${TOTALS.charge}`, ''],
        [SUBTOTAL_AMOUNTS, `${amount('TaxableAmount', '90.00')}${amount('TaxAmount', '22.50')}`],
        [TOTALS.tax, '<cac:TaxTotal><cbc:TaxAmount currencyID="EUR">22.50</cbc:TaxAmount>'],
        [TOTALS.taxExclusive, amount('TaxExclusiveAmount', '90.00')],
        [TOTALS.taxInclusive, amount('TaxInclusiveAmount', '112.50')],
        [TOTALS.payable, amount('PayableAmount', '112.50')],
      );
      expect(cenIssues(xml)).to.deep.equal([]);
    });
  });

  describe('BR-CO-13: total without VAT = lines - allowances + charges', () => {
    it('Given a LegalMonetaryTotal without TaxExclusiveAmount, When validated, Then BR-CO-13 (and BR-CO-15, which adds VAT to it) is reported', () => {
      expect(calculationRules(vary(BASE, [`\n    ${TOTALS.taxExclusive}`, '']))).to.deep.equal([
        'BR-CO-13',
        'BR-CO-15',
      ]);
    });

    it('Given no allowance or charge totals, When the line total has three decimals, Then TaxExclusiveAmount must equal it exactly, unrounded', () => {
      // 100.005 rounds to 100.01, but with nothing to add or subtract BR-CO-13 compares with the line total itself.
      // (BR-CO-10 fires on both variants: BT-106 itself should have been rounded.)
      const plain = vary(
        BASE,
        [ALLOWANCE, ''],
        [CHARGE, ''],
        [`\n    ${TOTALS.allowance}`, ''],
        [`\n    ${TOTALS.charge}`, ''],
        ['>100.00<', '>100.005<'],
      );
      const rounded = vary(plain, [TOTALS.taxExclusive, amount('TaxExclusiveAmount', '100.01')]);
      const exact = vary(plain, [TOTALS.taxExclusive, amount('TaxExclusiveAmount', '100.005')]);
      expect(calculationRules(rounded)).to.include('BR-CO-13');
      expect(calculationRules(exact)).not.to.include('BR-CO-13');
    });

    it('Given a ChargeTotalAmount that is not a number, When the other amounts add up without it, Then BR-CO-12 and BR-CO-13 are still reported', () => {
      const xml = vary(
        BASE,
        [TOTALS.charge, amount('ChargeTotalAmount', 'five')],
        [TOTALS.taxExclusive, amount('TaxExclusiveAmount', '90.00')],
        [TOTALS.taxInclusive, amount('TaxInclusiveAmount', '113.75')],
        [TOTALS.payable, amount('PayableAmount', '113.75')],
      );
      expect(calculationRules(xml)).to.deep.equal(['BR-CO-12', 'BR-CO-13']);
    });

    it('Given an AllowanceTotalAmount that is not a number, When the other amounts add up without it, Then BR-CO-11 and BR-CO-13 are still reported', () => {
      const xml = vary(
        BASE,
        [TOTALS.allowance, amount('AllowanceTotalAmount', 'ten')],
        [TOTALS.taxExclusive, amount('TaxExclusiveAmount', '105.00')],
        [TOTALS.taxInclusive, amount('TaxInclusiveAmount', '128.75')],
        [TOTALS.payable, amount('PayableAmount', '128.75')],
      );
      expect(calculationRules(xml)).to.deep.equal(['BR-CO-11', 'BR-CO-13']);
    });
  });

  describe('BR-CO-15: total with VAT = total without VAT + VAT total', () => {
    it('Given a VAT total that is not a number, When validated, Then BR-CO-14 and BR-CO-15 are reported (and validation completes)', () => {
      const xml = vary(BASE, [TOTALS.tax, '<cac:TaxTotal><cbc:TaxAmount currencyID="EUR">n/a</cbc:TaxAmount>']);
      expect(calculationRules(xml)).to.deep.equal(['BR-CO-14', 'BR-CO-15']);
    });

    it('Given two VAT totals in the document currency, When the first adds up, Then BR-CO-15 is still reported', () => {
      const xml = vary(BASE, [
        '</cac:TaxTotal>',
        '</cac:TaxTotal>\n  <cac:TaxTotal><cbc:TaxAmount currencyID="EUR">23.75</cbc:TaxAmount></cac:TaxTotal>',
      ]);
      expect(calculationRules(xml)).to.deep.equal(['BR-CO-15']);
    });
  });

  describe('BR-CO-16: amount due = total with VAT - paid amount + rounding amount', () => {
    it('Given a LegalMonetaryTotal without TaxInclusiveAmount, When validated, Then BR-CO-16 (and BR-CO-15, which checks it) is reported', () => {
      expect(calculationRules(vary(BASE, [`\n    ${TOTALS.taxInclusive}`, '']))).to.deep.equal([
        'BR-CO-15',
        'BR-CO-16',
      ]);
    });

    it('Given a paid amount and a rounding amount that add up, When validated, Then BR-CO-16 is not reported', () => {
      const xml = vary(BASE, [
        TOTALS.payable,
        `${amount('PrepaidAmount', '18.75')}${total('PayableRoundingAmount', '0.25')}${total('PayableAmount', '100.25')}`,
      ]);
      expect(cenIssues(xml)).to.deep.equal([]);
    });

    it('Given a PrepaidAmount that is not a number, When validated, Then BR-CO-16 is reported (and validation completes)', () => {
      const xml = vary(BASE, [TOTALS.payable, `${amount('PrepaidAmount', 'n/a')}${total('PayableAmount', '118.75')}`]);
      expect(calculationRules(xml)).to.deep.equal(['BR-CO-16']);
    });

    it('Given a PayableRoundingAmount that is not a number, When validated, Then BR-CO-16 is reported (and validation completes)', () => {
      const xml = vary(BASE, [
        TOTALS.payable,
        `${amount('PayableRoundingAmount', 'n/a')}${total('PayableAmount', '118.75')}`,
      ]);
      expect(calculationRules(xml)).to.deep.equal(['BR-CO-16']);
    });

    it('Given a PayableAmount that is not a number, When validated, Then BR-CO-16 is reported and no payment due date is asked for', () => {
      // An amount that cannot be read is not a positive amount due (BR-CO-25 asks for a due date only then).
      const xml = vary(
        BASE,
        ['\n  <cbc:DueDate>2024-05-31</cbc:DueDate>', ''],
        [TOTALS.payable, amount('PayableAmount', 'n/a')],
      );
      expect(calculationRules(xml)).to.deep.equal(['BR-CO-16']);
    });

    it('Given a LegalMonetaryTotal without PayableAmount, When validated, Then BR-CO-16 is reported and no payment due date is asked for', () => {
      const xml = vary(BASE, ['\n  <cbc:DueDate>2024-05-31</cbc:DueDate>', ''], [`\n    ${TOTALS.payable}`, '']);
      expect(calculationRules(xml)).to.deep.equal(['BR-CO-16']);
    });
  });

  describe('BR-CO-17: VAT category tax amount = taxable amount x rate / 100', () => {
    it('Given a zero rate, When the tax amount rounds to a whole unit, Then BR-CO-17 is reported; when it rounds to zero, it is not', () => {
      // Strictly within 1.00 of 95.00 x 0 % would accept 0.60: a zero rate asks for a tax amount that rounds to 0 instead.
      expect(calculationRules(withTax(Z_CATEGORY, '0.60'))).to.deep.equal(['BR-CO-17']);
      expect(calculationRules(withTax(Z_CATEGORY, '5.00'))).to.deep.equal(['BR-CO-17']);
      expect(calculationRules(withTax(Z_CATEGORY, '0.40'))).to.deep.equal([]);
    });

    it('Given a zero rate and no tax amount in the VAT breakdown, When validated, Then BR-CO-17 is reported (and validation completes)', () => {
      const xml = vary(ZERO_RATED, [
        `${amount('TaxableAmount', '95.00')}${amount('TaxAmount', '0.00')}`,
        amount('TaxableAmount', '95.00'),
      ]);
      expect(calculationRules(xml)).to.deep.equal(['BR-CO-17']);
    });

    it('Given a VAT breakdown without a rate, When its tax amount is not zero, Then BR-CO-17 is reported; when it is zero, it is not', () => {
      expect(calculationRules(withRate(BASE, null))).to.deep.equal(['BR-CO-17']);
      expect(calculationRules(withRate(withTax(BASE, '0.00'), null))).to.deep.equal([]);
    });

    it('Given a rated VAT breakdown without TaxableAmount, When validated, Then BR-CO-17 is reported', () => {
      const xml = vary(BASE, [SUBTOTAL_AMOUNTS, amount('TaxAmount', '23.75')]);
      expect(calculationRules(xml)).to.deep.equal(['BR-CO-17']);
    });

    it('Given a VAT rate that is not a number, When validated, Then BR-CO-17 is reported (and validation completes)', () => {
      expect(calculationRules(withRate(BASE, 'high'))).to.deep.equal(['BR-CO-17']);
    });

    it('Given a withholding tax subtotal that does not add up, When validated, Then BR-CO-17 is not reported (only VAT breakdowns are checked)', () => {
      const withholding = `<cac:WithholdingTaxTotal><cbc:TaxAmount currencyID="EUR">1.00</cbc:TaxAmount>
    <cac:TaxSubtotal>${amount('TaxableAmount', '95.00')}${amount('TaxAmount', '1.00')}${VAT_S}</cac:TaxSubtotal>
  </cac:WithholdingTaxTotal>
  <cac:LegalMonetaryTotal>`;
      const xml = vary(BASE, ['<cac:LegalMonetaryTotal>', withholding]);
      expect(calculationRules(xml)).to.deep.equal([]);
    });
  });

  describe('BR-CO-23 / BR-CO-24: reasons of line allowances and charges', () => {
    const lineAllowanceCharge = (indicator: string) =>
      vary(BASE, [
        LINE_ITEM,
        `<cac:AllowanceCharge>${indicator}${amount('Amount', '1.00')}</cac:AllowanceCharge>\n    ${LINE_ITEM}`,
      ]);

    it('Given a line allowance or charge without a reason, When validated, Then BR-CO-23 or BR-CO-24 is reported', () => {
      expect(calculationRules(lineAllowanceCharge('<cbc:ChargeIndicator>false</cbc:ChargeIndicator>'))).to.deep.equal([
        'BR-CO-23',
      ]);
      expect(calculationRules(lineAllowanceCharge('<cbc:ChargeIndicator>true</cbc:ChargeIndicator>'))).to.deep.equal([
        'BR-CO-24',
      ]);
    });

    it('Given a line allowance-charge without a ChargeIndicator, When validated, Then it is taken for neither (no BR-CO-23, no BR-CO-24)', () => {
      expect(calculationRules(lineAllowanceCharge(''))).to.deep.equal([]);
    });
  });

  describe('BR-CO-09 (VAT identifier prefix) as the official artefacts test it', () => {
    it('Given a VAT identifier of one character, or of a letter and a space, When validated, Then BR-CO-09 is not reported: the list is searched as text', () => {
      for (const id of ['B', 'E 0123456749'])
        expect(calculationRules(vary(BASE, ['BE0123456749', id])), id).not.to.include('BR-CO-09');
      expect(calculationRules(vary(BASE, ['BE0123456749', 'ZZ0123456749']))).to.include('BR-CO-09');
    });
  });

  describe('BR-CO-17 reads the rate of the VAT category only', () => {
    it('Given a breakdown category of another tax scheme with a rate, When validated, Then BR-CO-17 is reported: the breakdown has no VAT rate and its tax is not zero', () => {
      const xml = vary(BASE, [SUBTOTAL_RATE, SUBTOTAL_RATE.replace('<cbc:ID>VAT</cbc:ID>', '<cbc:ID>GST</cbc:ID>')]);
      expect(calculationRules(xml)).to.include('BR-CO-17');
    });
  });

  describe('the message shown for each rule names the business terms it is about', () => {
    const cases: { rule: string; xml: string; terms: string[] }[] = [
      {
        rule: 'BR-CO-03',
        terms: ['BT-7', 'BT-8'],
        xml: vary(BASE, [
          '<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>',
          '<cbc:TaxPointDate>2024-05-01</cbc:TaxPointDate><cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode><cac:InvoicePeriod><cbc:DescriptionCode>3</cbc:DescriptionCode></cac:InvoicePeriod>',
        ]),
      },
      {
        rule: 'BR-CO-04',
        terms: ['BG-25', 'BT-151'],
        xml: vary(BASE, ['<cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID>', '<cac:ClassifiedTaxCategory>']),
      },
      { rule: 'BR-CO-09', terms: ['BT-31', 'BT-63', 'BT-48'], xml: vary(BASE, ['BE0123456749', 'ZZ0123456749']) },
      {
        rule: 'BR-CO-10',
        terms: ['BT-106', 'BT-131'],
        xml: vary(BASE, [TOTALS.lineExtension, TOTALS.lineExtension.replace('100.00', '100.01')]),
      },
      {
        rule: 'BR-CO-11',
        terms: ['BT-107', 'BT-92'],
        xml: vary(BASE, [TOTALS.allowance, amount('AllowanceTotalAmount', '9.00')]),
      },
      {
        rule: 'BR-CO-12',
        terms: ['BT-108', 'BT-99'],
        xml: vary(BASE, [TOTALS.charge, amount('ChargeTotalAmount', '4.00')]),
      },
      {
        rule: 'BR-CO-13',
        terms: ['BT-109', 'BT-131', 'BT-107', 'BT-108'],
        xml: vary(BASE, [TOTALS.taxExclusive, amount('TaxExclusiveAmount', '96.00')]),
      },
      {
        rule: 'BR-CO-14',
        terms: ['BT-110', 'BT-117'],
        xml: vary(BASE, [TOTALS.tax, '<cac:TaxTotal><cbc:TaxAmount currencyID="EUR">23.76</cbc:TaxAmount>']),
      },
      {
        rule: 'BR-CO-15',
        terms: ['BT-112', 'BT-109', 'BT-110'],
        xml: vary(BASE, [TOTALS.taxInclusive, amount('TaxInclusiveAmount', '118.76')]),
      },
      {
        rule: 'BR-CO-16',
        terms: ['BT-115', 'BT-112', 'BT-113', 'BT-114'],
        xml: vary(BASE, [TOTALS.payable, amount('PayableAmount', '118.70')]),
      },
      {
        rule: 'BR-CO-17',
        terms: ['BT-117', 'BT-116', 'BT-119'],
        xml: vary(BASE, [SUBTOTAL_AMOUNTS, `${amount('TaxableAmount', '95.00')}${amount('TaxAmount', '30.00')}`]),
      },
      {
        rule: 'BR-CO-18',
        terms: ['BG-23'],
        xml: vary(BASE, [/<cac:TaxSubtotal>[\s\S]*<\/cac:TaxSubtotal>/.exec(BASE)![0], '']),
      },
      {
        rule: 'BR-CO-19',
        terms: ['BG-14', 'BT-73', 'BT-74'],
        xml: vary(BASE, [
          '<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>',
          '<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode><cac:InvoicePeriod></cac:InvoicePeriod>',
        ]),
      },
      {
        rule: 'BR-CO-20',
        terms: ['BG-26', 'BT-134', 'BT-135'],
        xml: vary(BASE, [LINE_ITEM, `<cac:InvoicePeriod></cac:InvoicePeriod>${LINE_ITEM}`]),
      },
      {
        rule: 'BR-CO-21',
        terms: ['BG-20', 'BT-97', 'BT-98'],
        xml: vary(BASE, ['<cbc:AllowanceChargeReason>Discount</cbc:AllowanceChargeReason>', '']),
      },
      {
        rule: 'BR-CO-22',
        terms: ['BG-21', 'BT-104', 'BT-105'],
        xml: vary(BASE, ['<cbc:AllowanceChargeReason>Freight</cbc:AllowanceChargeReason>', '']),
      },
      {
        rule: 'BR-CO-23',
        terms: ['BG-27', 'BT-139', 'BT-140'],
        xml: vary(BASE, [
          LINE_ITEM,
          `<cac:AllowanceCharge><cbc:ChargeIndicator>false</cbc:ChargeIndicator>${amount('Amount', '1.00')}</cac:AllowanceCharge>${LINE_ITEM}`,
        ]),
      },
      {
        rule: 'BR-CO-24',
        terms: ['BG-28', 'BT-144', 'BT-145'],
        xml: vary(BASE, [
          LINE_ITEM,
          `<cac:AllowanceCharge><cbc:ChargeIndicator>true</cbc:ChargeIndicator>${amount('Amount', '1.00')}</cac:AllowanceCharge>${LINE_ITEM}`,
        ]),
      },
      {
        rule: 'BR-CO-26',
        terms: ['BT-29', 'BT-30', 'BT-31'],
        xml: vary(BASE, [
          '\n    <cac:PartyTaxScheme><cbc:CompanyID>BE0123456749</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>',
          '',
        ]),
      },
    ];

    for (const { rule, terms, xml } of cases) {
      it(`Given an invoice breaking ${rule}, When validated, Then the message names ${terms.join(', ')}`, () => {
        const issue = cenIssues(xml).find((i) => i.rule_id === rule);
        expect(issue, `${rule} fires`).not.to.equal(undefined);
        expect(issue!.message.startsWith(`[${rule}] `), issue!.message).to.equal(true);
        for (const term of terms) expect(issue!.message).to.match(new RegExp(`\\(${term}\\)`));
        expect(cenIssues(BASE).some((i) => i.rule_id === rule)).to.equal(false);
      });
    }
  });
});
