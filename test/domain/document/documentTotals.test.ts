import { expect } from 'chai';
import { decodeDocumentInput } from '../../../src/http/codecs/documentCodec.js';
import type { Document } from '../../../src/domain/document/invoice/documentModel.js';
import {
  completeDocument,
  computeLineNet,
  effectiveTaxCode,
} from '../../../src/domain/document/invoice/documentTotals.js';
import { Dec, money, round2 } from '../../../src/domain/document/invoice/money.js';

const decode = (body: Record<string, unknown>): Document => {
  const r = decodeDocumentInput(body);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value;
};

describe('EN 16931 totals', () => {
  describe('round2 follows the rule artefacts: ties go towards +infinity', () => {
    for (const [x, want] of [
      ['2.345', '2.35'],
      ['-2.345', '-2.34'],
      ['2.344', '2.34'],
      ['0.005', '0.01'],
      ['-0.005', '0.00'],
      ['1.999', '2.00'],
    ]) {
      it(`round2(${x}) = ${want}`, () => expect(round2(new Dec(x!)).toFixed(2)).to.equal(want));
    }
  });

  it('Given amounts like 0.1 and 0.2, When summed, Then the result is exact (no binary floating point)', () => {
    const doc = decode({
      items: [
        { description: 'a', quantity: 1, unit_price: 0.1, tax_rate: '21.00' },
        { description: 'b', quantity: 1, unit_price: 0.2, tax_rate: '21.00' },
      ],
    });
    const { document } = completeDocument(doc);
    expect(money(document.subtotal!)).to.equal('0.30');
    expect(document.subtotal!.eq('0.3')).to.equal(true);
  });

  it('Given quantity x price with more than 2 decimals, Then the line net is rounded once, half up', () => {
    const line = decode({ items: [{ description: 'bolts', quantity: 7, unit_price: '0.335', tax_rate: '21.00' }] })
      .items[0]!;
    expect(computeLineNet(line).toFixed(2)).to.equal('2.35'); // 2.345 -> 2.35
  });

  it('Given line allowances and charges, Then net = qty x price - allowances + charges', () => {
    const line = decode({
      items: [
        {
          description: 'x',
          quantity: 10,
          unit_price: 12.5,
          tax_rate: '21.00',
          allowances: [{ amount: 5 }, { base_amount: 125, multiplier_factor: 10 }],
          charges: [{ amount: 2.25 }],
        },
      ],
    }).items[0]!;
    expect(computeLineNet(line).toFixed(2)).to.equal('109.75'); // 125 - 5 - 12.50 + 2.25
  });

  it('Given two rates and document-level allowance/charge, Then the VAT breakdown is per rate and totals follow BT-106..BT-115', () => {
    const doc = decode({
      items: [
        { description: 'a', quantity: 3, unit_price: '19.99', tax_rate: '21.00' },
        { description: 'b', quantity: 2, unit_price: '10.00', tax_rate: '6.00' },
      ],
      allowances: [{ reason: 'discount', amount: 9.97, tax_rate: '21.00' }],
      charges: [{ reason: 'freight', amount: 5, tax_rate: '6.00' }],
    });
    const { totals, problems, document } = completeDocument(doc);
    expect(problems).to.deep.equal([]);
    expect(
      totals.breakdown.map((b) => [b.tax_code, b.rate!.toFixed(2), money(b.taxable_amount), money(b.tax_amount)]),
    ).to.deep.equal([
      ['S', '21.00', '50.00', '10.50'],
      ['S', '6.00', '25.00', '1.50'],
    ]);
    expect(money(totals.line_total)).to.equal('79.97');
    expect(money(totals.allowance_total)).to.equal('9.97');
    expect(money(totals.charge_total)).to.equal('5.00');
    expect(money(totals.tax_exclusive)).to.equal('75.00');
    expect(money(totals.tax_total)).to.equal('12.00');
    expect(money(totals.tax_inclusive)).to.equal('87.00');
    expect(money(totals.payable)).to.equal('87.00');
    expect(document.tax_details.map((t) => money(t.amount!))).to.deep.equal(['10.50', '1.50']);
  });

  it('Given a document allowance without a rate and lines at one rate, Then it takes that rate', () => {
    const { totals, problems } = completeDocument(
      decode({
        items: [{ description: 'a', quantity: 1, unit_price: 100, tax_rate: '21.00' }],
        allowances: [{ reason: 'promo', amount: 10 }],
      }),
    );
    expect(problems).to.deep.equal([]);
    expect(money(totals.breakdown[0]!.taxable_amount)).to.equal('90.00');
  });

  it('Given a document allowance without a rate and lines at two rates, Then the missing rate is reported', () => {
    const { problems } = completeDocument(
      decode({
        items: [
          { description: 'a', quantity: 1, unit_price: 100, tax_rate: '21.00' },
          { description: 'b', quantity: 1, unit_price: 10, tax_rate: '6.00' },
        ],
        allowances: [{ reason: 'promo', amount: 10 }],
      }),
    );
    expect(problems.map((p) => p.field)).to.deep.equal(['allowances[0].tax_rate']);
  });

  it('Given caller totals that disagree, Then each is reported as a field-level problem', () => {
    const { problems } = completeDocument(
      decode({
        items: [{ description: 'a', quantity: 2, unit_price: 50, tax_rate: '21.00', amount: 99 }],
        subtotal: 90,
        invoice_total: 130,
        tax_details: [{ rate: '21.00', amount: 25 }],
      }),
    );
    expect(problems.map((p) => [p.field, p.type])).to.deep.equal([
      ['items[0].amount', 'mismatch'],
      ['tax_details[0].amount', 'mismatch'],
      ['subtotal', 'mismatch'],
      ['invoice_total', 'mismatch'],
    ]);
  });

  it('Given a total VAT one cent off (per-line rounding), Then it is accepted and the breakdown still adds up', () => {
    const { document, problems, totals } = completeDocument(
      decode({
        items: [
          { description: 'a', quantity: 1, unit_price: '10.05', tax_rate: '21.00' },
          { description: 'b', quantity: 1, unit_price: '10.05', tax_rate: '21.00' },
        ],
        total_tax: 4.21, // per line 2.11 + 2.11 = 4.22 would also be within tolerance; breakdown gives 4.22
      }),
    );
    expect(problems).to.deep.equal([]);
    expect(money(document.total_tax!)).to.equal('4.21');
    expect(money(totals.breakdown[0]!.tax_amount)).to.equal('4.21');
    expect(money(totals.tax_inclusive)).to.equal('24.31');
  });

  it('Given a total VAT far off, Then it is a mismatch', () => {
    const { problems } = completeDocument(
      decode({ items: [{ description: 'a', quantity: 1, unit_price: 100, tax_rate: '21.00' }], total_tax: 20 }),
    );
    expect(problems.map((p) => p.field)).to.deep.equal(['total_tax']);
  });

  describe('VAT at 0% in a rated category (IGIC L or IPSI M): nothing is rounded, so a caller VAT amount must be 0.00', () => {
    const igic0 = { description: 'a', quantity: 1, unit_price: 100, tax_rate: '0.00', tax_code: 'L' };
    it('Given tax_details with 0.02 VAT on an L 0% entry, Then tax_details[0].amount is refused', () => {
      const { problems } = completeDocument(
        decode({ items: [igic0], tax_details: [{ tax_code: 'L', rate: '0.00', taxable_amount: 100, amount: 0.02 }] }),
      );
      expect(problems.map((p) => p.field)).to.deep.equal(['tax_details[0].amount']);
    });
    it('Given total_tax 0.02 and only an L 0% entry, Then total_tax is refused', () => {
      const { problems } = completeDocument(decode({ items: [igic0], total_tax: 0.02 }));
      expect(problems.map((p) => p.field)).to.deep.equal(['total_tax']);
    });
    it('Given a rounding cent on total_tax and an L 0% entry larger than the S 21% one, Then the cent goes to the S entry', () => {
      const { problems, totals } = completeDocument(
        decode({
          items: [igic0, { description: 'b', quantity: 1, unit_price: 10, tax_rate: '21.00' }],
          total_tax: 2.11,
        }),
      );
      expect(problems).to.deep.equal([]);
      expect(totals.breakdown.map((b) => [b.tax_code, money(b.tax_amount)])).to.deep.equal([
        ['L', '0.00'],
        ['S', '2.11'],
      ]);
    });
  });

  it('Given a line amount within 0.02 of the rounded net but not of quantity x price (PEPPOL-EN16931-R120), Then items[0].amount is refused', () => {
    // 3 x 0.335 = 1.005 (net 1.01): 1.03 is 0.025 from it, 0.99 only 0.015.
    const line = (amount: number) => ({
      description: 'bolts',
      quantity: 3,
      unit_price: '0.335',
      tax_rate: '21.00',
      amount,
    });
    expect(completeDocument(decode({ items: [line(1.03)] })).problems.map((p) => p.field)).to.deep.equal([
      'items[0].amount',
    ]);
    expect(completeDocument(decode({ items: [line(0.99)] })).problems).to.deep.equal([]);
  });

  it('Given exempt, reverse-charge and zero-rated lines, Then there is one 0% entry per category, the stated reason on its own category only', () => {
    const { totals, problems } = completeDocument(
      decode({
        vatex: 'VATEX-EU-132-1I',
        vatex_note: 'Training',
        items: [
          { description: 'course', quantity: 1, unit_price: 100, tax_rate: '0.00', tax_code: 'E' },
          { description: 'works', quantity: 1, unit_price: 200, tax_rate: '0.00', tax_code: 'AE' },
          { description: 'paper', quantity: 1, unit_price: 3, tax_rate: '0.00' },
          { description: 'paper 2', quantity: 2, unit_price: 3, tax_rate: '0.00' },
        ],
      }),
    );
    expect(
      totals.breakdown.map((b) => [
        b.tax_code,
        money(b.taxable_amount),
        money(b.tax_amount),
        b.exemption_reason_code,
        b.exemption_reason,
      ]),
    ).to.deep.equal([
      ['E', '100.00', '0.00', 'VATEX-EU-132-1I', 'Training'],
      ['AE', '200.00', '0.00', null, null],
      ['Z', '9.00', '0.00', null, null],
    ]);
    // No VATEX-EU-AE is stated for the seller: the reverse-charge lines need their own document.
    expect(problems.map((p) => [p.field, p.rule_id])).to.deep.equal([['items[1].tax_code', 'BR-AE-10']]);
  });

  it('Given amount_due below the total, Then the difference is the prepaid amount; a previous balance raises the amount due', () => {
    const prepaid = completeDocument(
      decode({ items: [{ description: 'a', quantity: 1, unit_price: 100, tax_rate: '21.00' }], amount_due: 21 }),
    ).totals;
    expect([money(prepaid.tax_inclusive), money(prepaid.prepaid), money(prepaid.payable)]).to.deep.equal([
      '121.00',
      '100.00',
      '21.00',
    ]);
    const balance = completeDocument(
      decode({
        items: [{ description: 'a', quantity: 1, unit_price: 100, tax_rate: '21.00' }],
        previous_unpaid_balance: 50,
      }),
    ).totals;
    expect([money(balance.prepaid), money(balance.payable)]).to.deep.equal(['-50.00', '171.00']);
  });

  it('Given a non-zero total_discount, Then it is refused: EN 16931 has no allowances outside VAT', () => {
    const { problems } = completeDocument(
      decode({ items: [{ description: 'a', quantity: 1, unit_price: 1, tax_rate: '21.00' }], total_discount: -5 }),
    );
    expect(problems.map((p) => p.field)).to.deep.equal(['total_discount']);
  });

  describe('effective VAT category of a line', () => {
    it('0% under S is zero rated (Z)', () => expect(effectiveTaxCode('S', null, new Dec(0))).to.equal('Z'));
    it('21% under E is standard rated (S)', () => expect(effectiveTaxCode('E', null, new Dec(21))).to.equal('S'));
    it('an explicit line category wins', () => expect(effectiveTaxCode('S', 'K', new Dec(0))).to.equal('K'));
  });
});

