import { expect } from 'chai';
import { decodeDocumentInput } from '../../../src/http/codecs/documentCodec.js';
import type { Document } from '../../../src/domain/document/invoice/documentModel.js';
import { completeDocument } from '../../../src/domain/document/invoice/documentTotals.js';
import type { CompletedDocument, ToleranceMode } from '../../../src/domain/document/invoice/documentTotals.js';
import { money } from '../../../src/domain/document/invoice/money.js';

// The VAT breakdown (BG-23) as completeDocument builds it and checks the caller's tax_details
// against it, the document totals (BG-22) and the amounts the caller may give for them.

const decode = (body: Record<string, unknown>): Document => {
  const r = decodeDocumentInput(body);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value;
};

const complete = (body: Record<string, unknown>, mode: ToleranceMode = 'strict'): CompletedDocument =>
  completeDocument(decode(body), mode);

const item = (unit_price: number | string, tax_rate: string | null = '21.00', extra: Record<string, unknown> = {}) => ({
  description: 'item',
  quantity: 1,
  unit_price,
  ...(tax_rate === null ? {} : { tax_rate }),
  ...extra,
});

const fieldsOf = (r: CompletedDocument) => r.problems.map((p) => p.field);
const problemsOf = (r: CompletedDocument) => r.problems.map((p) => [p.field, p.type, p.message]);
const breakdownOf = (r: CompletedDocument) =>
  r.totals.breakdown.map((b) => [
    b.tax_code,
    b.rate === null ? null : b.rate.toFixed(2),
    money(b.taxable_amount),
    money(b.tax_amount),
  ]);

