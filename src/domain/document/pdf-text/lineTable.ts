import type { Decimal } from 'decimal.js';
import type { TaxCode } from '../invoice/codeLists.js';
import { UNIT_NAMES } from '../presentation/documentPresentation.js';
import { emptyLineItem } from '../invoice/documentModel.js';
import type { AllowanceCharge, LineItem } from '../invoice/documentModel.js';
import { parseDecimal } from '../invoice/money.js';
import { ALLOWANCE_TABLE_HEADING, COLUMN_LABELS, TOTAL_LABELS, VAT_TABLE_HEADING } from './labels.js';
import type { ColumnKind } from './labels.js';
import { amountOf, parseNumber, percentIn } from './numbers.js';
import type { DecimalSeparator } from './numbers.js';
import type { Cell, Row } from './textLayout.js';

/*
 * Line tables: a heading row naming at least three known columns (one of them the description,
 * one an amount or a price) fixes where each column is; every following row is cut along those
 * columns until the totals start. A row with figures starts an item; a row with only a
 * description continues the previous one (wrapped text, item code, line allowances and charges).
 * Tables that continue on the next page (with or without a repeated heading) are followed.
 */

interface Column {
  kind: ColumnKind;
  x: number;
  x2: number;
}

export interface LineTableResult {
  items: LineItem[];
  /** Rows that belong to the table (its heading included), so other readers leave them alone. */
  rows: Set<Row>;
  /** Where the table ends, so that party blocks are looked for above it. */
  firstRowY: number | null;
}

const columnOf = (text: string): ColumnKind | null => COLUMN_LABELS.find(([, re]) => re.test(text.trim()))?.[0] ?? null;

/** A cell cut into parts at character ranges; each part's position is estimated in proportion to its characters. */
function cutCell(cell: Cell, ranges: Array<[number, number]>): Cell[] {
  const width = cell.x2 - cell.x;
  const n = Math.max(cell.text.length, 1);
  return ranges.map(([from, to]) => ({
    text: cell.text.slice(from, to).trim(),
    x: cell.x + (width * from) / n,
    x2: cell.x + (width * to) / n,
    size: cell.size,
  }));
}

/** Words of a cell with their character ranges. */
const wordsOf = (text: string): Array<[number, number]> =>
  [...text.matchAll(/\S+/g)].map((m) => [m.index!, m.index! + m[0].length]);

/**
 * A heading cell that holds several headings ("Aantal Eenheid": pdfjs joins runs that are close
 * together), cut into one cell per heading; null when its words are not all headings.
 */
function splitHeadings(cell: Cell): Cell[] | null {
  if (columnOf(cell.text)) return [cell];
  const words = wordsOf(cell.text);
  const ranges: Array<[number, number]> = [];
  let i = 0;
  while (i < words.length) {
    let taken = 0;
    // Longest run of words that is one heading ("Unit price" before "Unit").
    for (let j = words.length; j > i; j--) {
      if (columnOf(cell.text.slice(words[i]![0], words[j - 1]![1]))) {
        ranges.push([words[i]![0], words[j - 1]![1]]);
        taken = j - i;
        break;
      }
    }
    if (taken === 0) return null;
    i += taken;
  }
  return ranges.length > 1 ? cutCell(cell, ranges) : null;
}

/**
 * The cells of a heading row together with headings wrapped over two lines ("Prix unitaire" /
 * "HT" above and below the row's baseline): cells of the rows just above and below that stand
 * over each other are read as one heading.
 */
function headingCells(rows: Row[], index: number): { cells: Cell[]; rows: Row[] } {
  const row = rows[index]!;
  const size = row.cells[0]?.size ?? 9;
  const near = [rows[index - 1], row, rows[index + 1]].filter(
    (r): r is Row => r !== undefined && r.page === row.page && Math.abs(r.y - row.y) <= 1.3 * size,
  );
  const stacks: Array<{ parts: Cell[] }> = [];
  for (const r of near.sort((a, b) => a.y - b.y)) {
    for (const cell of r.cells) {
      const over = stacks.find((st) => st.parts.some((p) => Math.min(p.x2, cell.x2) - Math.max(p.x, cell.x) > 0));
      if (over) over.parts.push(cell);
      else stacks.push({ parts: [cell] });
    }
  }
  const cells = stacks.map((st) => ({
    text: st.parts.map((p) => p.text).join(' '),
    x: Math.min(...st.parts.map((p) => p.x)),
    x2: Math.max(...st.parts.map((p) => p.x2)),
    size: st.parts[0]!.size,
  }));
  return { cells, rows: near };
}

