/*
 * The text layer of a PDF page as positioned runs of text, and its grouping into rows and cells:
 * the common ground of every reading strategy (labels, tables, party blocks).
 */

/** One run of text; coordinates in points, y is the baseline measured from the top of the page. */
export interface TextItem {
  text: string;
  x: number;
  y: number;
  width: number;
  /** Font size. */
  height: number;
}

export interface TextPage {
  width: number;
  height: number;
  items: TextItem[];
}

/** Runs close enough to read as one phrase. */
export interface Cell {
  text: string;
  x: number;
  /** Right edge. */
  x2: number;
  size: number;
}

/** Cells sharing a baseline, left to right. */
export interface Row {
  page: number;
  y: number;
  cells: Cell[];
  /** The cells joined with single spaces. */
  text: string;
}

/** A gap wider than this many font sizes starts a new cell (a word space is about 0.25 of the size in proportional fonts, 0.6 in monospaced ones; table columns stand further apart). */
const CELL_GAP = 0.8;
/** Baselines closer than this many font sizes are one row. */
const SAME_ROW = 0.35;
/** Font sizes count as at least 1 and at most this when baselines are compared (no invoice prints larger). */
const MAX_ROW_SIZE = 100;

// Damaged or oddly encoded fonts yield control characters and replacement marks: they are not
// text anyone printed (and PostgreSQL refuses \u0000 in JSON).
const clean = (s: string): string =>
  s
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufffd\ufffe\uffff]/g, '')
    .replace(/[\u00a0\u2007\u202f]/g, ' ')
    .replace(/\s+/g, ' ');

/** Groups a page's runs into rows (top to bottom) of cells (left to right). */
export function rowsOf(page: TextPage, pageIndex: number): Row[] {
  const items = page.items
    .map((i) => ({ ...i, text: clean(i.text) }))
    .filter((i) => i.text.trim() !== '')
    .sort((a, b) => a.y - b.y || a.x - b.x);
  const rows: Array<{ y: number; size: number; items: TextItem[] }> = [];
  for (const item of items) {
    // The first row whose baseline is close enough. Rows are made top to bottom, each more than
    // SAME_ROW below the one before: only those within the largest reach can be close enough, so
    // looking back from the last row stops after at most MAX_ROW_SIZE + 1 rows, and grouping
    // stays linear in the number of runs (it was quadratic: a page of distinct baselines).
    const size = Math.min(Math.max(item.height, 1), MAX_ROW_SIZE);
    let row: (typeof rows)[number] | undefined;
    for (let k = rows.length - 1; k >= 0 && item.y - rows[k]!.y <= SAME_ROW * MAX_ROW_SIZE; k--) {
      if (Math.abs(rows[k]!.y - item.y) <= SAME_ROW * Math.max(rows[k]!.size, size)) row = rows[k];
    }
    if (row) row.items.push(item);
    else rows.push({ y: item.y, size, items: [item] });
  }
  rows.sort((a, b) => a.y - b.y);
  return rows.map((r) => {
    const sorted = r.items.sort((a, b) => a.x - b.x);
    const cells: Cell[] = [];
    for (const item of sorted) {
      const last = cells[cells.length - 1];
      const gap = last ? item.x - last.x2 : Infinity;
      if (last && gap < CELL_GAP * Math.max(item.height, last.size, 1)) {
        const space = gap > 0.15 * item.height && !last.text.endsWith(' ') && !item.text.startsWith(' ') ? ' ' : '';
        last.text = `${last.text}${space}${item.text}`;
        last.x2 = Math.max(last.x2, item.x + item.width);
      } else {
        cells.push({ text: item.text, x: item.x, x2: item.x + item.width, size: item.height });
      }
    }
    for (const c of cells) c.text = c.text.trim();
    const kept = cells.filter((c) => c.text !== '');
    return { page: pageIndex, y: r.y, cells: kept, text: kept.map((c) => c.text).join(' ') };
  });
}

/** Every row of every page, in reading order. */
export const rowsOfPages = (pages: TextPage[]): Row[] => pages.flatMap((p, i) => rowsOf(p, i));
