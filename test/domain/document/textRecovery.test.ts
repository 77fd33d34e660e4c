import { expect } from 'chai';
import { dateIn, datesIn } from '../../../src/domain/document/pdf-text/dates.js';
import { bicIn, ibansIn, isValidIban, vatNumbersIn } from '../../../src/domain/document/pdf-text/identifiers.js';
import { lineTable, unitCodeOf, vatCellOf } from '../../../src/domain/document/pdf-text/lineTable.js';
import {
  decimalSeparatorOf,
  lastAmountIn,
  numbersIn,
  parseNumber,
  percentIn,
} from '../../../src/domain/document/pdf-text/numbers.js';
import { recoverFromText } from '../../../src/domain/document/pdf-text/recoverDocument.js';
import { rowsOf, rowsOfPages } from '../../../src/domain/document/pdf-text/textLayout.js';
import type { TextItem, TextPage } from '../../../src/domain/document/pdf-text/textLayout.js';
import { checkVatDigits } from '../../../src/domain/document/invoice/vatCheckDigits.js';
import {
  amountText,
  groupThousands,
  ibanText,
  priceText,
} from '../../../src/domain/document/presentation/documentPresentation.js';
import { Dec } from '../../../src/domain/document/invoice/money.js';
import { completeDocument } from '../../../src/domain/document/invoice/documentTotals.js';

const num = (raw: string, sep: '.' | ',') => parseNumber(raw, sep)?.toFixed() ?? null;

/** A page laid out on a 12-point grid: each line is [y, [x, text]...]. */
const page = (lines: Array<[number, ...Array<[number, string]>]>, size = 10): TextPage => ({
  width: 595,
  height: 842,
  items: lines.flatMap(([y, ...cells]) =>
    cells.map(([x, t]): TextItem => ({ text: t, x, y, width: t.length * size * 0.5, height: size })),
  ),
});

describe('Text recovery: printed numbers', () => {
  it('decides the decimal separator from the amounts of the whole document', () => {
    expect(decimalSeparatorOf('Total 1,234.56\nVAT 259.29')).to.equal('.');
    expect(decimalSeparatorOf('Totaal € 1.234,56\nBTW 259,29')).to.equal(',');
    expect(decimalSeparatorOf('Total HT 1 645,50 €')).to.equal(',');
    // Dates such as 14.03.2025 are not amounts.
    expect(decimalSeparatorOf('Datum 14.03.2025 Betrag 12,50')).to.equal(',');
  });

  it('reads amounts with grouping, currency, and every way of writing a negative', () => {
    expect(num('1,234.56', '.')).to.equal('1234.56');
    expect(num('1.234,56', ',')).to.equal('1234.56');
    expect(num('1 234,56', ',')).to.equal('1234.56');
    expect(num("1'234.50", '.')).to.equal('1234.5');
    expect(num('EUR 4,892.00', '.')).to.equal('4892');
    expect(num('€ 647,50', ',')).to.equal('647.5');
    expect(num('1 974,60 €', ',')).to.equal('1974.6');
    expect(num('−51.00', '.')).to.equal('-51');
    expect(num('(51.00)', '.')).to.equal('-51');
    expect(num('51.00-', '.')).to.equal('-51');
    // Wrong grouping is not a number: "1,23,4" could be anything.
    expect(num('1,23,4.00', '.')).to.equal(null);
    expect(num('12 abc', '.')).to.equal(null);
  });

  it('finds the numbers in a line, and the last 2-decimal amount of a totals line', () => {
    expect(numbersIn('VAT 21% on 100.00 21.00', '.').map((n) => n.value.toFixed())).to.deep.equal(['21', '100', '21']);
    expect(lastAmountIn('BTW 21% over € 400,00  € 84,00', ',')!.toFixed(2)).to.equal('84.00');
    expect(lastAmountIn('Amount due  EUR 1,493.99', '.')!.toFixed(2)).to.equal('1493.99');
    expect(lastAmountIn('Invoice 2025-1043', '.')).to.equal(null);
  });

  it('reads VAT rates written as 21%, 21 %, 5,5 % and 5.50%', () => {
    expect(percentIn('21%')!.toFixed()).to.equal('21');
    expect(percentIn('TVA 20 %')!.toFixed()).to.equal('20');
    expect(percentIn('5,5 %')!.toFixed()).to.equal('5.5');
    expect(percentIn('5.50%')!.toFixed()).to.equal('5.5');
  });
});