/** A heading row: three or more known columns, among them the description and an amount or a price. */
export function tableHeading(cells: Cell[]): Column[] | null {
  const columns: Column[] = [];
  for (const cell of cells.flatMap((c) => splitHeadings(c) ?? [c])) {
    const kind = columnOf(cell.text);
    if (kind && !columns.some((c) => c.kind === kind)) columns.push({ kind, x: cell.x, x2: cell.x2 });
  }
  if (columns.length < 3) return null;
  const kinds = new Set(columns.map((c) => c.kind));
  if (!kinds.has('description') || !(kinds.has('amount') || kinds.has('unitPrice'))) return null;
  return columns.sort((a, b) => a.x - b.x);
}

/** Heading rows at the given row: the heading itself, with the lines of headings wrapped around it. */
function headingAt(rows: Row[], index: number): { columns: Column[]; rows: Row[] } | null {
  if (
    !rows[index]!.cells.some(
      (c) => columnOf(c.text) === 'description' || splitHeadings(c)?.some((p) => columnOf(p.text) === 'description'),
    )
  )
    return null;
  const plain = tableHeading(rows[index]!.cells);
  const stacked = headingCells(rows, index);
  const withWrapped = stacked.rows.length > 1 ? tableHeading(stacked.cells) : null;
  if (withWrapped && withWrapped.length > (plain?.length ?? 0)) return { columns: withWrapped, rows: stacked.rows };
  return plain ? { columns: plain, rows: [rows[index]!] } : null;
}

/** The column a cell falls in: the most overlap, else the nearest. */
function assign(cell: Cell, columns: Column[]): Column {
  let best = columns[0]!;
  let bestScore = -Infinity;
  for (const col of columns) {
    const overlap = Math.min(cell.x2, col.x2) - Math.max(cell.x, col.x);
    // Text columns are left aligned: a long description overlaps its heading and reaches far right.
    const score = overlap > 0 ? overlap : -Math.min(Math.abs(cell.x - col.x), Math.abs(cell.x2 - col.x2));
    if (score > bestScore) {
      bestScore = score;
      best = col;
    }
  }
  return best;
}

/** A data cell that spans several columns (runs joined by pdfjs) is cut into its words, each placed in its column. */
function placeCells(cells: Cell[], columns: Column[]): Array<{ cell: Cell; column: Column }> {
  const out: Array<{ cell: Cell; column: Column }> = [];
  for (const cell of cells) {
    const spanned = columns.filter((c) => Math.min(cell.x2, c.x2) - Math.max(cell.x, c.x) > 0);
    const words = wordsOf(cell.text);
    if (spanned.length < 2 || words.length < 2 || spanned.some((c) => c.kind === 'description')) {
      out.push({ cell, column: assign(cell, columns) });
      continue;
    }
    for (const part of cutCell(cell, words)) {
      const column = assign(part, columns);
      const last = out[out.length - 1];
      // Words of one column stay together ("Unit price" data such as "1 240,00" grouped by a space).
      if (last && last.column === column && last.cell.x2 >= part.x - cell.size) {
        last.cell = { ...last.cell, text: `${last.cell.text} ${part.text}`, x2: part.x2 };
      } else {
        out.push({ cell: part, column });
      }
    }
  }
  return out;
}