describe('EN 16931 totals: the VAT breakdown and the document totals', () => {
  describe("matching the caller's tax_details to the VAT groups", () => {
    it("Given tax_details in another order than the lines, Then each entry is matched by its rate and the caller's order is kept", () => {
      const r = complete({
        items: [item(100), item(50, '6.00')],
        tax_details: [
          { rate: '6.00', taxable_amount: 50, amount: 3 },
          { rate: '21.00', taxable_amount: 100, amount: 21 },
        ],
      });
      expect(r.problems).to.deep.equal([]);
      expect(breakdownOf(r)).to.deep.equal([
        ['S', '6.00', '50.00', '3.00'],
        ['S', '21.00', '100.00', '21.00'],
      ]);
    });

    it('Given one 0% entry without category and 0% lines of two categories, Then the entry is matched once, by the first, and the second keeps its own figures', () => {
      const r = complete({
        vatex_note: 'Exempt under art. 44 of the VAT code',
        items: [item(100, '0.00', { tax_code: 'E' }), item(50, '0.00')],
        tax_details: [{ rate: 0, taxable_amount: 100, amount: 0 }],
      });
      expect(r.problems).to.deep.equal([]);
      expect(breakdownOf(r)).to.deep.equal([
        ['E', '0.00', '100.00', '0.00'],
        ['Z', '0.00', '50.00', '0.00'],
      ]);
    });

    it('Given 0% entries naming their categories, Then each is matched to its own category, not merely by rate', () => {
      const r = complete({
        vatex_note: 'Exempt under art. 44 of the VAT code',
        items: [item(100, '0.00', { tax_code: 'E' }), item(50, '0.00')],
        tax_details: [
          { tax_code: 'Z', rate: 0, taxable_amount: 50, amount: 0 },
          { tax_code: 'E', rate: 0, taxable_amount: 100, amount: 0 },
        ],
      });
      expect(r.problems).to.deep.equal([]);
      expect(breakdownOf(r)).to.deep.equal([
        ['Z', '0.00', '50.00', '0.00'],
        ['E', '0.00', '100.00', '0.00'],
      ]);
    });

    it('Given a category O (outside scope) entry with a VAT rate, Then it is refused: no line is outside scope at that rate', () => {
      const r = complete({
        vatex: 'VATEX-EU-O',
        items: [item(100, null, { tax_code: 'O' })],
        tax_details: [{ tax_code: 'O', rate: '21.00', taxable_amount: 100 }],
      });
      expect(problemsOf(r)).to.deep.equal([
        ['tax_details[0]', 'mismatch', 'no line or allowance/charge has VAT rate 21.00 in category O'],
      ]);
      expect(breakdownOf(r)).to.deep.equal([['O', null, '100.00', '0.00']]);
    });

    it('Given an entry without a rate in a 21% document, Then it is refused as matching no line', () => {
      const r = complete({ items: [item(100)], tax_details: [{ taxable_amount: 100, amount: 21 }] });
      expect(problemsOf(r)).to.deep.equal([
        ['tax_details[0]', 'mismatch', 'no line or allowance/charge has VAT rate none'],
      ]);
    });

    it('Given an entry at a rate no line or allowance/charge has, Then that entry is refused and the matched one is not', () => {
      const r = complete({
        items: [item(100)],
        tax_details: [
          { rate: '21.00', taxable_amount: 100, amount: 21 },
          { tax_code: 'S', rate: '6.00', taxable_amount: 10, amount: 0.6 },
        ],
      });
      expect(problemsOf(r)).to.deep.equal([
        ['tax_details[1]', 'mismatch', 'no line or allowance/charge has VAT rate 6.00 in category S'],
      ]);
    });
  });

  describe('taxable_amount given in tax_details', () => {
    it('Given a wrong taxable_amount, Then it is refused with the sum of the lines', () => {
      const r = complete({ items: [item(100)], tax_details: [{ rate: '21.00', taxable_amount: 90, amount: 21 }] });
      expect(problemsOf(r)).to.deep.equal([
        [
          'tax_details[0].taxable_amount',
          'mismatch',
          'taxable amount 90.00 does not equal the sum of the lines 100.00',
        ],
      ]);
    });

    it('Given a taxable_amount one cent off, Then the API refuses it (taxable amounts are exact)', () => {
      const r = complete({ items: [item(100)], tax_details: [{ rate: '21.00', taxable_amount: 100.01, amount: 21 }] });
      expect(fieldsOf(r)).to.deep.equal(['tax_details[0].taxable_amount']);
    });

    it("When a document read from UBL ('rules') has a taxable_amount within 0.99, Then its own figure is kept; 1.00 off is refused", () => {
      const kept = complete(
        { items: [item(100)], tax_details: [{ rate: '21.00', taxable_amount: 100.99, amount: 21 }] },
        'rules',
      );
      expect(kept.problems).to.deep.equal([]);
      expect(breakdownOf(kept)).to.deep.equal([['S', '21.00', '100.99', '21.00']]);
      const refused = complete(
        { items: [item(100)], tax_details: [{ rate: '21.00', taxable_amount: 101, amount: 21 }] },
        'rules',
      );
      expect(fieldsOf(refused)).to.deep.equal(['tax_details[0].taxable_amount']);
    });

    it('When a document read from UBL has a zero-rated taxable_amount one cent off, Then it is refused: a single-entry category has no tolerance', () => {
      const r = complete(
        { items: [item(100, '0.00')], tax_details: [{ tax_code: 'Z', rate: 0, taxable_amount: 100.01, amount: 0 }] },
        'rules',
      );
      expect(fieldsOf(r)).to.deep.equal(['tax_details[0].taxable_amount']);
    });

    it('Given an entry with a taxable_amount and no VAT amount, Then the VAT amount is computed', () => {
      const r = complete({ items: [item(100)], tax_details: [{ rate: '21.00', taxable_amount: 100 }] });
      expect(r.problems).to.deep.equal([]);
      expect(breakdownOf(r)).to.deep.equal([['S', '21.00', '100.00', '21.00']]);
    });
  });

  describe('VAT amount given in tax_details: per-line rounding tolerance', () => {
    const withVat = (lines: number, amount: number, mode: ToleranceMode = 'strict') =>
      complete(
        { items: Array.from({ length: lines }, () => item(100 / lines)), tax_details: [{ rate: '21.00', amount }] },
        mode,
      );

    it('Given one line, Then a VAT amount 0.02 off is accepted and kept, 0.03 off is refused with the computed amount', () => {
      const accepted = withVat(1, 21.02);
      expect(accepted.problems).to.deep.equal([]);
      expect(breakdownOf(accepted)).to.deep.equal([['S', '21.00', '100.00', '21.02']]);
      expect(problemsOf(withVat(1, 20.97))).to.deep.equal([
        ['tax_details[0].amount', 'mismatch', 'VAT amount 20.97 does not match 21.00 computed for rate 21.00'],
      ]);
    });

    it('Given ten lines at the rate, Then up to 0.05 (0.005 a line) is accepted and 0.06 refused', () => {
      expect(withVat(10, 21.05).problems).to.deep.equal([]);
      expect(breakdownOf(withVat(10, 21.05))).to.deep.equal([['S', '21.00', '100.00', '21.05']]);
      expect(fieldsOf(withVat(10, 21.06))).to.deep.equal(['tax_details[0].amount']);
    });

    it('Given 200 lines at the rate, Then the tolerance stops at 0.99', () => {
      expect(withVat(200, 21.99).problems).to.deep.equal([]);
      expect(fieldsOf(withVat(200, 22))).to.deep.equal(['tax_details[0].amount']);
    });

    it("When a document read from UBL ('rules') has one line, Then a VAT amount within 0.99 is kept and 1.00 off is refused", () => {
      const kept = withVat(1, 21.99, 'rules');
      expect(kept.problems).to.deep.equal([]);
      expect(breakdownOf(kept)).to.deep.equal([['S', '21.00', '100.00', '21.99']]);
      expect(fieldsOf(withVat(1, 22, 'rules'))).to.deep.equal(['tax_details[0].amount']);
    });

    it('Given IGIC (L) at 0%, Then the API refuses even 0.01 of VAT (at 0% nothing is rounded), while a document read from UBL keeps the 0.40 that BR-CO-17 accepts', () => {
      const igic = (amount: number, mode?: ToleranceMode) =>
        complete(
          {
            items: [item(100, '0.00', { tax_code: 'L' })],
            tax_details: [{ tax_code: 'L', rate: 0, taxable_amount: 100, amount }],
          },
          mode,
        );
      expect(problemsOf(igic(0.01))).to.deep.equal([
        ['tax_details[0].amount', 'mismatch', 'VAT amount 0.01 does not match 0.00 computed for rate 0.00'],
      ]);
      const kept = igic(0.4, 'rules');
      expect(kept.problems).to.deep.equal([]);
      expect(breakdownOf(kept)).to.deep.equal([['L', '0.00', '100.00', '0.40']]);
    });

    it('Given VAT on a category O entry, Then it is refused as computed for no rate', () => {
      const r = complete({
        vatex: 'VATEX-EU-O',
        items: [item(100, null, { tax_code: 'O' })],
        tax_details: [{ tax_code: 'O', taxable_amount: 100, amount: 5 }],
      });
      expect(problemsOf(r)).to.deep.equal([
        ['tax_details[0].amount', 'mismatch', 'VAT amount 5.00 does not match 0.00 computed for rate none'],
      ]);
    });
  });

  describe('entries no line or allowance/charge has', () => {
    const rated = { rate: '21.00', taxable_amount: 100, amount: 21 };

    it('When a document read from UBL has empty entries (0.00 taxable, 0.00 or no VAT) of other categories, Then they are kept in the breakdown', () => {
      const r = complete(
        {
          items: [item(100)],
          tax_details: [
            rated,
            { tax_code: 'E', rate: 0, taxable_amount: 0, amount: 0 },
            { tax_code: 'K', taxable_amount: 0 },
          ],
        },
        'rules',
      );
      expect(r.problems).to.deep.equal([]);
      expect(breakdownOf(r)).to.deep.equal([
        ['S', '21.00', '100.00', '21.00'],
        ['E', '0.00', '0.00', '0.00'],
        ['K', '0.00', '0.00', '0.00'],
      ]);
    });

    it('When a document read from UBL has an entry with VAT, without a taxable amount or without a category, Then each is refused', () => {
      const r = complete(
        {
          items: [item(100)],
          tax_details: [
            rated,
            { tax_code: 'E', taxable_amount: 0, amount: 5 },
            { tax_code: 'E', amount: 0 },
            { rate: 0, taxable_amount: 0, amount: 0 },
          ],
        },
        'rules',
      );
      expect(problemsOf(r)).to.deep.equal([
        ['tax_details[1]', 'mismatch', 'no line or allowance/charge has VAT rate none in category E'],
        ['tax_details[2]', 'mismatch', 'no line or allowance/charge has VAT rate none in category E'],
        ['tax_details[3]', 'mismatch', 'no line or allowance/charge has VAT rate 0.00'],
      ]);
      expect(breakdownOf(r)).to.deep.equal([['S', '21.00', '100.00', '21.00']]);
    });

    it('Given an empty entry of another category in an API request, Then it is refused', () => {
      const r = complete({
        items: [item(100)],
        tax_details: [rated, { tax_code: 'E', rate: 0, taxable_amount: 0, amount: 0 }],
      });
      expect(problemsOf(r)).to.deep.equal([
        ['tax_details[1]', 'mismatch', 'no line or allowance/charge has VAT rate 0.00 in category E'],
      ]);
    });
  });

  describe('total_tax without a breakdown', () => {
    it('Given a total one cent off, Then the difference goes on the rated entry with the largest taxable amount, never on a zero-rated one', () => {
      const r = complete({ items: [item(50, '6.00'), item(100), item(1000, '0.00')], total_tax: 24.01 });
      expect(r.problems).to.deep.equal([]);
      expect(breakdownOf(r)).to.deep.equal([
        ['S', '6.00', '50.00', '3.00'],
        ['S', '21.00', '100.00', '21.01'],
        ['Z', '0.00', '1000.00', '0.00'],
      ]);
      expect(money(r.totals.tax_total)).to.equal('24.01');
    });

    it('When a received document has a line without its VAT rate, Then the difference still goes on an entry that has a rate', () => {
      const r = complete({ items: [item(1000, null), item(100)], total_tax: 21.01 }, 'rules');
      expect(fieldsOf(r)).to.deep.equal(['items[0].tax_rate']);
      expect(breakdownOf(r)).to.deep.equal([
        ['S', null, '1000.00', '0.00'],
        ['S', '21.00', '100.00', '21.01'],
      ]);
    });

    it('Given a line without its VAT rate in an API request, Then that rate is reported and the difference goes on the entry that has one', () => {
      const r = complete({ items: [item(1000, null), item(100)], total_tax: 21.01 });
      expect(fieldsOf(r)).to.deep.equal(['items[0].tax_rate']);
      expect(breakdownOf(r)).to.deep.equal([
        ['S', null, '1000.00', '0.00'],
        ['S', '21.00', '100.00', '21.01'],
      ]);
    });

    it('Given only zero-rated lines and a total one cent above 0.00, Then total_tax is refused', () => {
      const r = complete({ items: [item(100, '0.00')], total_tax: 0.01 });
      expect(problemsOf(r)).to.deep.equal([
        ['total_tax', 'mismatch', 'total_tax 0.01 does not equal the VAT breakdown total 0.00'],
      ]);
    });

    it('Given a total one cent off a breakdown the caller gave, Then total_tax is refused: the given breakdown is the total', () => {
      const r = complete({
        items: [item(100)],
        tax_details: [{ rate: '21.00', taxable_amount: 100, amount: 21 }],
        total_tax: 21.01,
      });
      expect(problemsOf(r)).to.deep.equal([
        ['total_tax', 'mismatch', 'total_tax 21.01 does not equal the VAT breakdown total 21.00'],
      ]);
    });

    it('When a document read from UBL has a total within 0.99 of its breakdown, Then the total is kept; the API refuses 0.50 off on one line', () => {
      const kept = complete({ items: [item(100)], total_tax: 21.99 }, 'rules');
      expect(kept.problems).to.deep.equal([]);
      expect(breakdownOf(kept)).to.deep.equal([['S', '21.00', '100.00', '21.99']]);
      expect(fieldsOf(complete({ items: [item(100)], total_tax: 21.5 }))).to.deep.equal(['total_tax']);
    });
  });

  describe('document totals given by the caller (BT-109, BT-112) and total_discount', () => {
    it('Given subtotal and invoice_total that agree, Then nothing is refused and no total_discount means 0.00', () => {
      const r = complete({ items: [item(100)], subtotal: 100, invoice_total: 121, total_tax: 21 });
      expect(r.problems).to.deep.equal([]);
      expect(money(r.document.total_discount!)).to.equal('0.00');
      expect([
        money(r.document.subtotal!),
        money(r.document.total_tax!),
        money(r.document.invoice_total!),
      ]).to.deep.equal(['100.00', '21.00', '121.00']);
    });

    it('Given subtotal, invoice_total and total_discount that disagree, Then each is refused with the figure EN 16931 computes', () => {
      const r = complete({ items: [item(100)], subtotal: 90, invoice_total: 130, total_discount: 5 });
      expect(problemsOf(r)).to.deep.equal([
        ['subtotal', 'mismatch', 'subtotal 90.00 does not equal lines - allowances + charges = 100.00'],
        [
          'total_discount',
          'invalid',
          'EN 16931 has no allowances or charges outside VAT: give them in allowances/charges with a tax_code',
        ],
        ['invoice_total', 'mismatch', 'invoice_total 130.00 does not equal subtotal + total_tax = 121.00'],
      ]);
    });

    it("Given an amount_due and a previous unpaid balance, Then the amount due is the caller's and the prepaid amount is what the total leaves", () => {
      const { totals } = complete({ items: [item(100)], amount_due: 150, previous_unpaid_balance: 50 });
      expect([
        money(totals.tax_inclusive),
        money(totals.payable),
        money(totals.prepaid),
        money(totals.rounding),
      ]).to.deep.equal(['121.00', '150.00', '-29.00', '0.00']);
    });
  });

  describe('line VAT (items[].tax)', () => {
    it("Given no line tax, Then each line's tax is its amount x rate rounded, and none for a line outside scope", () => {
      const r = complete({ items: [item('10.05'), item(100, null, { tax_code: 'O' })], tax_code: 'S' });
      expect(r.document.items.map((l) => l.tax!.toFixed(2))).to.deep.equal(['2.11', '0.00']);
    });

    it("Given a line tax one cent off, Then the caller's figure is kept; two cents off, Then it is refused", () => {
      const kept = complete({ items: [item(100, '21.00', { tax: 21.01 })] });
      expect(kept.problems).to.deep.equal([]);
      expect(kept.document.items[0]!.tax!.toFixed(2)).to.equal('21.01');
      expect(problemsOf(complete({ items: [item(100, '21.00', { tax: 21.02 })] }))).to.deep.equal([
        ['items[0].tax', 'mismatch', 'line tax 21.02 does not equal amount x tax_rate = 21.00'],
      ]);
    });
  });

  describe('allowance/charge amount = base_amount x multiplier_factor / 100 (PEPPOL-EN16931-R040)', () => {
    it('Given a document allowance whose amount disagrees with its base and percentage, Then it is refused', () => {
      const r = complete({
        items: [item(200)],
        allowances: [{ reason: 'promo', amount: 10, base_amount: 100, multiplier_factor: 20, tax_rate: '21.00' }],
      });
      expect(problemsOf(r)).to.deep.equal([
        [
          'allowances[0].amount',
          'mismatch',
          'amount 10.00 does not equal base_amount x multiplier_factor / 100 = 20.00',
        ],
      ]);
    });

    it('Given a line charge whose amount disagrees with its base and percentage, Then it is refused', () => {
      const r = complete({
        items: [
          item(100, '21.00', { charges: [{ reason: 'fee', amount: 3, base_amount: 100, multiplier_factor: 5 }] }),
        ],
      });
      expect(problemsOf(r)).to.deep.equal([
        [
          'items[0].charges[0].amount',
          'mismatch',
          'amount 3.00 does not equal base_amount x multiplier_factor / 100 = 5.00',
        ],
      ]);
    });

    it('Given amounts within 0.02 of base x percentage, Then they are accepted; 0.03 off is refused', () => {
      const allowance = (amount: number) =>
        complete({
          items: [item(200)],
          allowances: [{ reason: 'promo', amount, base_amount: 100, multiplier_factor: 20, tax_rate: '21.00' }],
        });
      expect(allowance(20.02).problems).to.deep.equal([]);
      expect(allowance(19.98).problems).to.deep.equal([]);
      expect(fieldsOf(allowance(20.03))).to.deep.equal(['allowances[0].amount']);
      expect(fieldsOf(allowance(19.97))).to.deep.equal(['allowances[0].amount']);
    });

    it('Given base x percentage with three decimals, Then it is compared unrounded: 0.025 off is refused', () => {
      const r = complete({
        items: [item(200)],
        allowances: [{ reason: 'promo', amount: 10.03, base_amount: 100.05, multiplier_factor: 10, tax_rate: '21.00' }],
      });
      expect(problemsOf(r)).to.deep.equal([
        [
          'allowances[0].amount',
          'mismatch',
          'amount 10.03 does not equal base_amount x multiplier_factor / 100 = 10.01',
        ],
      ]);
    });

    it('Given an amount with only a percentage, or only a base, Then the amount stands and nothing is refused', () => {
      const r = complete({
        items: [item(200)],
        allowances: [
          { reason: 'a', amount: 10, multiplier_factor: 20, tax_rate: '21.00' },
          { reason: 'b', amount: 5, base_amount: 100, tax_rate: '21.00' },
        ],
      });
      expect(r.problems).to.deep.equal([]);
      expect(money(r.totals.allowance_total)).to.equal('15.00');
    });
  });

  describe('exemption reasons of the exempt entries', () => {
    it("Given a vatex of one exempt category and lines of two, Then the vatex and its note go on that category's entry only", () => {
      const r = complete({
        tax_code: 'E',
        vatex: 'VATEX-EU-IC',
        vatex_note: 'Intra-community supply of goods',
        items: [item(100, '0.00', { tax_code: 'E' }), item(200, '0.00', { tax_code: 'K' })],
      });
      const [e, k] = r.totals.breakdown;
      expect([e!.tax_code, e!.exemption_reason_code, e!.exemption_reason]).to.deep.equal(['E', null, null]);
      // The E lines' reason cannot be stated next to K's in one document: refused, naming the first E line.
      expect(r.problems.map((p) => [p.field, p.rule_id])).to.deep.equal([['items[0].tax_code', 'BR-E-10']]);
      expect([k!.tax_code, k!.exemption_reason_code, k!.exemption_reason]).to.deep.equal([
        'K',
        'VATEX-EU-IC',
        'Intra-community supply of goods',
      ]);
    });

    it("Given a vatex whose category has no entry, Then the vatex and its note go on the entry of the document's category", () => {
      const r = complete({
        tax_code: 'AE',
        vatex: 'VATEX-EU-G',
        vatex_note: 'Export',
        items: [item(100, '0.00', { tax_code: 'E' }), item(200, '0.00')],
      });
      const [e, ae] = r.totals.breakdown;
      expect([e!.tax_code, e!.exemption_reason_code, e!.exemption_reason]).to.deep.equal(['E', null, null]);
      expect(r.problems.map((p) => [p.field, p.rule_id])).to.deep.equal([['items[0].tax_code', 'BR-E-10']]);
      expect([ae!.tax_code, ae!.exemption_reason_code, ae!.exemption_reason]).to.deep.equal([
        'AE',
        'VATEX-EU-G',
        'Export',
      ]);
    });

    // The reason is a legal statement of the seller's: nothing is filled in on their behalf.
    const CASES: Array<{ code: string; rule: string; vatex: string; rate: string | null }> = [
      { code: 'E', rule: 'BR-E-10', vatex: 'VATEX-EU-132-1I', rate: '0.00' },
      { code: 'AE', rule: 'BR-AE-10', vatex: 'VATEX-EU-AE', rate: '0.00' },
      { code: 'K', rule: 'BR-IC-10', vatex: 'VATEX-EU-IC', rate: '0.00' },
      { code: 'G', rule: 'BR-G-10', vatex: 'VATEX-EU-G', rate: '0.00' },
      { code: 'O', rule: 'BR-O-10', vatex: 'VATEX-EU-O', rate: null },
    ];
    for (const c of CASES) {
      it(`Given a category ${c.code} line and neither vatex nor vatex_note, Then vatex is refused as missing (${c.rule}) and the entry has no reason`, () => {
        const r = complete({ tax_code: c.code, items: [item(100, c.rate, { tax_code: c.code })] });
        expect(r.problems.map((p) => [p.field, p.type, p.rule_id])).to.deep.equal([['vatex', 'missing', c.rule]]);
        expect(r.problems[0]!.message).to.contain(`VAT category ${c.code}`).and.to.contain('vatex');
        const [entry] = r.totals.breakdown;
        expect([entry!.tax_code, entry!.exemption_reason_code, entry!.exemption_reason]).to.deep.equal([
          c.code,
          null,
          null,
        ]);
      });

      it(`Given a category ${c.code} line with a vatex code only, Then the entry states that code and no text`, () => {
        const r = complete({ tax_code: c.code, vatex: c.vatex, items: [item(100, c.rate, { tax_code: c.code })] });
        expect(r.problems).to.deep.equal([]);
        const [entry] = r.totals.breakdown;
        expect([entry!.exemption_reason_code, entry!.exemption_reason]).to.deep.equal([c.vatex, null]);
      });

      it(`Given a category ${c.code} line with a vatex_note only, Then the entry states that text exactly and no code`, () => {
        const note = `Reason stated for ${c.code}, art. 9`;
        const r = complete({ tax_code: c.code, vatex_note: note, items: [item(100, c.rate, { tax_code: c.code })] });
        expect(r.problems).to.deep.equal([]);
        const [entry] = r.totals.breakdown;
        expect([entry!.exemption_reason_code, entry!.exemption_reason]).to.deep.equal([null, note]);
      });
    }

    it('Given a blank vatex_note and no vatex, Then vatex is refused as missing: blank is no reason', () => {
      const r = complete({ tax_code: 'E', vatex_note: '   ', items: [item(100, '0.00', { tax_code: 'E' })] });
      expect(r.problems.map((p) => [p.field, p.rule_id])).to.deep.equal([['vatex', 'BR-E-10']]);
    });

    it('Given exempt entries of two categories and no vatex nor note, Then both are refused, each naming its field, and no entry gets a reason', () => {
      const r = complete({ items: [item(100, '0.00', { tax_code: 'AE' }), item(50, '0.00', { tax_code: 'E' })] });
      expect(r.totals.breakdown.map((b) => [b.tax_code, b.exemption_reason_code, b.exemption_reason])).to.deep.equal([
        ['AE', null, null],
        ['E', null, null],
      ]);
      expect(r.problems.map((p) => [p.field, p.rule_id])).to.deep.equal([
        ['vatex', 'BR-AE-10'],
        ['items[1].tax_code', 'BR-E-10'],
      ]);
    });

    it('Given exempt categories of document allowances and charges beside the stated one, Then each is refused at its first allowance or charge', () => {
      const r = complete({
        tax_code: 'AE',
        vatex: 'VATEX-EU-AE',
        items: [item(100, '0.00', { tax_code: 'AE' })],
        allowances: [
          { reason: 'a', amount: 5, tax_rate: '0.00', tax_code: 'AE' },
          { reason: 'b', amount: 5, tax_rate: '0.00', tax_code: 'E' },
        ],
        charges: [
          { reason: 'c', amount: 5, tax_rate: '0.00', tax_code: 'AE' },
          { reason: 'd', amount: 20, tax_rate: '0.00', tax_code: 'K' },
        ],
      });
      expect(r.totals.breakdown.map((b) => [b.tax_code, b.exemption_reason_code])).to.deep.equal([
        ['AE', 'VATEX-EU-AE'],
        ['K', null],
        ['E', null],
      ]);
      expect(r.problems.map((p) => [p.field, p.type, p.rule_id])).to.deep.equal([
        ['charges[1].tax_code', 'invalid', 'BR-IC-10'],
        ['allowances[1].tax_code', 'invalid', 'BR-E-10'],
      ]);
      const first = complete({
        tax_code: 'AE',
        vatex: 'VATEX-EU-AE',
        items: [item(100, '0.00', { tax_code: 'AE' })],
        allowances: [{ reason: 'b', amount: 5, tax_rate: '0.00', tax_code: 'E' }],
        charges: [{ reason: 'd', amount: 20, tax_rate: '0.00', tax_code: 'K' }],
      });
      expect(first.problems.map((p) => p.field)).to.deep.equal(['charges[0].tax_code', 'allowances[0].tax_code']);
      expect(r.problems[1]!.message).to.equal(
        'VAT category E requires its own exemption reason, but a document states one (vatex / vatex_note), which is for category AE: put the category E lines in a separate document with their vatex or vatex_note',
      );
    });

    it('Given a document read from UBL (rules mode) with an exempt entry and no reason, Then no field problem: the rule engine reports what its sender wrote', () => {
      const r = complete({ items: [item(100, '0.00', { tax_code: 'E' })] }, 'rules');
      expect(r.problems).to.deep.equal([]);
      expect(r.totals.breakdown[0]!.exemption_reason).to.equal(null);
    });
  });
});