describe('Text recovery: dates', () => {
  it('reads ISO, day-first numeric and month-name dates in four languages', () => {
    expect(dateIn('Invoice date: 2025-03-14')).to.equal('2025-03-14');
    expect(dateIn('Factuurdatum: 14-03-2025')).to.equal('2025-03-14');
    expect(dateIn('Rechnungsdatum: 14.03.2025')).to.equal('2025-03-14');
    expect(dateIn('Date: 14/03/25')).to.equal('2025-03-14');
    expect(dateIn('Invoice date: 14 March 2025')).to.equal('2025-03-14');
    expect(dateIn('Dated March 14, 2025')).to.equal('2025-03-14');
    expect(dateIn('Date de facture : 14 mars 2025')).to.equal('2025-03-14');
    expect(dateIn('Datum: 14. März 2025')).to.equal('2025-03-14');
    expect(dateIn('14 maart 2025')).to.equal('2025-03-14');
  });

  it('reads month-first only when day-first is not a date, and rejects impossible dates', () => {
    expect(dateIn('03/25/2025')).to.equal('2025-03-25');
    expect(dateIn('04/03/2025')).to.equal('2025-03-04');
    expect(dateIn('2025-02-30')).to.equal(null);
    expect(dateIn('31.02.2025')).to.equal(null);
  });

  it('finds both dates of a period, and does not read amounts as dates', () => {
    expect(datesIn('Leistungszeitraum: 01.03.2025 – 31.03.2025').map((d) => d.date)).to.deep.equal([
      '2025-03-01',
      '2025-03-31',
    ]);
    expect(datesIn('Total 1.234,56 and 12.50')).to.deep.equal([]);
  });
});

describe('Text recovery: identifiers with their check digits', () => {
  it('accepts an IBAN only with its country length and a valid MOD 97, printed with or without spaces', () => {
    expect(isValidIban('BE68539007547034')).to.equal(true);
    expect(isValidIban('BE68539007547035')).to.equal(false);
    expect(ibansIn('IBAN: NL91 ABNA 0417 1643 00 · BIC: ABNANL2A')).to.deep.equal(['NL91ABNA0417164300']);
    expect(ibansIn('IBAN DE89 3704 0044 0532 0130 00 BIC COBADEFFXXX')).to.deep.equal(['DE89370400440532013000']);
    expect(ibansIn('IBAN BE68 5390 0754 7035')).to.deep.equal([]);
    expect(bicIn('IBAN … · BIC: ABNANL2A')).to.equal('ABNANL2A');
  });

  it('finds VAT numbers as people print them, refusing Belgian numbers that fail mod-97', () => {
    expect(vatNumbersIn('VAT BE 0403.013.026').map((v) => v.value)).to.deep.equal(['BE0403013026']);
    expect(vatNumbersIn('BTW BE0403.013.027').map((v) => v.value)).to.deep.equal([]);
    expect(vatNumbersIn('Btw-nummer: NL004495445B01').map((v) => [v.value, v.verdict])).to.deep.equal([
      ['NL004495445B01', 'valid'],
    ]);
    expect(vatNumbersIn('USt-IdNr.: DE136695976').map((v) => [v.value, v.verdict])).to.deep.equal([
      ['DE136695976', 'valid'],
    ]);
    expect(vatNumbersIn('N° TVA : FR44732829320').map((v) => [v.value, v.verdict])).to.deep.equal([
      ['FR44732829320', 'valid'],
    ]);
    // The generic shape needs a VAT label: an order number is not a VAT number.
    expect(vatNumbersIn('Order PL 1234567890')).to.deep.equal([]);
    expect(vatNumbersIn('VAT: PL 526-000-12-46').map((v) => v.value)).to.deep.equal(['PL5260001246']);
  });

  it('checks the digits of German, Dutch, French, Italian, Luxembourg, Danish and Polish numbers', () => {
    expect(checkVatDigits('DE136695976')).to.equal('valid');
    expect(checkVatDigits('DE136695977')).to.equal('invalid');
    expect(checkVatDigits('NL004495445B01')).to.equal('valid'); // elfproef
    expect(checkVatDigits('NL004495446B01')).to.equal('invalid');
    expect(checkVatDigits('FR44732829320')).to.equal('valid');
    expect(checkVatDigits('FR45732829320')).to.equal('invalid');
    expect(checkVatDigits('FRK7732829320')).to.equal('unchecked'); // alphanumeric key: no public formula
    expect(checkVatDigits('IT00743110157')).to.equal('valid');
    expect(checkVatDigits('LU15027442')).to.equal('valid');
    expect(checkVatDigits('DK13585628')).to.equal('valid');
    expect(checkVatDigits('PL5260001246')).to.equal('valid');
    expect(checkVatDigits('ESX1234567L')).to.equal('unchecked');
  });
});

