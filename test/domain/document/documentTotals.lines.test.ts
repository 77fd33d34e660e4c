import { expect } from 'chai';
import type { TaxCode } from '../../../src/domain/document/invoice/codeLists.js';
import { decodeDocumentInput } from '../../../src/http/codecs/documentCodec.js';
import type { Document } from '../../../src/domain/document/invoice/documentModel.js';
import { completeDocument, type ToleranceMode } from '../../../src/domain/document/invoice/documentTotals.js';
import { money } from '../../../src/domain/document/invoice/money.js';

const decode = (body: Record<string, unknown>): Document => {
  const r = decodeDocumentInput(body);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value;
};

/** The problems a document gets, as [field, type, message]: what the API returns in its 422. */
const problemsOf = (body: Record<string, unknown>, mode?: ToleranceMode): string[][] =>
  completeDocument(decode(body), mode).problems.map((p) => [p.field, p.type, p.message]);

/** The VAT breakdown as [category, rate, taxable amount, VAT amount]. */
const breakdownOf = (doc: Document): (string | null)[][] =>
  completeDocument(doc).totals.breakdown.map((b) => [
    b.tax_code,
    b.rate?.toFixed(2) ?? null,
    money(b.taxable_amount),
    money(b.tax_amount),
  ]);

const item = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  description: 'item',
  quantity: 1,
  unit_price: 100,
  tax_rate: '21.00',
  ...over,
});

const MISSING_AMOUNT = 'amount, or base_amount with multiplier_factor, is required';