/** Unit names in the languages we read, to UN/ECE Rec 20 codes. */
const UNIT_WORDS: ReadonlyArray<[string, RegExp]> = [
  ['C62', /^(?:pcs?|pieces?|pc\.|stuks?|st\.?|pièces?|pce?s?\.?|stk\.?|stück|units?|x|each|ea)$/i],
  ['HUR', /^(?:h|hrs?|hours?|uur|uren|u|heures?|std\.?|stunden?)$/i],
  ['DAY', /^(?:days?|dagen|dag|d|jours?|j|tage?)$/i],
  ['WEE', /^(?:weeks?|weken|week|semaines?|wochen?)$/i],
  ['MON', /^(?:months?|maanden|maand|mois|monate?|mon\.?)$/i],
  ['ANN', /^(?:years?|jaar|jaren|ans?|années?|jahre?)$/i],
  ['MIN', /^(?:min|minutes?|minuten)$/i],
  ['KGM', /^(?:kg|kilos?|kilograms?|kilogrammes?)$/i],
  ['MTR', /^(?:m|meters?|metres?|mètres?|meter)$/i],
  ['MTK', /^(?:m²|m2|sqm)$/i],
  ['MTQ', /^(?:m³|m3)$/i],
  ['KMT', /^(?:km)$/i],
  ['LTR', /^(?:l|liters?|litres?|liter)$/i],
  ['TNE', /^(?:t|tonnes?|tons?|ton)$/i],
  ['KWH', /^(?:kwh)$/i],
  ['SET', /^(?:sets?)$/i],
  ['PR', /^(?:pairs?|paar|paires?)$/i],
  ['XBX', /^(?:box|boxes|doos|dozen|boîtes?|karton)$/i],
];

/** A printed unit as a Rec 20 code: our own short names, common words, or a code as such. */
export const unitCodeOf = (text: string): string | null => {
  const t = text.trim();
  if (t === '') return null;
  const ours = Object.entries(UNIT_NAMES).find(([, name]) => name === t);
  if (ours) return ours[0];
  const word = UNIT_WORDS.find(([, re]) => re.test(t));
  if (word) return word[0];
  return /^[A-Z0-9]{2,3}$/.test(t) && /[A-Z]/.test(t) ? t : null;
};

/** "21%", "0% E", "0% G", "O": rate and (when printed) category. */
export const vatCellOf = (text: string): { rate: Decimal | null; code: TaxCode | null } | null => {
  const t = text.trim();
  if (t === 'O') return { rate: null, code: 'O' };
  const rate = percentIn(t);
  if (rate === null) {
    const bare = /^(\d{1,2}(?:[.,]\d{1,2})?)$/.exec(t);
    return bare ? { rate: parseDecimal(bare[1]!.replace(',', '.')), code: null } : null;
  }
  const code = /%\s*(S|Z|E|AE|K|G|O|L|M|B)$/.exec(t)?.[1] as TaxCode | undefined;
  return { rate, code: code ?? null };
};

/**
 * "Launch discount [95] (10% of 510.00) −51.00" → reason, code, factor, base, amount: the
 * allowance/charge text of our renderings (documentPresentation.allowanceChargeReason).
 */