describe('Text recovery: layout', () => {
  it('groups runs into rows by baseline and into cells by the gaps between them', () => {
    const rows = rowsOf(
      page([
        [100, [40, 'Invoice'], [82, 'number:']],
        [101, [300, 'INV-1']],
        [130, [40, 'Next line']],
      ]),
      0,
    );
    expect(rows.map((r) => r.cells.map((c) => c.text))).to.deep.equal([['Invoice number:', 'INV-1'], ['Next line']]);
  });

  it('reads units and VAT cells as printed by us and by others', () => {
    expect(unitCodeOf('pcs')).to.equal('C62');
    expect(unitCodeOf('Std.')).to.equal('HUR');
    expect(unitCodeOf('uur')).to.equal('HUR');
    expect(unitCodeOf('m²')).to.equal('MTK');
    expect(unitCodeOf('KGM')).to.equal('KGM');
    expect(unitCodeOf('Blumen')).to.equal(null);
    expect(vatCellOf('0% G')).to.deep.include({ code: 'G' });
    expect(vatCellOf('21%')!.rate!.toFixed()).to.equal('21');
    expect(vatCellOf('O')).to.deep.equal({ rate: null, code: 'O' });
  });

  it('cuts a heading that pdfjs joined ("Aantal Eenheid") and the data under it into their columns', () => {
    const rows = rowsOf(
      page([
        [100, [40, 'Omschrijving'], [280, 'Aantal Eenheid'], [420, 'Prijs'], [470, 'BTW'], [530, 'Bedrag']],
        [118, [40, 'Onderhoud cv-ketel'], [300, '2 uur'], [415, '75,00'], [470, '21%'], [530, '150,00']],
        [140, [300, 'Totaal'], [530, '181,50']],
      ]),
      0,
    );
    const { items } = lineTable(rows, ',');
    expect(items).to.have.length(1);
    expect(items[0]!.quantity!.toFixed()).to.equal('2');
    expect(items[0]!.unit).to.equal('HUR');
    expect(items[0]!.unit_price!.toFixed(2)).to.equal('75.00');
    expect(items[0]!.amount!.toFixed(2)).to.equal('150.00');
  });

  it('joins a heading wrapped over two lines ("Prix unitaire" / "HT") and appends wrapped descriptions', () => {
    const rows = rowsOf(
      page([
        [95, [350, 'Prix unitaire']],
        [100, [40, 'Désignation'], [300, 'Qté'], [440, 'TVA'], [500, 'Montant HT']],
        [105, [390, 'HT']],
        [125, [40, 'Reliure d’art, cuir'], [310, '3'], [380, '420,00'], [440, '20 %'], [510, '1 260,00']],
        [137, [40, 'pleine peau']],
        [160, [300, 'Total HT'], [510, '1 260,00']],
      ]),
      0,
    );
    const { items } = lineTable(rows, ',');
    expect(
      items.map((i) => [
        i.description,
        i.quantity?.toFixed(),
        i.unit_price?.toFixed(2),
        i.tax_rate?.toFixed(),
        i.amount?.toFixed(2),
      ]),
    ).to.deep.equal([['Reliure d’art, cuir pleine peau', '3', '420.00', '20', '1260.00']]);
  });

  it('reads discount and shipping lines printed among the totals as document allowances and charges', () => {
    const r = recoverFromText(
      [
        page([
          [100, [40, 'Description'], [300, 'Qty'], [380, 'Price'], [470, 'Amount']],
          [118, [40, 'Garden chairs'], [310, '4'], [380, '50.00'], [470, '200.00']],
          [150, [300, 'Subtotal'], [470, '205.00']],
          [162, [300, 'Discount 5%'], [470, '-10.00']],
          [174, [300, 'Shipping'], [470, '15.00']],
          [186, [300, 'VAT 21%'], [470, '43.05']],
          [198, [300, 'Total'], [470, '248.05']],
        ]),
      ],
      { vendorTaxId: null, customerTaxId: null },
    ).document;
    expect(r.allowances.map((a) => [a.reason, a.amount!.toFixed(2)])).to.deep.equal([['Discount 5%', '10.00']]);
    expect(r.charges.map((a) => [a.reason, a.amount!.toFixed(2)])).to.deep.equal([['Shipping', '15.00']]);
    expect([r.subtotal!.toFixed(2), r.total_tax!.toFixed(2), r.invoice_total!.toFixed(2)]).to.deep.equal([
      '205.00',
      '43.05',
      '248.05',
    ]);
    // The only rate printed applies to the line, whose table has no VAT column.
    expect(r.items.map((i) => [i.quantity!.toFixed(), i.unit_price!.toFixed(2), i.tax_rate!.toFixed()])).to.deep.equal([
      ['4', '50.00', '21'],
    ]);
    const completed = completeDocument(r, 'strict');
    expect(completed.problems).to.deep.equal([]);
  });

  it('answers a page without text (a scan) with hasText false, and invents nothing', () => {
    const scan = recoverFromText([{ width: 595, height: 842, items: [] }], { vendorTaxId: null, customerTaxId: null });
    expect(scan.hasText).to.equal(false);
    expect(scan.document.invoice_id).to.equal(null);
  });

  it('uses the hints to tell the seller from the buyer when the layout has no headings', () => {
    const pages = [
      page([
        [60, [40, 'Tulip Trading B.V.'], [330, 'Northsea Consulting BV']],
        [72, [40, 'Keizersgracht 1'], [330, 'Meir 44']],
        [84, [40, '1015 CJ Amsterdam'], [330, '2000 Antwerpen']],
        [96, [40, 'VAT NL123456782B01'], [330, 'VAT BE0451234595']],
        [140, [40, 'Invoice number: NC-118']],
      ]),
    ];
    const withoutHints = recoverFromText(pages, { vendorTaxId: null, customerTaxId: null }).document;
    expect(withoutHints.vendor_name).to.equal('Tulip Trading B.V.');
    const hinted = recoverFromText(pages, { vendorTaxId: 'BE0451234595', customerTaxId: null }).document;
    expect([hinted.vendor_name, hinted.vendor_tax_id, hinted.customer_name, hinted.customer_tax_id]).to.deep.equal([
      'Northsea Consulting BV',
      'BE0451234595',
      'Tulip Trading B.V.',
      'NL123456782B01',
    ]);
  });

  it('takes a VAT number the PDF does not print from the hint, and says so', () => {
    const r = recoverFromText(
      [
        page([
          [60, [40, 'Invoice number: X-1']],
          [80, [40, 'Total 100.00']],
        ]),
      ],
      { vendorTaxId: 'BE0403013026', customerTaxId: null },
    );
    expect(r.document.vendor_tax_id).to.equal('BE0403013026');
    expect(r.warnings.some((w) => /from the request/.test(w))).to.equal(true);
  });
});

