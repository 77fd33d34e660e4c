import { expect } from 'chai';
import { decodeDocumentInput, fieldPath } from '../../../src/http/codecs/documentCodec.js';
import { toResponse } from '../../../src/domain/document/invoice/documentModel.js';

const item = { description: 'x', quantity: 1, unit_price: 10, tax_rate: '21.00' };
const errorsOf = (body: unknown) => {
  const r = decodeDocumentInput(body);
  if (r.ok) throw new Error('expected errors');
  return r.errors;
};

describe('Create request codec', () => {
  it('Given a minimal body, Then the spec defaults apply (INVOICE, DRAFT, OUTBOUND, EUR, S)', () => {
    const r = decodeDocumentInput({ items: [item] });
    expect(r.ok).to.equal(true);
    if (!r.ok) return;
    expect([r.value.document_type, r.value.state, r.value.direction, r.value.currency, r.value.tax_code]).to.deep.equal(
      ['INVOICE', 'DRAFT', 'OUTBOUND', 'EUR', 'S'],
    );
  });

  it('Given state DRAFT and direction OUTBOUND in the body, Then they are accepted; any other value is a 422 at its field', () => {
    const r = decodeDocumentInput({ items: [item], state: 'DRAFT', direction: 'OUTBOUND' });
    expect(r.ok && [r.value.state, r.value.direction]).to.deep.equal(['DRAFT', 'OUTBOUND']);
    expect(
      errorsOf({ items: [item], state: 'SENT', direction: 'INBOUND' }).map((x) => [fieldPath(x.loc), x.type]),
    ).to.deep.equal([
      ['state', 'enum'],
      ['direction', 'enum'],
    ]);
  });

  it('Given items missing, Then loc is [body, items] with type missing', () => {
    expect(errorsOf({})).to.deep.equal([{ loc: ['body', 'items'], msg: 'Field required', type: 'missing' }]);
  });

  it('Given an empty items list, Then it is too short', () => {
    expect(errorsOf({ items: [] })[0]).to.include({ type: 'too_short' });
  });

  it('Given a numeric line tax_rate, Then it is rejected at items[0].tax_rate', () => {
    const e = errorsOf({ items: [{ ...item, tax_rate: 21 }] });
    expect(e.map((x) => x.loc)).to.deep.equal([['body', 'items', 0, 'tax_rate']]);
    expect(fieldPath(e[0]!.loc)).to.equal('items[0].tax_rate');
  });

  it('Given a non-percentage tax_rate string, Then it is rejected', () => {
    expect(errorsOf({ items: [item, { ...item, tax_rate: 'abc' }] })[0]!.loc).to.deep.equal([
      'body',
      'items',
      1,
      'tax_rate',
    ]);
    expect(errorsOf({ items: [{ ...item, tax_rate: '150.00' }] })[0]!.type).to.equal('value_error');
  });

  it('Given allowances with a plain-number tax_rate, Then they are accepted', () => {
    const r = decodeDocumentInput({
      items: [{ ...item, allowances: [{ amount: 1, tax_rate: 21 }] }],
      allowances: [{ amount: 2, tax_rate: 6 }],
    });
    expect(r.ok).to.equal(true);
  });

  it('Given numeric strings for amounts and quantities, Then they are exact decimals', () => {
    const r = decodeDocumentInput({ items: [{ ...item, quantity: '2.5', unit_price: '0.1' }] });
    if (!r.ok) throw new Error('decode');
    expect(r.value.items[0]!.quantity!.times(r.value.items[0]!.unit_price!).toString()).to.equal('0.25');
    expect(toResponse(r.value).items[0]!.tax_rate).to.equal('21.00');
  });

  it('Given bad dates, an unsupported currency, a bad Peppol id and a failing Belgian VAT, Then each has its own loc', () => {
    const e = errorsOf({
      items: [item],
      invoice_date: '14/03/2025',
      due_date: '2025-02-30',
      currency: 'XYZ',
      customer_peppol_id: '0208-0123456749',
      vendor_tax_id: 'BE0123456748',
    });
    expect(e.map((x) => fieldPath(x.loc)).sort()).to.deep.equal([
      'currency',
      'customer_peppol_id',
      'due_date',
      'invoice_date',
      'vendor_tax_id',
    ]);
    expect(e.find((x) => fieldPath(x.loc) === 'invoice_date')!.msg).to.match(/YYYY-MM-DD/);
  });

  it('Given amounts with more than 2 decimals or negative totals, Then they are rejected', () => {
    const e = errorsOf({ items: [{ ...item, amount: 10.005 }], total_tax: -1 });
    expect(e.map((x) => [fieldPath(x.loc), x.type])).to.deep.equal([
      ['total_tax', 'greater_than_equal'],
      ['items[0].amount', 'decimal_max_places'],
    ]);
  });

  it('Given nested errors, Then the path goes through allowances and attachments', () => {
    const e = errorsOf({
      items: [{ ...item, allowances: [{ amount: 'ten' }] }],
      attachments: [{ file_type: 'application/pdf' }],
    });
    expect(e.map((x) => fieldPath(x.loc))).to.deep.equal(['items[0].allowances[0].amount', 'attachments[0].file_name']);
  });

  it('Given unit_code instead of unit, Then it is used as the unit', () => {
    const r = decodeDocumentInput({ items: [{ ...item, unit_code: 'HUR' }] });
    if (!r.ok) throw new Error('decode');
    expect(r.value.items[0]!.unit).to.equal('HUR');
  });

  it('fieldPath drops body and renders indexes', () => {
    expect(fieldPath(['body', 'tax_details', 2, 'rate'])).to.equal('tax_details[2].rate');
    expect(fieldPath(['body', 'currency'])).to.equal('currency');
  });
});