export function allowanceChargeOf(text: string, sep: DecimalSeparator): AllowanceCharge | null {
  const m =
    /^(.*?)\s*(?:\[([A-Z0-9]{1,3})\])?\s*(?:\((\d+(?:[.,]\d+)?)% of ([\d.,\s']+)\))?\s+([-−–]?\s?[\d.,\s']+)$/.exec(
      text.trim(),
    );
  if (!m) return null;
  const amount = amountOf(m[5]!, sep);
  if (amount === null) return null;
  return {
    reason: m[1]!.trim() || null,
    reason_code: m[2] ?? null,
    multiplier_factor: m[3] ? parseDecimal(m[3].replace(',', '.')) : null,
    amount: amount.abs(),
    base_amount: m[4] ? amountOf(m[4], sep) : null,
    tax_rate: null,
    tax_code: null,
  };
}

const DETAIL = /^(Item code|Code|SKU|Art\.?-?Nr\.?|Artikelnummer|Réf\.?|Ref\.?|Allowance|Charge)\s*:\s*(.+)$/i;

/** The totals (a short row starting with a total label) or another table end the line table. */
const isStopRow = (row: Row): boolean =>
  (row.cells.length <= 3 && row.cells.some((c) => TOTAL_LABELS.some(([, re]) => re.test(c.text)))) ||
  row.cells.some((c) => VAT_TABLE_HEADING.test(c.text) || ALLOWANCE_TABLE_HEADING.test(c.text));

const FOOTER = /\b(?:page|pagina|seite|blad)\s*\d+\s*(?:of|\/|van|de|sur|von)\s*\d+\b/i;

interface Draft {
  item: LineItem;
  lastY: number;
  page: number;
}

/** The items of the document's line table(s). */
export function lineTable(rows: Row[], sep: DecimalSeparator): LineTableResult {
  const used = new Set<Row>();
  const items: LineItem[] = [];
  let columns: Column[] | null = null;
  let current: Draft | null = null;
  let firstRowY: number | null = null;
  let done = false;

  const skip = new Set<Row>();
  for (let index = 0; index < rows.length; index++) {
    if (done) break;
    const row = rows[index]!;
    if (skip.has(row)) continue;
    const heading = headingAt(rows, index);
    if (heading) {
      // A repeated heading on the next page continues the table with that page's column positions.
      if (columns === null) firstRowY = Math.min(...heading.rows.map((r) => r.y));
      columns = heading.columns;
      for (const r of heading.rows) {
        used.add(r);
        skip.add(r);
      }
      current = null;
      continue;
    }
    if (!columns) continue;
    if (FOOTER.test(row.text)) continue;
    if (isStopRow(row)) {
      done = true;
      break;
    }
    const cells = new Map<ColumnKind, string>();
    for (const { cell, column } of placeCells(row.cells, columns)) {
      cells.set(column.kind, cells.has(column.kind) ? `${cells.get(column.kind)} ${cell.text}` : cell.text);
    }
    const amount = cells.has('amount') ? amountOf(cells.get('amount')!, sep) : null;
    let quantityText = cells.get('quantity') ?? null;
    let unitText = cells.get('unit') ?? null;
    // "2 pcs" in one cell: number, then unit.
    if (quantityText && !unitText) {
      const m = /^([\d.,\s']+?)\s*([^\d\s].*)$/.exec(quantityText);
      if (m && unitCodeOf(m[2]!)) {
        quantityText = m[1]!;
        unitText = m[2]!;
      }
    }
    const quantity = quantityText ? parseNumber(quantityText, sep) : null;
    const price = cells.has('unitPrice') ? parseNumber(cells.get('unitPrice')!, sep) : null;
    const description = cells.get('description')?.trim() ?? null;
    const hasFigures = amount !== null || (quantity !== null && price !== null);

    if (hasFigures && description) {
      const vat = cells.has('vat') ? vatCellOf(cells.get('vat')!) : null;
      const item: LineItem = {
        ...emptyLineItem(),
        description,
        quantity:
          quantity ??
          (price !== null && amount !== null && !price.isZero() ? null : amount !== null ? parseDecimal('1') : null),
        unit: unitText ? unitCodeOf(unitText) : null,
        unit_price: price ?? (quantity === null ? amount : null),
        amount,
        tax_rate: vat?.rate ?? null,
        tax_code: vat?.code ?? null,
        product_code: cells.get('code')?.trim() || null,
      };
      if (item.quantity === null && amount !== null && price !== null && !price.isZero()) {
        const q = amount.div(price);
        if (q.decimalPlaces() <= 4) item.quantity = q;
      }
      items.push(item);
      current = { item, lastY: row.y, page: row.page };
      used.add(row);
      continue;
    }
    // Continuation: only the description column, close under the previous item on the same page.
    const onlyDescription = [...cells.keys()].every((k) => k === 'description' || k === 'code' || k === 'number');
    if (
      current &&
      onlyDescription &&
      description &&
      row.page === current.page &&
      row.y - current.lastY < 3 * (row.cells[0]?.size ?? 9)
    ) {
      const detail = DETAIL.exec(description);
      if (detail) {
        const kind = detail[1]!.toLowerCase();
        if (kind === 'allowance' || kind === 'charge') {
          const ac = allowanceChargeOf(detail[2]!, sep);
          if (ac) (kind === 'allowance' ? current.item.allowances : current.item.charges).push(ac);
        } else {
          current.item.product_code ??= detail[2]!.trim();
        }
      } else {
        current.item.description = `${current.item.description} ${description}`;
      }
      current.lastY = row.y;
      used.add(row);
      continue;
    }
    // Anything else ends the current item; the table itself ends at the totals.
    current = null;
  }
  return { items, rows: used, firstRowY };
}