describe('Presentation of amounts (what the renderer prints and the reader reads back)', () => {
  it('groups thousands, keeps price decimals and prints negatives with a minus sign', () => {
    expect(groupThousands('1234567.5')).to.equal('1,234,567.5');
    expect(amountText(new Dec('-51'))).to.equal('−51.00');
    expect(priceText(new Dec('0.333'))).to.equal('0.333');
    expect(priceText(new Dec('1840'))).to.equal('1,840.00');
    expect(ibanText('BE68539007547034')).to.equal('BE68 5390 0754 7034');
  });
});

describe('Text recovery on large and hostile text layers (bounded work: linear in the runs read)', function () {
  this.timeout(60_000);
  const page = (items: TextPage['items']): TextPage => ({ width: 595, height: 842, items });

  it('groups 100,000 runs on distinct baselines into 100,000 rows (grouping was quadratic in the baselines of a page)', () => {
    const items = Array.from({ length: 100_000 }, (_, i) => ({
      text: `w${i}`,
      x: 50,
      y: i * 0.5,
      width: 10,
      height: 1,
    }));
    const rows = rowsOfPages([page(items)]);
    expect(rows).to.have.length(100_000);
    expect(rows[99_999]!.text).to.equal('w99999');
  });

  it('still joins runs of one baseline, and of a large font with text just beside it', () => {
    const rows = rowsOfPages([
      page([
        { text: 'INVOICE', x: 300, y: 100, width: 100, height: 60 },
        { text: 'Acme', x: 50, y: 110, width: 30, height: 9 },
        { text: 'next line', x: 50, y: 200, width: 40, height: 9 },
        { text: 'same line', x: 300, y: 200.5, width: 40, height: 9 },
      ]),
    ]);
    expect(rows.map((r) => r.cells.map((c) => c.text))).to.deep.equal([
      ['Acme', 'INVOICE'],
      ['next line', 'same line'],
    ]);
  });

  it('reads the first of 50,000 "Note" headings only (each used to read down the rest of the page)', () => {
    const items = Array.from({ length: 50_000 }, (_, i) => ({
      text: 'Note',
      x: 50,
      y: 100 + i * 2,
      width: 20,
      height: 9,
    }));
    const recovered = recoverFromText([page(items)], { vendorTaxId: null, customerTaxId: null });
    expect(recovered.hasText).to.equal(true);
  });
});