describe('EN 16931 totals: lines, allowances and charges', () => {
  describe('VAT category and rate of a line', () => {
    it('Given a standard-rated line without tax_rate, When completed, Then tax_rate is reported missing for category S', () => {
      expect(problemsOf({ items: [item({ tax_rate: null })] })).to.deep.equal([
        ['items[0].tax_rate', 'missing', 'tax_rate is required for VAT category S'],
      ]);
    });

    it('Given an exempt line (E) with a 21% rate, When completed, Then the rate is refused: the category requires 0.00', () => {
      expect(
        problemsOf({ vatex: 'VATEX-EU-132-1I', items: [item({ tax_code: 'E', tax_rate: '21.00' })] }),
      ).to.deep.equal([['items[0].tax_rate', 'invalid', 'category E requires a 0.00 tax rate']]);
    });

    it('Given an exempt document and a line without tax_rate, When completed, Then the line is exempt at 0.00 and nothing is missing', () => {
      const doc = decode({ tax_code: 'E', vatex: 'VATEX-EU-132-1I', items: [item({ tax_rate: null })] });
      const { problems, document } = completeDocument(doc);
      expect(problems).to.deep.equal([]);
      expect(breakdownOf(doc)).to.deep.equal([['E', '0.00', '100.00', '0.00']]);
      expect(document.tax_details.map((t) => t.rate?.toFixed(2))).to.deep.equal(['0.00']);
    });
  });

  describe('line net amount', () => {
    it('Given a line amount without unit_price, When completed, Then the amount is the line net and nothing is reported', () => {
      const body = { items: [{ description: 'service', tax_rate: '21.00', amount: 50 }] };
      const { problems, document } = completeDocument(decode(body));
      expect(problems).to.deep.equal([]);
      expect(money(document.items[0]!.amount!)).to.equal('50.00');
      expect(money(document.subtotal!)).to.equal('50.00');
      expect(money(document.total_tax!)).to.equal('10.50');
    });

    it('Given a line amount that disagrees with quantity x unit_price, When completed, Then the message names both amounts', () => {
      expect(problemsOf({ items: [item({ quantity: 2, unit_price: 50, amount: 99 })] })).to.deep.equal([
        [
          'items[0].amount',
          'mismatch',
          'line amount 99.00 does not equal quantity x unit_price - allowances + charges = 100.00',
        ],
      ]);
    });

    it('Given a line with neither unit_price nor amount, When completed, Then unit_price is reported missing', () => {
      expect(problemsOf({ items: [item({ unit_price: null })] })).to.deep.equal([
        ['items[0].unit_price', 'missing', 'unit_price or amount is required'],
      ]);
    });
  });

  describe('line allowances and charges', () => {
    it('Given line allowances and charges without an amount or with only half of base x factor, When completed, Then each amount is reported missing by its path', () => {
      const body = {
        items: [
          item({
            allowances: [
              { reason: 'a', amount: 1 },
              { reason: 'base only', base_amount: 100 },
            ],
            charges: [{ reason: 'factor only', multiplier_factor: 10 }, { reason: 'nothing' }],
          }),
        ],
      };
      expect(problemsOf(body)).to.deep.equal([
        ['items[0].allowances[1].amount', 'missing', MISSING_AMOUNT],
        ['items[0].charges[0].amount', 'missing', MISSING_AMOUNT],
        ['items[0].charges[1].amount', 'missing', MISSING_AMOUNT],
      ]);
      const { document } = completeDocument(decode(body));
      expect(money(document.items[0]!.amount!)).to.equal('99.00'); // the incomplete ones count as 0
    });

    it('Given a line allowance whose amount is more than 0.02 off base_amount x multiplier_factor / 100, When completed, Then it is a mismatch (PEPPOL-EN16931-R040)', () => {
      const body = (amount: string) => ({
        items: [
          item({
            quantity: 10,
            unit_price: 12.5,
            allowances: [{ reason: 'r', amount, base_amount: 125, multiplier_factor: 10 }],
          }),
        ],
      });
      expect(problemsOf(body('12.52'))).to.deep.equal([]);
      expect(problemsOf(body('12.53'))).to.deep.equal([
        [
          'items[0].allowances[0].amount',
          'mismatch',
          'amount 12.53 does not equal base_amount x multiplier_factor / 100 = 12.50',
        ],
      ]);
    });
  });

  describe('document allowances and charges', () => {
    it('Given a document allowance and charge without an amount, When completed, Then each amount is reported missing by its path', () => {
      expect(
        problemsOf({
          items: [item()],
          allowances: [{ reason: 'promo' }],
          charges: [{ reason: 'fee', base_amount: 100 }],
        }),
      ).to.deep.equal([
        ['allowances[0].amount', 'missing', MISSING_AMOUNT],
        ['charges[0].amount', 'missing', MISSING_AMOUNT],
      ]);
    });

    it('Given a document charge whose amount disagrees with base_amount x multiplier_factor / 100, When completed, Then it is a mismatch', () => {
      expect(
        problemsOf({
          items: [item()],
          charges: [{ reason: 'fee', amount: 5, base_amount: 100, multiplier_factor: 10 }],
        }),
      ).to.deep.equal([
        ['charges[0].amount', 'mismatch', 'amount 5.00 does not equal base_amount x multiplier_factor / 100 = 10.00'],
      ]);
    });

    it("Given a document charge with its own category (E) but no rate, When completed, Then it goes to that category at 0.00, not to the lines' rate", () => {
      const doc = decode({
        items: [item()],
        vatex: 'VATEX-EU-132-1I',
        charges: [{ reason: 'fee', amount: 10, tax_code: 'E' }],
      });
      expect(completeDocument(doc).problems).to.deep.equal([]);
      expect(breakdownOf(doc)).to.deep.equal([
        ['S', '21.00', '100.00', '21.00'],
        ['E', '0.00', '10.00', '0.00'],
      ]);
    });

    it('Given a document charge in category S without a rate, When completed, Then its tax_rate is reported missing', () => {
      expect(problemsOf({ items: [item()], charges: [{ reason: 'fee', amount: 10, tax_code: 'S' }] })).to.deep.equal([
        ['charges[0].tax_rate', 'missing', 'tax_rate is required for VAT category S'],
      ]);
    });

    it('Given a document not subject to VAT (O) with a charge in O without a rate, When completed, Then nothing is missing: O has no rate', () => {
      const doc = decode({
        tax_code: 'O',
        vatex: 'VATEX-EU-O',
        items: [item({ tax_rate: null })],
        charges: [{ reason: 'fee', amount: 10, tax_code: 'O' }],
      });
      expect(completeDocument(doc).problems).to.deep.equal([]);
      expect(breakdownOf(doc)).to.deep.equal([['O', null, '110.00', '0.00']]);
    });

    it('Given a document allowance without a rate and lines at two rates, When completed, Then the message says the rate is needed', () => {
      const body = { items: [item(), item({ tax_rate: '6.00' })], allowances: [{ reason: 'promo', amount: 10 }] };
      expect(problemsOf(body)).to.deep.equal([
        ['allowances[0].tax_rate', 'missing', 'tax_rate is required when the lines have more than one VAT rate'],
      ]);
    });
  });

  describe('tolerance of a given VAT amount', () => {
    /** n lines of 100/n at 21%: 21.00 VAT in one breakdown entry, given as `amount`. */
    const body = (n: number, amount: string) => ({
      items: Array.from({ length: n }, () => item({ unit_price: (100 / n).toFixed(2) })),
      tax_details: [{ rate: '21.00', amount }],
    });
    const mismatch = (given: string) => [
      ['tax_details[0].amount', 'mismatch', `VAT amount ${given} does not match 21.00 computed for rate 21.00`],
    ];

    it('Given one line, When the VAT amount is 0.02 off, Then it is accepted as given; 0.03 off is a mismatch', () => {
      const { problems, document } = completeDocument(decode(body(1, '21.02')));
      expect(problems).to.deep.equal([]);
      expect(money(document.total_tax!)).to.equal('21.02');
      expect(problemsOf(body(1, '21.03'))).to.deep.equal(mismatch('21.03'));
    });

    it('Given ten lines, When the VAT amount is 0.05 off (half a cent a line), Then it is accepted; 0.06 off is a mismatch', () => {
      expect(problemsOf(body(10, '20.95'))).to.deep.equal([]);
      expect(problemsOf(body(10, '20.94'))).to.deep.equal(mismatch('20.94'));
    });

    it('Given 400 lines, When the VAT amount is 0.99 off, Then it is accepted; 1.00 off is a mismatch (the tolerance stops at 0.99)', () => {
      expect(problemsOf(body(400, '21.99'))).to.deep.equal([]);
      expect(problemsOf(body(400, '22.00'))).to.deep.equal(mismatch('22.00'));
    });

    it("Given the rules mode (a document read from UBL), When one line's VAT amount is 0.99 off, Then it is kept; 1.00 off is a mismatch", () => {
      expect(problemsOf(body(1, '21.99'), 'rules')).to.deep.equal([]);
      expect(problemsOf(body(1, '22.00'), 'rules')).to.deep.equal(mismatch('22.00'));
      expect(problemsOf(body(1, '21.99'), 'strict')).to.deep.equal(mismatch('21.99'));
    });
  });

  describe('exemption reason of the document goes to the category of its vatex', () => {
    const EXEMPT: TaxCode[] = ['E', 'AE', 'K', 'G', 'O'];
    const NOTE = 'Reason given by the seller';
    /** A document with a line in every exempt category, the expected one last (so "the first one" is never right by chance). */
    const withAllExempt = (vatex: string, last: TaxCode): Document => ({
      ...decode({
        vatex_note: NOTE,
        items: [...EXEMPT.filter((c) => c !== last), last].map((c) =>
          item({ description: c, tax_code: c, tax_rate: c === 'O' ? null : '0.00' }),
        ),
      }),
      // Set on the domain document: documents read from UBL may carry any VATEX code, in any case.
      vatex,
    });
    const carriers = (doc: Document): (string | null)[][] =>
      completeDocument(doc)
        .totals.breakdown.filter((b) => b.exemption_reason === NOTE)
        .map((b) => [b.tax_code, b.exemption_reason_code]);

    for (const [vatex, category] of [
      ['VATEX-EU-G', 'G'],
      ['VATEX-EU-O', 'O'],
      ['VATEX-EU-IC', 'K'],
      ['VATEX-EU-AE', 'AE'],
      ['VATEX-FR-AE', 'AE'],
      ['VATEX-EU-132-1I', 'E'],
      ['vatex-eu-ic', 'K'],
    ] as const) {
      it(`Given lines in every exempt category and vatex ${vatex}, When completed, Then only the ${category} entry carries the seller's code and note`, () => {
        expect(carriers(withAllExempt(vatex, category))).to.deep.equal([[category, vatex]]);
      });
    }

    it('Given exempt lines of four categories and no vatex, When completed, Then no entry gets a reason and each category is refused, naming its field', () => {
      const doc = decode({
        items: ['E', 'K', 'G', 'O'].map((c) => item({ tax_code: c, tax_rate: c === 'O' ? null : '0.00' })),
      });
      const { totals, problems } = completeDocument(doc);
      expect(totals.breakdown.map((b) => [b.tax_code, b.exemption_reason_code, b.exemption_reason])).to.deep.equal([
        ['E', null, null],
        ['K', null, null],
        ['G', null, null],
        ['O', null, null],
      ]);
      expect(problems.map((p) => [p.field, p.type, p.rule_id])).to.deep.equal([
        ['vatex', 'missing', 'BR-E-10'],
        ['items[1].tax_code', 'invalid', 'BR-IC-10'],
        ['items[2].tax_code', 'invalid', 'BR-G-10'],
        ['items[3].tax_code', 'invalid', 'BR-O-10'],
      ]);
    });
  });
});