import { missingRequiredFields } from '../../../src/domain/document/rules/documentCompleteness.js';
import { checkDocument } from '../../../src/domain/document/rules/documentCheck.js';
import { ruleSetById } from '../../../src/domain/validation/index.js';

describe('Required fields for UBL (spec: JSON validation minimum)', () => {
  it('Given only items, Then every missing party, identity and item field is listed by path (3.0.19: and the due date)', () => {
    const r = decodeDocumentInput({ items: [{ quantity: 1 }] });
    if (!r.ok) throw new Error('decode');
    const missing = (id: string) => missingRequiredFields(r.value, ruleSetById(id)).map((p) => p.field);
    // EN 16931 UBL 1.3.16 (Peppol 3.0.21) removed BR-CO-25: no due date or payment terms needed.
    expect(missing('peppol-bis-3.0.21')).to.deep.equal(missing('peppol-bis-3.0.19').slice(0, -1));
    expect(missing('peppol-bis-3.0.19')).to.deep.equal([
      'vendor_name',
      'vendor_tax_id',
      'vendor_address',
      'customer_name',
      'customer_tax_id',
      'customer_address',
      'invoice_id',
      'invoice_date',
      'items[0].description',
      'items[0].unit_price',
      'items[0].tax_rate',
      'due_date',
    ]);
  });
  it('Given a complete credit note without due date, Then nothing is missing', () => {
    const r = decodeDocumentInput({
      document_type: 'CREDIT_NOTE',
      invoice_id: 'C1',
      invoice_date: '2025-01-01',
      vendor_name: 'V',
      vendor_tax_id: 'BE0123456749',
      vendor_address: 'a',
      customer_name: 'C',
      customer_tax_id: 'BE0202239951',
      customer_address: 'b',
      items: [{ description: 'd', quantity: 1, unit_price: 1, tax_rate: '21.00' }],
    });
    if (!r.ok) throw new Error('decode');
    expect(missingRequiredFields(r.value)).to.deep.equal([]);
  });
  it('Given a document without the buyer name and a line without price and rate, Then each problem is one issue, at its field, naming its rule', () => {
    const r = decodeDocumentInput({
      invoice_id: 'I1',
      invoice_date: '2025-01-01',
      payment_term: 'Net 30',
      buyer_reference: 'PO-1',
      vendor_name: 'V',
      vendor_tax_id: 'BE0123456749',
      vendor_address: 'Street 1, 1000 City, Belgium',
      customer_tax_id: 'BE0202239951',
      customer_address: 'Street 2, 2000 City, Belgium',
      items: [
        { description: 'd', quantity: 1, unit_price: 1, tax_rate: '21.00' },
        { description: 'e', quantity: 1 },
      ],
    });
    if (!r.ok) throw new Error('decode');
    const fatal = checkDocument(r.value).issues.filter((i) => i.flag === 'fatal');
    const about = (location: string) => fatal.filter((i) => i.location === location).map((i) => i.rule_id);
    expect(about('customer_name')).to.deep.equal(['BR-07']);
    expect(about('items[1].unit_price')).to.deep.equal(['BR-26']);
    expect(about('items[1].tax_rate')).to.have.length(1);
    expect(
      fatal.filter((i) => i.rule_id === 'BR-07'),
      'the engine does not say BR-07 again',
    ).to.have.length(1);
  });
});
